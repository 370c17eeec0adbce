package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestComposerPastHistory: up recalls this process's prompts, then the past
// ones (newest first), each text once.
func TestComposerPastHistory(t *testing.T) {
	t.Parallel()
	c := newTestComposer()
	for _, p := range []string{"x", "y"} {
		c.SetValue(p)
		c, _ = c.Update(keyMsg("enter"))
	}
	c, _ = c.Update(setPastMsg{[]string{"y", "p2", "p1"}})
	var got []string
	for range 5 {
		c, _ = c.Update(keyMsg("up"))
		got = append(got, c.Value())
	}
	if want := []string{"y", "x", "p2", "p1", "p1"}; !slices.Equal(got, want) {
		t.Errorf("up recalls %q; want %q", got, want)
	}
	if r := c.Recent(); !slices.Equal(r, []string{"y", "x", "p2", "p1"}) {
		t.Errorf("Recent = %q", r)
	}
}

// storeWithPrompts makes a store holding two sessions: an older one with
// "old one", then "old two"; a newer one with "new one", "new two".
func storeWithPrompts(t *testing.T) (*store.DB, store.SessionID, store.SessionID) {
	db := tempDB(t)
	var ids []store.SessionID
	for _, prompts := range [][]string{{"old one", "old two"}, {"new one", "new two"}} {
		id, err := db.CreateSession(store.NewSession{Settings: []byte(`{"model":"m"}`)})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range prompts {
			if _, err := db.BeginTurn(id, p, nil, ""); err != nil {
				t.Fatal(err)
			}
		}
		ids = append(ids, id)
	}
	return db, ids[0], ids[1]
}

// TestResumeHistoryReachesEarlierSessions: after resuming the older session,
// up recalls its prompts first, then the other session's; ctrl+g searches
// them all and puts the chosen one in the composer.
func TestResumeHistoryReachesEarlierSessions(t *testing.T) {
	t.Parallel()
	db, older, _ := storeWithPrompts(t)
	s, _, err := db.Load(older)
	if err != nil {
		t.Fatal(err)
	}
	srv := streamtest.New(t)
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, DB: db, Resume: s})
	d := newDriver(t, m)
	d.run(m.Init())
	d.until("the stored prompts", func() bool { return len(m.history.storedPrompts) == 4 })
	var got []string
	for range 5 {
		d.send(tea.KeyPressMsg{Code: tea.KeyUp})
		got = append(got, m.composer.Value())
	}
	if want := []string{"old two", "old one", "new two", "new one", "new one"}; !slices.Equal(got, want) {
		t.Errorf("up after resuming recalls %q; want %q", got, want)
	}
	d.send(tea.KeyPressMsg{Code: tea.KeyEscape})
	d.send(tea.KeyPressMsg{Code: 'g', Mod: tea.ModCtrl})
	if _, ok := m.dialog.(dlg[HistorySearch]); !ok {
		t.Fatalf("ctrl+g opened %T", m.dialog)
	}
	for _, r := range "NEW t" {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	v := plain(m)
	if !strings.Contains(v, "Prompt history") || !strings.Contains(v, "new two") || strings.Contains(v, "old two") || strings.Contains(v, "new one") {
		t.Errorf("filtered history:\n%s", v)
	}
	d.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	d.until("the pick", func() bool { return m.dialog == nil })
	if got := m.composer.Value(); got != "new two" {
		t.Errorf("composer after the pick = %q", got)
	}
}
