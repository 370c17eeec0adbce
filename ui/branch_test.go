package ui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session"
	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// branchChat is a chat with a store, talking to a stateful fake server,
// after three prompts ("question A" … "question C", answered "answer A" …
// as resp_1 … resp_3).
func branchChat(t *testing.T) (*Model, *streamtest.Server, *store.DB) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	m := newTestModel(t, Options{DB: db, Client: &stream.Client{BaseURL: srv.URL}, Settings: session.Settings{Model: "m", Store: true}})
	m.Init()
	t.Cleanup(m.shutdown)
	for i, id := range []string{"resp_1", "resp_2", "resp_3"} {
		ask(t, m, srv, id, "question "+string(rune('A'+i)), "answer "+string(rune('A'+i)))
	}
	return m, srv, db
}

// ask sends prompt and streams answer (response id) to its end.
func ask(t *testing.T, m *Model, srv *streamtest.Server, id, prompt, answer string) {
	t.Helper()
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text(id, answer)})
	m.Update(SubmitMsg{Text: prompt})
	pump(t, m, nil)
}

// editTurn2 edits turn 2 to "question B, edited" and sends it (resp_4).
func editTurn2(t *testing.T, m *Model, srv *streamtest.Server) {
	t.Helper()
	m.Update(SlashMsg{Name: "edit", Args: "2"})
	if got := m.composer.Value(); got != "question B" {
		t.Fatalf("/edit 2 put %q in the composer", got)
	}
	m.composer.SetValue("") // enter sends it: the composer empties
	ask(t, m, srv, "resp_4", "question B, edited", "answer B2")
}

func ctrl(code rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code, Mod: tea.ModCtrl} }

// TestEditSendsABranch: /edit 2 and enter send the edited prompt chained to
// turn 1's response; the screen shows turn 1, the ◀ 2/2 ▶ line and the new
// answer, not turns 2 and 3; ctrl+left shows the first branch again (to
// turn 3), and the next prompt continues it.
func TestEditSendsABranch(t *testing.T) {
	t.Parallel()
	m, srv, db := branchChat(t)
	editTurn2(t, m, srv)
	req := srv.Requests()[3]
	if req.PreviousResponseID() != "resp_1" {
		t.Fatalf("the edit chained to %q, want resp_1", req.PreviousResponseID())
	}
	v := plain(m)
	for _, want := range []string{"question A", "answer A", "◀ 2/2 ▶", "question B, edited", "answer B2"} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "answer C") || strings.Contains(v, "answer B\n") {
		t.Errorf("the replaced turns still show:\n%s", v)
	}

	m.Update(ctrl(tea.KeyLeft))
	v = plain(m)
	if !strings.Contains(v, "◀ 1/2 ▶") || !strings.Contains(v, "answer C") || strings.Contains(v, "answer B2") {
		t.Fatalf("ctrl+left did not show the first branch:\n%s", v)
	}
	ask(t, m, srv, "resp_5", "question D", "answer D")
	if got := srv.Requests()[4].PreviousResponseID(); got != "resp_3" {
		t.Errorf("the next prompt on the first branch chains to %q, want resp_3", got)
	}

	m.Update(ctrl(tea.KeyRight)) // the edit's branch, and the store resumes it
	if v := plain(m); !strings.Contains(v, "◀ 2/2 ▶") || !strings.Contains(v, "answer B2") {
		t.Fatalf("ctrl+right did not show the edit:\n%s", v)
	}
	m.history.journal.Close()
	s, _, err := db.Load(m.history.journal.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Turns) != 2 || s.Turns[1].Prompt != "question B, edited" || len(s.Off) != 3 {
		t.Errorf("stored path %d turns, %d off", len(s.Turns), len(s.Off))
	}
	r := newTestModel(t, Options{DB: db, Resume: s})
	r.Init()
	t.Cleanup(r.shutdown)
	if v := plain(r); !strings.Contains(v, "◀ 2/2 ▶") || !strings.Contains(v, "answer B2") || strings.Contains(v, "answer D") ||
		!strings.Contains(v, "2 turns shown · 2 branches") {
		t.Errorf("resume does not show the branch last shown:\n%s", v)
	}
}

// TestEditCancelledByEsc: esc clearing the composer drops the edit; the
// next prompt follows turn 3 as usual.
func TestEditCancelledByEsc(t *testing.T) {
	t.Parallel()
	m, srv, _ := branchChat(t)
	m.Update(SlashMsg{Name: "edit", Args: "1"})
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	ask(t, m, srv, "resp_4", "question D", "answer D")
	if got := srv.Requests()[3].PreviousResponseID(); got != "resp_3" || m.turns.conv.Branched() {
		t.Errorf("after a cancelled edit the prompt chains to %q (branched %v)", got, m.turns.conv.Branched())
	}
}

