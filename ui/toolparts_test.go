package ui

import (
	"slices"
	"testing"

	"runnel/session/tools"
)

// TestLocalAsksReplyOnce proves localAsks' invariants: questions are shown
// one at a time in the order asked; each gets exactly one reply, the user's
// or a denial when the round stops, so no runner goroutine is left waiting;
// a denial's reason is kept (sanitized) for its panel, an approval's is
// not; nothing is asked once all are answered.
func TestLocalAsksReplyOnce(t *testing.T) {
	t.Parallel()
	f := newTestModel(t, Options{}).frame
	ask := func(id string) approvalAsk {
		return approvalAsk{req: tools.ApprovalRequest{Call: tools.Call{CallID: id, Name: "f_" + id}}, reply: make(chan answer, 2)}
	}
	replies := func(a approvalAsk) []answer {
		var out []answer
		for len(a.reply) > 0 {
			out = append(out, <-a.reply)
		}
		return out
	}
	var a localAsks
	one, two, three := ask("1"), ask("2"), ask("3")
	a.add(one, f)
	a.add(two, f)
	a.add(three, f)
	if c, ok := a.asked(); !ok || c.CallID != "1" || len(a.queue) != 2 {
		t.Fatalf("asked %v %v with %d queued, want call 1 and 2 queued", c, ok, len(a.queue))
	}

	a.decide(tools.Deny, "no\x1b[31m thanks", f)
	if c, _ := a.asked(); c.CallID != "2" {
		t.Fatalf("after the first answer, asked %q, want 2", c.CallID)
	}
	if got := replies(one); len(got) != 1 || got[0].d != tools.Deny || got[0].reason != "no thanks" {
		t.Fatalf("call 1's replies %+v, want one denial with the reason sanitized", got)
	}
	if r := a.reason("1"); r != "no thanks" {
		t.Fatalf("call 1's reason %q", r)
	}

	a.decide(tools.Allow, "fine", f)
	if got := replies(two); len(got) != 1 || got[0].d != tools.Allow || a.reason("2") != "" {
		t.Fatalf("call 2's replies %+v, reason %q: want one approval, no reason kept", got, a.reason("2"))
	}

	a.denyAll(f) // the round stops with call 3 shown
	if got := replies(three); len(got) != 1 || got[0].d != tools.Deny {
		t.Fatalf("call 3's replies %+v, want one denial", got)
	}
	if _, ok := a.asked(); ok || len(a.queue) != 0 {
		t.Fatalf("after denyAll a question is still asked or queued")
	}
	a.decide(tools.Allow, "", f) // a late answer to a closed dialog replies to no one
	a.denyAll(f)
	for _, q := range []approvalAsk{one, two, three} {
		if got := replies(q); len(got) != 0 {
			t.Fatalf("call %s got a second reply %+v", q.req.Call.CallID, got)
		}
	}
	a.forget()
	if a.reason("1") != "" {
		t.Fatal("the round's reasons outlived it")
	}
}

// TestToolSetRemembersOnlyKnownTools: a resumed session's tool set switches
// on the tools it names that the configuration knows, and off the others;
// a name the configuration does not know is not switched on.
func TestToolSetRemembersOnlyKnownTools(t *testing.T) {
	t.Parallel()
	s := newToolSet(map[string]bool{"a": true, "b": false, "c": true}, nil)
	s.remember([]string{"b", "zz"})
	if got := s.on(); !slices.Equal(got, []string{"b"}) {
		t.Fatalf("on %v, want [b]", got)
	}
	s.choose(map[string]bool{"a": true})
	if got := s.on(); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("on %v after choosing a, want [a b]", got)
	}
	if s.env == nil {
		t.Fatal("no environment to read secrets from")
	}
}

// TestTurnStarts: the turn index answers which turn an entry is in, and
// where the turns after and before it start.
func TestTurnStarts(t *testing.T) {
	t.Parallel()
	ts := turnStarts{2, 5, 9}
	for _, tt := range []struct{ i, of, after, before int }{
		{0, -1, 2, 0}, // the welcome, above the first turn
		{2, 0, 5, 0},
		{3, 0, 5, 2},
		{5, 1, 9, 2},
		{7, 1, 9, 5},
		{9, 2, 12, 5}, // the last turn: after is the last entry
		{12, 2, 12, 9},
	} {
		if of, after, before := ts.of(tt.i), ts.after(tt.i, 12), ts.before(tt.i); of != tt.of || after != tt.after || before != tt.before {
			t.Errorf("entry %d: of %d after %d before %d, want %d %d %d", tt.i, of, after, before, tt.of, tt.after, tt.before)
		}
	}
}
