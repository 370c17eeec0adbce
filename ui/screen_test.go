package ui

import (
	"testing"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// TestUnchangedScreenIsTheSameString: after an answer, a message that
// changes nothing on screen gets the very string View returned before, so
// Bubble Tea's renderer, which compares the view with the last one it drew
// on every tick, finds it by its address instead of reading a copy 60 times
// a second while the chat is idle. A change draws the new screen, equal to
// what View draws with no memo.
func TestUnchangedScreenIsTheSameString(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "vercel__ai/lmstudio-basic-markdown.sse")
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	pump(t, m, nil)
	drawn := m.View().Content
	for _, msg := range []tea.Msg{tea.FocusMsg{}, tea.BlurMsg{}, frameMsg{gen: m.turns.gen - 1}, tea.KeyboardEnhancementsMsg{}} {
		m.Update(msg)
		v := m.View().Content
		if v != drawn {
			t.Fatalf("%T changed the screen", msg)
		}
		if unsafe.StringData(v) != unsafe.StringData(drawn) {
			t.Errorf("after %T View returned an equal copy of the screen, not the string it returned before", msg)
		}
	}
	m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	typed := m.View().Content
	if typed == drawn {
		t.Fatal("a typed key did not change the screen")
	}
	m.frame.screen = screenMemo{}
	if fresh := m.View().Content; fresh != typed {
		t.Errorf("the screen differs from what View draws with no memo:\n%q\n%q", typed, fresh)
	}
}
