package session

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"runnel/stream"
)

func answered(id, text string) *stream.Snapshot {
	s := snap(id, "completed")
	raw, _ := json.Marshal(map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": text}}})
	s.Items = []*stream.Item{{Type: "message", Done: true, Raw: raw}}
	return s
}

// Retry sends the last input from the same previous response; the chain
// moves to the new answer only when it completes; without stored state the
// request carries the history before the retried turn, not the old answer.
func TestRetry(t *testing.T) {
	if _, err := (&Conversation{}).Retry(); !errors.Is(err, ErrNothingToRetry) {
		t.Fatalf("retry with no turns: %v", err)
	}
	c := &Conversation{Settings: Settings{Model: "m", Store: true}}
	c.Finish(c.Say("one"), []*stream.Snapshot{answered("r1", "A1")}, nil, false)
	c.Finish(c.Say("two"), []*stream.Snapshot{answered("r2", "old")}, nil, false)
	c.Settings.Model = "other"
	rt, _ := c.Retry()
	if rt.Request.PreviousResponseID != "r1" || rt.Prompt != "two" || rt.Request.Model != "other" || len(rt.Request.Input) != 1 {
		t.Fatalf("retry request %+v", rt.Request)
	}
	c.Finish(rt, nil, errors.New("boom"), false)
	if c.ChainID() != "r2" {
		t.Fatalf("a failed retry moved the chain to %q", c.ChainID())
	}
	rt, _ = c.Retry() // retrying the failed retry: still from r1
	if rt.Request.PreviousResponseID != "r1" {
		t.Fatalf("second retry from %q", rt.Request.PreviousResponseID)
	}
	c.Finish(rt, []*stream.Snapshot{answered("r3", "new")}, nil, false)
	if c.ChainID() != "r3" || len(c.Turns) != 4 {
		t.Fatalf("chain %q, %d turns", c.ChainID(), len(c.Turns))
	}
	if full, _ := json.Marshal(c.FullInput()); strings.Contains(string(full), "old") || !strings.Contains(string(full), "new") {
		t.Fatalf("history after a failed and a good retry %s", full)
	}

	local := &Conversation{Settings: Settings{Model: "m"}} // store = false
	local.Finish(local.Say("one"), []*stream.Snapshot{answered("r1", "A1")}, nil, false)
	local.Finish(local.Say("two"), []*stream.Snapshot{answered("r2", "old")}, nil, false)
	rt, _ = local.Retry()
	body, _ := json.Marshal(rt.Request.Input)
	if rt.Request.PreviousResponseID != "" || !strings.Contains(string(body), "A1") || strings.Contains(string(body), "old") || strings.Count(string(body), `"two"`) != 1 {
		t.Fatalf("store=false retry input %s", body)
	}
	local.Finish(rt, []*stream.Snapshot{answered("r3", "new")}, nil, false)
	full, _ := json.Marshal(local.FullInput(stream.UserText("three")))
	if strings.Contains(string(full), "old") || !strings.Contains(string(full), "new") || strings.Count(string(full), `"two"`) != 1 {
		t.Fatalf("history after a retry %s", full)
	}
}
