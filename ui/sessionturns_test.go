package ui

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/store"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/streamtest"
	"runnel/ui/pace"
)

// TestResumeCountsUserTurns: a session of two prompts whose first called a
// tool (its output went back in a round of its own) resumes as "2 turns",
// and esc esc edits the last prompt, not the round; esc again walks back
// to the prompt before.
func TestResumeCountsUserTurns(t *testing.T) {
	t.Parallel()
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sid, err := db.CreateSession(store.NewSession{Title: "two prompts", Settings: json.RawMessage(`{"model":"gpt-test","store":true}`)})
	if err != nil {
		t.Fatal(err)
	}
	turn := func(prompt string, input json.RawMessage, out string) {
		t.Helper()
		tid, err := db.BeginTurn(sid, prompt, []json.RawMessage{input}, "")
		if err == nil {
			err = db.SaveItems(tid, []store.ItemWrite{{Done: true, Raw: json.RawMessage(out)}})
		}
		if err == nil {
			err = db.FinishTurn(tid, store.TurnEnd{Status: store.StatusCompleted, ResponseIDs: []string{"resp"}})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	answer := `{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"done","annotations":[]}]}`
	turn("list the files", stream.UserText("list the files"), `{"type":"function_call","id":"fc","call_id":"c1","name":"lookup","arguments":"{}","status":"completed"}`)
	turn("", json.RawMessage(`{"type":"function_call_output","call_id":"c1","output":"a b c"}`), answer)
	turn("count them", stream.UserText("count them"), `{"type":"function_call","id":"fc2","call_id":"c2","name":"lookup","arguments":"{}","status":"completed"}`)
	turn("", json.RawMessage(`{"type":"function_call_output","call_id":"c2","output":"3"}`), answer)
	s, _, err := db.Load(sid)
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{DB: db, Resume: s})
	m.Init()
	if screen := plain(m); !strings.Contains(screen, `resumed "two prompts" · 2 turns`) {
		t.Errorf("resume line does not count 2 turns:\n%s", screen)
	}
	esc := func() { m.Update(tea.KeyPressMsg{Code: tea.KeyEscape}) }
	esc()
	esc()
	if got := m.composer.Value(); got != "count them" || m.turns.editing != m.turns.conv.Turns[2] {
		t.Errorf("esc esc edits %q, want the last prompt (not the round after it)", got)
	}
	if screen := plain(m); !strings.Contains(screen, "editing turn 2") || len(m.turns.conv.Turns) != 4 {
		t.Errorf("edit notice, %d turns shown:\n%s", len(m.turns.conv.Turns), screen)
	}
	esc() // leaves the unchanged edit
	if m.composer.Value() != "" || m.turns.editing != nil || !strings.Contains(plain(m), "left edit mode") {
		t.Errorf("esc on the unchanged edit left %q, editing %v", m.composer.Value(), m.turns.editing != nil)
	}
	m.shutdown()
}

// TestSearchShowsUserTurn: a hit in a tool round (stored turn 4, the round
// of the second prompt) reads "turn 2", as the picker counts turns, and
// enter opens the session at the stored turn.
func TestSearchShowsUserTurn(t *testing.T) {
	t.Parallel()
	h := store.Hit{Session: "s1", Turn: 4, UserTurn: 2, Title: "files", Snippet: "three files"}
	r := NewSearchResults("files", []store.Hit{h}, nil)
	if v := ansi.Strip(r.View(60, 10)); !strings.Contains(v, "files · turn 2") {
		t.Errorf("view:\n%s", v)
	}
	if _, msgs := dlgPress(r, "enter"); len(msgs) != 1 || msgs[0] != (OpenSessionMsg{ID: "s1", Turn: 4}) {
		t.Errorf("enter emitted %v, want s1 at stored turn 4", msgs)
	}
}

// TestResumedStoppedCallSaysCancelled: a session whose tool round was
// stopped (the call's output "cancelled by user" waits for the next
// message) resumes with the call's header saying how its run ended as the
// round recorded it (cancelled, and how long it ran), not "completed". A
// round an older runnel saved recorded no outcome: the header says it is
// unknown rather than read one out of the output's text.
func TestResumedStoppedCallSaysCancelled(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		runs json.RawMessage
		want string
	}{
		{"recorded", tools.EncodeRuns(map[string]tools.Run{"c1": {Phase: tools.RunEnded, Outcome: tools.StatusCancelled, Took: 2 * time.Second}}), "cancelled 2.0s"},
		{"old database", nil, "outcome unknown"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			sid, err := db.CreateSession(store.NewSession{Title: "stopped", Settings: json.RawMessage(`{"model":"gpt-test","store":true}`)})
			if err != nil {
				t.Fatal(err)
			}
			tid, err := db.BeginTurn(sid, "run it", []json.RawMessage{stream.UserText("run it")}, "")
			if err == nil {
				err = db.SaveItems(tid, []store.ItemWrite{{Done: true, Raw: json.RawMessage(`{"type":"function_call","id":"fc","call_id":"c1","name":"slow_tool","arguments":"{}","status":"completed"}`)}})
			}
			if err == nil {
				err = db.FinishTurn(tid, store.TurnEnd{Status: store.StatusCompleted, ResponseIDs: []string{"resp_1"}})
			}
			if err != nil {
				t.Fatal(err)
			}
			rid, err := db.BeginTurn(sid, "", []json.RawMessage{json.RawMessage(`{"type":"function_call_output","call_id":"c1","output":"cancelled by user; its output so far:\nhalf"}`)}, "resp_1")
			if err == nil && c.runs != nil {
				err = db.SetRuns(rid, c.runs)
			}
			if err == nil {
				err = db.FinishTurn(rid, store.TurnEnd{Status: store.StatusStopped, ResponseIDs: []string{}})
			}
			if err != nil {
				t.Fatal(err)
			}
			s, _, err := db.Load(sid)
			if err != nil {
				t.Fatal(err)
			}
			srv := streamtest.New(t)
			m := newTestModel(t, Options{DB: db, Resume: s, Client: &stream.Client{BaseURL: srv.URL}})
			m.Init()
			m.tick(time.Now(), pace.DrawFull) // a frame: the panels given their outputs redraw
			var header string
			for _, l := range strings.Split(plain(m), "\n") {
				if strings.Contains(l, "╭") && strings.Contains(l, "slow_tool") {
					header = l
				}
			}
			if !strings.Contains(header, c.want) || strings.Contains(header, "completed") {
				t.Errorf("header %q, want %q:\n%s", header, c.want, plain(m))
			}
			m.shutdown()
		})
	}
}
