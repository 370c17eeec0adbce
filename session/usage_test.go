package session_test

import (
	"testing"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestResumeKeepsReasoningTokens: a turn's usage is stored with its
// details, so the reasoning (and cached) tokens are there after a resume.
func TestResumeKeepsReasoningTokens(t *testing.T) {
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	db := openStore(t)
	usage := `"usage":{"input_tokens":100,"output_tokens":50,"total_tokens":150,"input_tokens_details":{"cached_tokens":40},"output_tokens_details":{"reasoning_tokens":30}}`
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_u","model":"gpt-5-2025-08-07","status":"in_progress","output":[]}}`,
		`{"type":"response.completed","response":{"id":"resp_u","model":"gpt-5-2025-08-07","service_tier":"priority","status":"completed","output":[],`+usage+`}}`,
	)})
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	turn := c.Say("think")
	send(t, c, cl, turn, j.Begin(turn))
	j.Close()
	back, _ := reload(t, db, j.ID())
	rs := back.Turns[0].Responses
	u := rs[len(rs)-1].Usage
	if u == nil || u.OutputTokens != 50 || u.OutputDetails == nil || u.OutputDetails.ReasoningTokens != 30 ||
		u.InputDetails == nil || u.InputDetails.CachedTokens != 40 {
		t.Fatalf("usage after resume: %+v", u)
	}
	if m := rs[len(rs)-1].Model; m != "gpt-5-2025-08-07" { // the model that answered: its price, after a resume
		t.Fatalf("model after resume %q", m)
	}
	if tier := rs[len(rs)-1].ServiceTier; tier != "priority" { // the tier it ran on: its price too
		t.Fatalf("service tier after resume %q", tier)
	}
}
