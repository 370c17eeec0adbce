package session

import (
	"encoding/json"
	"testing"

	"runnel/session/store"
)

// TestFromStoreRestoresCompactedWindow: a stored compacted window no
// completed turn has sent is the start of the next request again (no
// previous_response_id), also after a turn that sent it failed; once a
// turn that sent it completed, the chain goes on from that turn.
func TestFromStoreRestoresCompactedWindow(t *testing.T) {
	window := []json.RawMessage{
		json.RawMessage(`{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`),
		json.RawMessage(`{"type":"compaction","id":"cmp_1","encrypted_content":"abc"}`),
	}
	before := store.Turn{Seq: 1, Prompt: "hi", Input: window[:1], ResponseIDs: []string{"resp_1"}, Status: store.StatusCompleted}
	sent := func(status store.Status, id string) store.Turn {
		return store.Turn{Seq: 2, Prompt: "next", Input: append(append([]json.RawMessage(nil), window...), json.RawMessage(`{"type":"message","role":"user","content":"next"}`)),
			ResponseIDs: []string{id}, Status: status}
	}
	for _, c := range []struct {
		name       string
		turns      []store.Turn
		wantWindow bool
		wantChain  string
	}{
		{"closed after /compact", []store.Turn{before}, true, ""},
		{"the turn that sent it failed", []store.Turn{before, sent(store.StatusFailed, "")}, true, ""},
		{"the turn that sent it completed", []store.Turn{before, sent(store.StatusCompleted, "resp_2")}, false, "resp_2"},
	} {
		conv, _ := FromStore(&store.Session{Settings: json.RawMessage(`{"model":"m","store":true}`), Turns: c.turns, Compacted: window})
		if got := conv.Window() != nil; got != c.wantWindow || conv.ChainID() != c.wantChain {
			t.Errorf("%s: window %v, chain %q; want %v, %q", c.name, got, conv.ChainID(), c.wantWindow, c.wantChain)
		}
		if !c.wantWindow {
			continue
		}
		turn := conv.Begin("so?", json.RawMessage(`{"type":"message","role":"user","content":"so?"}`))
		if turn.Request.PreviousResponseID != "" || len(turn.Request.Input) < 3 || string(turn.Request.Input[1]) != string(window[1]) {
			t.Errorf("%s: next request %+v", c.name, turn.Request)
		}
	}
}
