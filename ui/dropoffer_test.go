package ui

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// TestDroppedStreamOffersNextStep: a real answer whose connection breaks
// mid-text ends with one line saying so (its tokens and cost unknown, not
// zero), one line offering enter and ctrl+t, and, once per conversation,
// that background mode would have resumed it. ctrl+t asks again from the
// same point (/retry); enter sends "continue" with the partial answer
// carried. The keys act only while those notices are the last thing shown.
func TestDroppedStreamOffersNextStep(t *testing.T) {
	t.Parallel()
	fixture := sharedtest.Path(t, "fixtures", "real", "vercel__ai", "xai-text-reasoning-markdown.sse")
	srv := streamtest.New(t)
	drop := streamtest.Reply{File: fixture, DropAfter: 120} // after the answer's first words
	srv.Enqueue(drop, drop, streamtest.Reply{SSE: streamtest.Text("resp_3", "continued")}, drop)
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, Settings: session.Settings{Model: "m", Store: true}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 300}) // every line on screen
	ctrlT := tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}
	press := func(k tea.KeyPressMsg) {
		t.Helper()
		m.Update(k) // a turn it starts is read by pump, not by the Cmd returned
		pump(t, m, nil)
	}
	screen := func() string { return strings.Join(strings.Fields(plain(m)), " ") }

	m.Update(SubmitMsg{Text: "give me an overview"})
	pump(t, m, nil)
	s := screen()
	for _, want := range []string{
		"stream broken:", "the partial answer is kept; its tokens and cost are unknown",
		`enter sends "continue" · ctrl+t retries (/retry) · any message you send carries the partial answer`, backgroundHint,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("after the drop the screen lacks %q:\n%s", want, s)
		}
	}
	if !m.turns.offered(m.items.transcript.Len()) {
		t.Fatal("the keys are not offered")
	}

	press(ctrlT)
	reqs := srv.Requests()
	if len(reqs) != 2 || string(reqs[1].Body) != string(reqs[0].Body) {
		t.Fatalf("ctrl+t: %d requests; the retry should send the same request again", len(reqs))
	}
	if s := screen(); !strings.Contains(s, "asking again from the same point") || strings.Count(s, backgroundHint) != 1 || strings.Count(s, "stream broken:") != 2 {
		t.Errorf("after the retry dropped too (background mentioned once):\n%s", s)
	}

	press(keyMsg("enter"))
	reqs = srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("enter: %d requests", len(reqs))
	}
	body := string(reqs[2].Body)
	if !strings.Contains(body, `"text":"continue"`) || !strings.Contains(body, `"role":"assistant"`) || !strings.Contains(body, `"text":"### Overview of Sonoran Cuisine`) {
		t.Errorf("continue did not carry the partial answer: %s", body)
	}
	if s := screen(); !strings.Contains(s, "continued") || m.turns.offered(m.items.transcript.Len()) {
		t.Errorf("after continue:\n%s", s)
	}
	press(keyMsg("enter")) // an answer that finished offers nothing: enter on an empty composer sends nothing
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("enter after a finished answer sent %d requests", n-3)
	}

	m.Update(SubmitMsg{Text: "again?"})
	pump(t, m, nil)
	m.Update(NoticeMsg{Text: "something else"}) // the drop's notices are no longer the last thing
	press(keyMsg("enter"))
	press(ctrlT)
	if n := len(srv.Requests()); n != 4 {
		t.Errorf("the keys acted under another notice: %d requests, want 4", n)
	}
}

// TestUsageNoteOfADrop: a dropped turn's line never reads as zero usage:
// unknown when no response finished, partial when some did.
func TestUsageNoteOfADrop(t *testing.T) {
	t.Parallel()
	done := &stream.Snapshot{Usage: &stream.Usage{InputTokens: 10, OutputTokens: 5}}
	cut := &stream.Snapshot{CutOff: true}
	for _, c := range []struct {
		snaps []*stream.Snapshot
		want  string
	}{
		{[]*stream.Snapshot{cut}, "its tokens and cost are unknown"},
		{[]*stream.Snapshot{done, cut}, "its tokens and cost count only the 1 response that finished"},
	} {
		if got := usageNote(c.snaps); got != c.want {
			t.Errorf("usageNote = %q, want %q", got, c.want)
		}
	}
}

// TestDropKeysInHelpAndUnclashed: "?" lists the two keys; ctrl+t is bound
// to nothing else, and enter only to Send, which sends nothing from an
// empty composer (where Continue acts).
func TestDropKeysInHelpAndUnclashed(t *testing.T) {
	t.Parallel()
	k := DefaultKeyMap()
	v := ansi.Strip(HelpView(160, nil, k))
	for _, want := range []string{"continue a dropped answer", "ctrl+t", "retry a dropped answer"} {
		if !strings.Contains(v, want) {
			t.Errorf("? lacks %q", want)
		}
	}
	km := reflect.ValueOf(k)
	for i := range km.NumField() {
		name := km.Type().Field(i).Name
		b, ok := km.Field(i).Interface().(key.Binding)
		if !ok || name == "Continue" || name == "Retry" {
			continue
		}
		for _, kk := range b.Keys() {
			if kk == "ctrl+t" || (kk == "enter" && name != "Send") {
				t.Errorf("%s is bound to %s too", name, kk)
			}
		}
	}
}
