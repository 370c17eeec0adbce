package ui

// This file is the tools child's record of the running round in the
// history: which calls the round holds, the output each has so far, and
// when that was last written, so that a runnel killed mid-round leaves
// behind which calls ran and what they printed (toolresume.go takes it up).
// It writes through the round's session.TurnLog; it does not run calls or
// show them.

import (
	"encoding/json"
	"slices"
	"time"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
)

// roundRecord is the running round's record in the history.
//
// Invariants: ids lists the round's calls once each, in the order its
// response gave them; out holds the output each has so far (running,
// final, or none while it waits for approval), keyed by call id; running
// holds the calls started and not yet ended, each in ids. log is the
// round's record (nil: no journal, or between rounds), and nothing is
// written without one. saved is when out was last written to log; unsaved
// says out changed since then: a start or a result is written at once, a
// call's printed output at most once per session.SaveEvery (flush), so a
// kill loses at most that much of it.
type roundRecord struct {
	log     *session.TurnLog
	ids     []string
	out     map[string]json.RawMessage
	running map[string]bool
	saved   time.Time
	unsaved bool // out changed since it was last written to log
}

func newRoundRecord() roundRecord {
	return roundRecord{out: map[string]json.RawMessage{}, running: map[string]bool{}}
}

// begin starts the record of a round on the calls of response respID (one
// of snaps), holding seed's outputs first (a resumed round's calls that
// already ran), written at once when there are any. log is the round's
// record (nil: none).
func (r *roundRecord) begin(log *session.TurnLog, snaps []*stream.Snapshot, respID string, seed map[string]json.RawMessage, now time.Time) {
	r.ids = r.ids[:0]
	clear(r.out)
	clear(r.running)
	r.unsaved = false
	for _, s := range snaps {
		if s.ID != respID {
			continue
		}
		for _, it := range s.Items {
			if it.Type == "function_call" && it.CallID != "" && !slices.Contains(r.ids, it.CallID) {
				r.ids = append(r.ids, it.CallID) // one record per call, however often the stream listed it
				if o := seed[it.CallID]; o != nil {
					r.out[it.CallID] = o
				}
			}
		}
	}
	r.log = log
	if len(seed) > 0 {
		r.save(now)
	}
}

// started records that call id runs, with nothing printed yet.
func (r *roundRecord) started(id string, now time.Time) {
	r.running[id] = true
	r.out[id] = session.RunningOutput(id, "")
	r.save(now)
}

// printed records what a running call has printed so far: written on the
// next flush, not now.
func (r *roundRecord) printed(id, text string, now time.Time) {
	if !r.running[id] {
		return
	}
	r.out[id] = session.RunningOutput(id, text)
	r.unsaved = true
	r.flush(now)
}

// ended records a call's result: its output and how its run ended.
func (r *roundRecord) ended(res tools.Result, now time.Time) {
	id := res.Call.CallID
	delete(r.running, id)
	r.out[id] = stream.OutputItem(id, res.Output)
	r.save(now)
	r.ran(id, tools.Ended(res))
}

// ran records how the run of call id ended, beside its output.
func (r *roundRecord) ran(id string, run tools.Run) {
	if r.log != nil {
		r.log.Ran(id, run)
	}
}

// runningIDs lists the calls running now, in the round's order.
func (r *roundRecord) runningIDs() []string {
	var out []string
	for _, id := range r.ids {
		if r.running[id] {
			out = append(out, id)
		}
	}
	return out
}

// save writes the outputs as they stand.
func (r *roundRecord) save(now time.Time) {
	if r.log == nil {
		return
	}
	r.saved, r.unsaved = now, false
	r.log.SetInput(session.RoundInput(r.ids, r.out))
}

// flush writes the outputs when they changed and session.SaveEvery has
// passed since the last write.
func (r *roundRecord) flush(now time.Time) {
	if r.unsaved && now.Sub(r.saved) >= session.SaveEvery {
		r.save(now)
	}
}

// close ends the record of a round that sends nothing (stopped or
// abandoned), with outs as the calls' last outputs: the next message
// carries them. The record is detached.
func (r *roundRecord) close(outs map[string]json.RawMessage) {
	for id, o := range outs {
		r.out[id] = o
	}
	clear(r.running)
	if r.log != nil {
		r.log.EndRound(session.RoundInput(r.ids, r.out))
	}
	r.log = nil
}

// handOff detaches the record of a round that settled: it goes on as the
// record of the request that sends the outputs (nil: none). A round that
// has nothing to send (sends false) ends its record here.
func (r *roundRecord) handOff(sends bool) *session.TurnLog {
	log := r.log
	r.log = nil
	clear(r.running)
	if !sends && log != nil {
		log.EndRound(nil)
		return nil
	}
	return log
}
