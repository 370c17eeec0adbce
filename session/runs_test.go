package session_test

import (
	"encoding/json"
	"testing"
	"time"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestResumedRoundReadsStoredOutcome: a round records how each call's run
// ended beside its output (TurnLog.Ran), and a resumed session reads it
// back typed: the outcome and duration recorded, whatever the output says;
// an output without a record (an older runnel wrote it) reads as
// unrecorded, not as ok; a call killed while running reads as interrupted.
func TestResumedRoundReadsStoredOutcome(t *testing.T) {
	for _, c := range []struct {
		name   string
		record func(round *session.TurnLog)
		state  session.CallState
		want   tools.Run
	}{
		{"recorded", func(round *session.TurnLog) {
			// the output reads like success: only the record says it failed
			round.SetInput([]json.RawMessage{stream.OutputItem("call_1", "all good\n")})
			round.Ran("call_1", tools.Ended(tools.Result{Status: tools.StatusFailed, Duration: 1500 * time.Millisecond}))
		}, session.CallAnswered, tools.Run{Phase: tools.RunEnded, Outcome: tools.StatusFailed, Took: 1500 * time.Millisecond}},
		{"not recorded", func(round *session.TurnLog) {
			// reads like runnel's own "cancelled by user": nothing is guessed from it
			round.SetInput([]json.RawMessage{stream.OutputItem("call_1", tools.CancelledOutput)})
		}, session.CallAnswered, tools.Run{Phase: tools.RunEnded, Outcome: tools.StatusUnrecorded}},
		{"killed while running", func(round *session.TurnLog) {
			round.SetInput([]json.RawMessage{session.RunningOutput("call_1", "half\n")})
			round.Ran("call_1", tools.Run{Phase: tools.RunRunning}) // not ended: not recorded
		}, session.CallInterrupted, tools.Run{Phase: tools.RunEnded, Outcome: tools.StatusInterrupted}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := streamtest.New(t)
			cl := &stream.Client{BaseURL: srv.URL}
			db := openStore(t)
			conv := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
			j := session.NewJournal(db, conv.Settings)
			srv.Enqueue(streamtest.Reply{SSE: callStream("resp_call", "call_1")})
			t1 := conv.Say("run it")
			send(t, conv, cl, t1, j.Begin(t1))
			c.record(j.BeginRound("resp_call"))
			j.Close()
			rc, probs := reload(t, db, j.ID())
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			calls := rc.ChainCalls()
			if len(calls) != 1 || calls[0].State != c.state || calls[0].Run != c.want {
				t.Fatalf("chain calls %+v, want state %v run %+v", calls, c.state, c.want)
			}
		})
	}
}
