package store

import (
	"encoding/json"
	"testing"
)

// TestSetCompactedRoundTrip: a compacted window saved for a session comes
// back with it, byte for byte; nil clears it; an unknown session is an
// error.
func TestSetCompactedRoundTrip(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{"model":"gpt-5"}`)
	if s := load(t, db, sid); s.Compacted != nil {
		t.Fatalf("a new session has a window: %s", s.Compacted)
	}
	window := []json.RawMessage{
		json.RawMessage(`{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`),
		json.RawMessage(`{"type":"compaction","id":"cmp_1","encrypted_content":"abc"}`),
	}
	check(t, db.SetCompacted(sid, window))
	got := load(t, db, sid).Compacted
	if len(got) != 2 || string(got[0]) != string(window[0]) || string(got[1]) != string(window[1]) {
		t.Errorf("window %s", got)
	}
	check(t, db.SetCompacted(sid, nil))
	if s := load(t, db, sid); s.Compacted != nil {
		t.Errorf("cleared window is %s", s.Compacted)
	}
	if err := db.SetCompacted("0k0000000000", window); err == nil {
		t.Error("no error for an unknown session")
	}
}
