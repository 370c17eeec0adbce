package ui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// recordSnaps is a response resp_1 listing call_a, call_b and call_a again,
// beside an older response whose call is not the round's.
func recordSnaps() []*stream.Snapshot {
	call := func(id string) *stream.Item { return &stream.Item{Type: "function_call", CallID: id, Name: "f"} }
	return []*stream.Snapshot{
		{ID: "resp_0", Items: []*stream.Item{call("call_z")}},
		{ID: "resp_1", Items: []*stream.Item{call("call_a"), {Type: "message"}, call("call_b"), call("call_a")}},
	}
}

// TestRoundRecordSavedAndUnsaved proves what the record's fields mean: the
// round's calls once each in the response's order; a start and a result
// are written at once (saved is then, unsaved false); printed output is
// unsaved until session.SaveEvery has passed since the last write, then
// flushed; output of a call not running is not recorded; without a log
// nothing is written; a closed or handed-off record is detached.
func TestRoundRecordSavedAndUnsaved(t *testing.T) {
	t.Parallel()
	j := session.NewJournal(tempDB(t), session.Settings{Model: "m"})
	defer j.Close()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := newRoundRecord()
	r.begin(j.BeginRound("resp_1"), recordSnaps(), "resp_1", nil, t0)
	if !slices.Equal(r.ids, []string{"call_a", "call_b"}) {
		t.Fatalf("ids %v, want [call_a call_b]", r.ids)
	}
	if !r.saved.IsZero() || r.unsaved || len(r.out) != 0 {
		t.Fatalf("a round with nothing to hold wrote (saved %v, unsaved %v, out %d)", r.saved, r.unsaved, len(r.out))
	}

	r.started("call_a", t0)
	if r.saved != t0 || r.unsaved || !slices.Equal(r.runningIDs(), []string{"call_a"}) {
		t.Fatalf("after the start: saved %v unsaved %v running %v", r.saved, r.unsaved, r.runningIDs())
	}
	r.printed("call_a", "half", t0.Add(100*time.Millisecond))
	if r.saved != t0 || !r.unsaved || !strings.Contains(string(r.out["call_a"]), `"half"`) {
		t.Fatalf("printed output within SaveEvery: saved %v unsaved %v out %s", r.saved, r.unsaved, r.out["call_a"])
	}
	r.flush(t0.Add(session.SaveEvery - time.Millisecond))
	if r.saved != t0 || !r.unsaved {
		t.Fatalf("flushed before SaveEvery passed: saved %v", r.saved)
	}
	r.printed("call_b", "not running", t0.Add(200*time.Millisecond))
	if r.out["call_b"] != nil {
		t.Fatalf("output of a call not started was recorded: %s", r.out["call_b"])
	}
	at := t0.Add(session.SaveEvery)
	r.flush(at)
	if r.saved != at || r.unsaved {
		t.Fatalf("not flushed once SaveEvery passed: saved %v unsaved %v", r.saved, r.unsaved)
	}

	end := at.Add(10 * time.Millisecond)
	r.ended(tools.Result{Call: tools.Call{CallID: "call_a", Name: "f"}, Status: tools.StatusOK, Output: "done"}, end)
	if r.saved != end || r.unsaved || len(r.runningIDs()) != 0 || string(r.out["call_a"]) != string(stream.OutputItem("call_a", "done")) {
		t.Fatalf("after the result: saved %v unsaved %v running %v out %s", r.saved, r.unsaved, r.runningIDs(), r.out["call_a"])
	}
	if log := r.handOff(true); log == nil || r.log != nil {
		t.Fatalf("handOff(true) gave %v and kept %v", log, r.log)
	}

	// the next round starts clean; a seeded one writes at once
	seed := map[string]json.RawMessage{"call_b": stream.OutputItem("call_b", "before")}
	r.begin(j.BeginRound("resp_1"), recordSnaps(), "resp_1", seed, end)
	if r.saved != end || r.unsaved || len(r.out) != 1 || r.out["call_b"] == nil {
		t.Fatalf("a seeded round: saved %v unsaved %v out %v", r.saved, r.unsaved, r.out)
	}
	r.started("call_a", end)
	r.close(map[string]json.RawMessage{"call_a": stream.OutputItem("call_a", "cancelled by user")})
	if r.log != nil || len(r.runningIDs()) != 0 || !strings.Contains(string(r.out["call_a"]), "cancelled") {
		t.Fatalf("after close: log %v running %v out %s", r.log, r.runningIDs(), r.out["call_a"])
	}

	// without a journal the record tracks but never writes
	r.begin(nil, recordSnaps(), "resp_1", seed, end)
	r.started("call_a", end.Add(time.Second))
	r.printed("call_a", "x", end.Add(3*time.Second))
	if r.saved != end || !r.unsaved {
		t.Fatalf("wrote without a log: saved %v unsaved %v", r.saved, r.unsaved)
	}
	if log := r.handOff(true); log != nil {
		t.Fatalf("handOff without a log gave %v", log)
	}
}

// TestRoundRecordKillKeepsAtMostSaveEvery: what a killed runnel leaves in
// the history is the record as last written: a call's start at once, the
// output it printed since the last write only once SaveEvery passed.
func TestRoundRecordKillKeepsAtMostSaveEvery(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		after time.Duration // when the second chunk is printed
		want  string        // the output the history keeps
	}{
		{"within SaveEvery", session.SaveEvery / 2, ""},
		{"after SaveEvery", session.SaveEvery, "first second"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := streamtest.New(t)
			db := tempDB(t)
			c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
			j := session.NewJournal(db, c.Settings)
			st := c.Say("weather?")
			journalReply(t, srv, c, st, j.Begin(st), streamtest.Events(weatherCallEvents("resp_call")...))
			resp := c.Turns[len(c.Turns)-1].Responses

			t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			r := newRoundRecord()
			r.begin(j.BeginRound("resp_call"), resp, "resp_call", nil, t0)
			r.started("call_1", t0)
			r.printed("call_1", "first", t0.Add(tt.after/2))
			r.printed("call_1", "first second", t0.Add(tt.after))
			j.Close() // killed: nothing more is written

			s, _, err := db.Load(j.ID())
			if err != nil {
				t.Fatal(err)
			}
			var got *session.ChainCall
			conv, _ := session.FromStore(s)
			for _, cc := range conv.ChainCalls() {
				if cc.Item.CallID == "call_1" {
					got = &cc
				}
			}
			if got == nil || got.State != session.CallInterrupted {
				t.Fatalf("the history's call_1: %+v, want an interrupted call", got)
			}
			if !strings.Contains(got.Output, tt.want) || (tt.want == "" && strings.Contains(got.Output, "first")) {
				t.Fatalf("the history keeps %q, want what was printed by the last write (%q)", got.Output, tt.want)
			}
		})
	}
}
