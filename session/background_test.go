package session

import (
	"testing"

	"runnel/session/store"
)

// Only the last turn, interrupted by its process dying while it streamed a
// background response with a saved sequence number, is picked up again.
func TestReattachable(t *testing.T) {
	bg := store.Background{ID: "resp_1", After: 12}
	for _, tt := range []struct {
		name string
		turn Turn
		want bool
	}{
		{"interrupted background", Turn{Row: 3, Stored: store.StatusInterrupted, Background: bg}, true},
		{"no background response", Turn{Row: 3, Stored: store.StatusInterrupted}, false},
		{"no sequence number saved", Turn{Row: 3, Stored: store.StatusInterrupted, Background: store.Background{ID: "resp_1", After: -1}}, false},
		{"still streaming in another runnel", Turn{Row: 3, Stored: store.StatusStreaming, Background: bg}, false},
		{"completed", Turn{Row: 3, Stored: store.StatusCompleted, Background: bg}, false},
		{"live turn", Turn{Background: bg}, false},
	} {
		turn := tt.turn
		c := &Conversation{Turns: []*Turn{{Prompt: "earlier"}, &turn}}
		if got := c.Reattachable() == &turn; got != tt.want {
			t.Errorf("%s: reattachable %v, want %v", tt.name, got, tt.want)
		}
		// an earlier turn is never picked up
		c.Turns = append(c.Turns, &Turn{Prompt: "later"})
		if c.Reattachable() != nil {
			t.Errorf("%s: a turn before the last was picked up", tt.name)
		}
	}
}
