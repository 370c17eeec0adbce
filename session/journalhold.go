package session

import "time"

// This file lets the UI keep the journal's writer from starting a write
// while it draws: runnel runs on one processor (GOMAXPROCS=1, main's
// tuneProcs), so a write that starts first (the store indexes a finished
// item's text, 5–12 ms for 40 KB) holds every other goroutine until it
// ends or is preempted, 10 ms on. At the end of a paced answer its four
// writes held the stream's reader, the UI and Bubble Tea's renderer 30 ms
// of the 60 between the last byte and the status line's "ready".

// holdQueue is how many queued writes a hold lets wait: with more, the
// writer runs them at once, so no hold ever fills the queue (which would
// block the UI as it asks for a write).
const holdQueue = 64

// Defer asks the writer to start no write for d from now: what is queued
// meanwhile waits and keeps its order. A write that runs already runs on.
// The writer waits at most SaveEvery in all for the writes it holds (a
// crash loses no more than that), never while holdQueue writes or more
// are queued, and not at all once Close was called. Safe on any goroutine.
func (j *Journal) Defer(d time.Duration) {
	j.mu.Lock()
	if until := time.Now().Add(d); until.After(j.heldUntil) {
		j.heldUntil = until
	}
	j.mu.Unlock()
}

// yield waits, on the writer goroutine before a write, while Defer holds
// the writer: until the hold ends, the queue holds holdQueue writes, Close
// is called, or the writer has waited SaveEvery since the first hold it
// met.
func (j *Journal) yield() {
	var first time.Time
	for len(j.ops) < holdQueue {
		j.mu.Lock()
		until := j.heldUntil
		j.mu.Unlock()
		now := time.Now()
		if first.IsZero() {
			first = now
		}
		if limit := first.Add(SaveEvery); until.After(limit) {
			until = limit
		}
		if !now.Before(until) {
			return
		}
		if !j.hold(until, j.closing) {
			return
		}
	}
}

// waitUntil waits until the time given, or until closing is closed; it
// reports whether the time came.
func waitUntil(until time.Time, closing <-chan struct{}) bool {
	t := time.NewTimer(time.Until(until))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-closing:
		return false
	}
}

// Defer holds the journal's writer for d (Journal.Defer).
func (l *TurnLog) Defer(d time.Duration) { l.j.Defer(d) }

// Holding reports whether Defer holds the writer now.
func (j *Journal) Holding() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return time.Now().Before(j.heldUntil)
}