// TestUndoDropsTheLastExchange: /undo takes turn 3 off the screen and the
// chain; the next prompt is turn 3's sibling, and /tree lists both.
func TestUndoDropsTheLastExchange(t *testing.T) {
	t.Parallel()
	m, srv, _ := branchChat(t)
	m.Update(SlashMsg{Name: "undo"})
	v := plain(m)
	if strings.Contains(v, "answer C") || !strings.Contains(v, "answer B") || !strings.Contains(v, "undone") {
		t.Fatalf("after /undo:\n%s", v)
	}
	ask(t, m, srv, "resp_4", "question C again", "answer C2")
	if got := srv.Requests()[3].PreviousResponseID(); got != "resp_2" {
		t.Errorf("after /undo the next prompt chains to %q, want resp_2", got)
	}
	if v := plain(m); !strings.Contains(v, "◀ 2/2 ▶") {
		t.Errorf("the new prompt is not marked as a branch:\n%s", v)
	}
	m.Update(SlashMsg{Name: "tree"})
	v = plain(m)
	if !strings.Contains(v, "Branches 2") || !strings.Contains(v, "turn 3") || !strings.Contains(v, "question C again") || !strings.Contains(v, "shown") {
		t.Errorf("/tree:\n%s", v)
	}
}

// TestTreeOpensABranch: enter on the first branch in /tree shows it.
func TestTreeOpensABranch(t *testing.T) {
	t.Parallel()
	m, srv, _ := branchChat(t)
	editTurn2(t, m, srv)
	m.Update(SlashMsg{Name: "tree"})
	m.Update(press("up"))
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	for cmd != nil { // the dialog's message comes back through Update
		msg := cmd()
		if msg == nil {
			break
		}
		if _, ok := msg.(branchMsg); !ok {
			break
		}
		_, cmd = m.Update(msg)
	}
	v := plain(m)
	if m.dialog != nil || !strings.Contains(v, "answer C") || !strings.Contains(v, "showing the first branch") {
		t.Errorf("enter in /tree did not show the first branch:\n%s", v)
	}
}

// TestNoBranchesNoMarks: a chat that never branched shows no branch line,
// and the branch key says how to make one.
func TestNoBranchesNoMarks(t *testing.T) {
	t.Parallel()
	m, _, _ := branchChat(t)
	if strings.Contains(plain(m), "◀") {
		t.Fatalf("a branch line without branches:\n%s", plain(m))
	}
	m.Update(ctrl(tea.KeyRight))
	if v := plain(m); !strings.Contains(v, "no branches here") || strings.Contains(v, "◀") {
		t.Errorf("ctrl+right with no branches:\n%s", v)
	}
}

func TestGoldenBranchedTurn(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	m := goldenModel(t, srv)
	for i, id := range []string{"resp_1", "resp_2"} {
		srv.Enqueue(streamtest.Reply{SSE: streamtest.Text(id, "answer "+string(rune('A'+i)))})
		m.Update(SubmitMsg{Text: "question " + string(rune('A'+i))})
		goldenPump(t, m)
	}
	m.Update(SlashMsg{Name: "edit", Args: "2"})
	m.composer.SetValue("")
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_3", "answer B2")})
	m.Update(SubmitMsg{Text: "question B, edited"})
	goldenPump(t, m)
	checkGolden(t, m, "branched-turn")
	m.Update(SlashMsg{Name: "tree"})
	checkGolden(t, m, "tree")
}

// TestSearchHitOpensItsBranch: a search hit in a turn of another branch
// opens the session on that branch, and the session continues it.
func TestSearchHitOpensItsBranch(t *testing.T) {
	t.Parallel()
	m, srv, db := branchChat(t)
	editTurn2(t, m, srv)
	sid := m.history.journal.ID()
	m.history.journal.Close()
	hits, err := db.Search("question C", 5)
	if err != nil || len(hits) == 0 {
		t.Fatalf("search: %v %v", hits, err)
	}
	s, _, err := db.Load(sid)
	if err != nil {
		t.Fatal(err)
	}
	r := newTestModel(t, Options{DB: db, Resume: s})
	r.Init()
	t.Cleanup(r.shutdown)
	if strings.Contains(plain(r), "answer C") {
		t.Fatalf("resume shows the first branch, not the edit last shown:\n%s", plain(r))
	}
	r.Update(sessionLoadedMsg{s: s, turn: hits[0].Turn})
	if v := plain(r); !strings.Contains(v, "answer C") || !strings.Contains(v, "◀ 1/2 ▶") {
		t.Errorf("the hit's branch is not shown:\n%s", v)
	}
	r.history.journal.Close()
	back, _, err := db.Load(sid)
	if err != nil || len(back.Turns) != 3 || back.Turns[2].Prompt != "question C" {
		t.Errorf("the session does not continue the hit's branch: %d turns (%v)", len(back.Turns), err)
	}
}

