package store

import (
	"encoding/json"
	"sync"
	"time"
)

// Recorder buffers one turn's items as they stream and writes them in
// batches, so that the UI can note every change cheaply and the database sees
// one transaction per flush: done items as soon as a flush runs, partial ones
// at most once per interval. With an interval of a second, a crash loses at
// most the last second.
//
// Typical use: the UI calls Item for each item an event batch touched (no
// I/O) and, when it reports due, runs Flush in a tea.Cmd or a writer
// goroutine; when the turn ends (or is interrupted) it calls Flush once more
// and then FinishTurn.
//
// Invariants:
//   - pending holds, per item, the newest bytes not yet written;
//   - an item in done is never buffered again as partial;
//   - last is when the last successful Flush began (zero before one), so the
//     first Item is due at once and the turn's first text is saved early.
//
// Concurrency: safe for concurrent use; Item never blocks on I/O. Flushes
// run one at a time (flushing), so an older batch never lands after a newer.
type Recorder struct {
	db    *DB
	turn  TurnID
	every time.Duration

	flushing sync.Mutex // held for a whole Flush
	mu       sync.Mutex // guards the fields below
	pending  map[itemKey]ItemWrite
	done     map[itemKey]bool
	last     time.Time
}

type itemKey struct{ response, output int }

// NewRecorder returns a Recorder for turn tid that flushes partial items at
// most once every interval (a second if interval <= 0).
func (db *DB) NewRecorder(tid TurnID, every time.Duration) *Recorder {
	if every <= 0 {
		every = time.Second
	}
	return &Recorder{db: db, turn: tid, every: every, pending: map[itemKey]ItemWrite{}, done: map[itemKey]bool{}}
}

// Item notes the newest state of one item (raw must not be modified
// afterwards) and reports whether a Flush is due: the item is done, or the
// interval has passed since the last flush.
func (r *Recorder) Item(now time.Time, responseIdx, outputIdx int, raw json.RawMessage, done bool) (due bool) {
	k := itemKey{responseIdx, outputIdx}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done[k] && !done {
		return r.dueLocked(now)
	}
	if done {
		r.done[k] = true
	}
	r.pending[k] = ItemWrite{Response: responseIdx, Output: outputIdx, Raw: raw, Done: done}
	return done || r.dueLocked(now)
}

// Due reports whether there is something to write and the interval has
// passed, or a done item waits.
func (r *Recorder) Due(now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range r.pending {
		if w.Done {
			return true
		}
	}
	return r.dueLocked(now)
}

func (r *Recorder) dueLocked(now time.Time) bool {
	return len(r.pending) > 0 && (r.last.IsZero() || now.Sub(r.last) >= r.every)
}

// Flush writes everything noted since the last flush in one transaction.
// On failure nothing noted is lost: the next Flush tries again.
func (r *Recorder) Flush(now time.Time) error {
	r.flushing.Lock()
	defer r.flushing.Unlock()
	r.mu.Lock()
	batch := r.pending
	r.pending = map[itemKey]ItemWrite{}
	r.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	items := make([]ItemWrite, 0, len(batch))
	for _, w := range batch {
		items = append(items, w)
	}
	err := r.db.SaveItems(r.turn, items)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		for k, w := range batch {
			if _, newer := r.pending[k]; !newer {
				r.pending[k] = w
			}
		}
		return err
	}
	r.last = now
	return nil
}