// TestTreeHelpListsTheKeysMatched: "?" in /tree lists its keys, and "?"
// again goes back to the list.
func TestTreeHelpListsTheKeysMatched(t *testing.T) {
	t.Parallel()
	st := newTestModel(t, Options{}).frame.styles
	tr := NewTree(nil, st)
	tr, _ = tr.Update(keyPress("?"))
	v := ansi.Strip(tr.View(80, 20))
	for _, g := range DefaultTreeKeys().FullHelp() {
		for _, b := range g {
			if !strings.Contains(v, b.Help().Desc) {
				t.Errorf("/tree help lacks %q:\n%s", b.Help().Desc, v)
			}
		}
	}
	tr, _ = tr.Update(keyPress("?"))
	if v := ansi.Strip(tr.View(80, 20)); !strings.Contains(v, "Branches 0") || !strings.Contains(v, "one branch") {
		t.Errorf("? again:\n%s", v)
	}
}

// TestEditModeExits: edit mode (esc esc) is left by esc on the unchanged
// edit, by ctrl+c and by emptying the composer; each time the screen says
// so, the line under the composer goes, esc esc's hint never shows while
// editing, and the next prompt follows turn 3 (no branch).
func TestEditModeExits(t *testing.T) {
	t.Parallel()
	esc := tea.KeyPressMsg{Code: tea.KeyEscape}
	for _, exit := range []struct {
		name string
		keys []tea.KeyPressMsg
	}{
		{"esc", []tea.KeyPressMsg{esc}},
		{"ctrl+c", []tea.KeyPressMsg{ctrl('c')}},
		{"emptied", []tea.KeyPressMsg{ctrl('u')}},
	} {
		t.Run(exit.name, func(t *testing.T) {
			m, srv, _ := branchChat(t)
			m.Update(esc)
			m.Update(esc)
			if m.turns.editing == nil || m.composer.Value() != "question C" || !strings.Contains(plain(m), "✎ editing turn 3") {
				t.Fatalf("esc esc did not edit turn 3 (%q):\n%s", m.composer.Value(), plain(m))
			}
			for _, k := range exit.keys {
				m.Update(k)
			}
			v := plain(m)
			if m.turns.editing != nil || m.composer.Value() != "" || !strings.Contains(v, "left edit mode") || strings.Contains(v, "✎ editing") {
				t.Fatalf("after %s: editing %v, composer %q:\n%s", exit.name, m.turns.editing != nil, m.composer.Value(), v)
			}
			if strings.Contains(v, "press ctrl+c again") {
				t.Errorf("ctrl+c armed quit instead of leaving the edit:\n%s", v)
			}
			for _, k := range []tea.KeyPressMsg{esc, esc, esc} { // out of edit mode, esc esc edits again
				m.Update(k)
			}
			m.composer.SetValue("")
			m.leaveEdit(true)
			ask(t, m, srv, "resp_4", "four delta", "answer D")
			if got := srv.Requests()[3].PreviousResponseID(); got != "resp_3" || m.turns.conv.Branched() {
				t.Errorf("after leaving the edit, the prompt chains to %q (branched %v)", got, m.turns.conv.Branched())
			}
		})
	}
}

// TestEditSaysWhatStays: while an edit is pending the line under the
// composer says which turns stay on the other branch, and the send says it
// again above the prompt, before it goes.
func TestEditSaysWhatStays(t *testing.T) {
	t.Parallel()
	m, srv, _ := branchChat(t)
	m.Update(SlashMsg{Name: "edit", Args: "2"})
	if v := plain(m); !strings.Contains(v, "✎ editing turn 2 · enter: turns 2–3 stay on the other branch (/tree)") {
		t.Fatalf("no line under the composer:\n%s", v)
	}
	m.composer.SetValue("question B, edited") // sent with the enter key: the composer empties, the edit stays
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_4", "answer B2")})
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	for _, msg := range run(cmd) {
		m.Update(msg)
	}
	pump(t, m, nil)
	if got := srv.Requests()[3].PreviousResponseID(); got != "resp_1" {
		t.Errorf("the edit sent with enter chains to %q, want resp_1 (a branch)", got)
	}
	v := plain(m)
	note := strings.Index(v, "sending as a branch from turn 1: turns 2–3 stay on the other branch (/tree)")
	if note < 0 || note > strings.Index(v, "question B, edited") || strings.Contains(v, "✎ editing") {
		t.Errorf("the send does not say what stays, above the prompt:\n%s", v)
	}
}

// TestTreeRowsSayWhereTheyDiffer: after /undo, the branch and what /undo
// left of it start at the same prompt; their rows say where each ends.
func TestTreeRowsSayWhereTheyDiffer(t *testing.T) {
	t.Parallel()
	m, _, _ := branchChat(t)
	m.Update(SlashMsg{Name: "undo"})
	m.Update(SlashMsg{Name: "tree"})
	v := plain(m)
	for _, want := range []string{"question A … ends at turn 2: question B", "question A … ends at turn 3: question C"} {
		if !strings.Contains(v, want) {
			t.Errorf("/tree lacks %q:\n%s", want, v)
		}
	}
}
