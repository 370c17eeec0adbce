package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// mentionTree is a temporary tree: main.go at the top, a test deeper, a
// readme, and what the listing skips (a hidden directory, node_modules).
func mentionTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range []string{"main.go", "cmd/runnel/main_test.go", "docs/readme.md", ".git/config", "node_modules/x/index.js"} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("package x // "+p+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// typeModel types s into the chat, a key at a time, and delivers what the
// keys asked for (the file listing, hints) back to it; the hint's expiry
// tick is never run.
func typeModel(m *Model, s string) {
	for _, r := range s {
		deliverKey(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// deliverKey gives m the key, runs the Cmd it returns and gives m the
// messages (not the Cmds they return: those are the hint's expiry and
// frame ticks).
func deliverKey(m *Model, k tea.KeyPressMsg) {
	_, cmd := m.Update(k)
	for _, msg := range run(cmd) {
		m.Update(msg)
	}
}

// lastRow is the screen's last row: the key hint, or the composer's hint.
func hintRow(m *Model) string {
	rows := strings.Split(plain(m), "\n")
	return rows[len(rows)-1]
}

// TestMentionPopupFuzzy: @ opens a popup of the tree's files (hidden
// directories and node_modules left out), matched fuzzily as typed (@ain
// finds main.go, first); tab takes the selected file as a chip. A query
// nothing matches says so in the popup and, on tab, in the hint line.
// Nothing of it reaches the transcript.
func TestMentionPopupFuzzy(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, Options{})
	m.composer.mentions.dir = mentionTree(t)
	entries := m.items.transcript.Len()

	typeModel(m, "@")
	v := plain(m)
	for _, want := range []string{"main.go", "docs/readme.md", "cmd/runnel/main_test.go"} {
		if !strings.Contains(v, want) {
			t.Errorf("the @ popup lacks %s:\n%s", want, v)
		}
	}
	if strings.Contains(v, ".git/config") || strings.Contains(v, "node_modules") {
		t.Errorf("the popup lists a hidden or node_modules file:\n%s", v)
	}

	typeModel(m, "ain")
	rows := m.composer.mentions.rows
	if len(rows) != 2 || rows[0].path != "main.go" || rows[1].path != "cmd/runnel/main_test.go" {
		t.Fatalf("@ain rows %+v, want main.go then cmd/runnel/main_test.go", rows)
	}
	if v := plain(m); strings.Contains(v, "docs/readme.md") {
		t.Errorf("@ain still shows readme:\n%s", v)
	}
	deliverKey(m, tea.KeyPressMsg{Code: tea.KeyTab})
	if files := m.composer.Attachments(); len(files) != 1 || files[0].Name != "main.go" || m.composer.Value() != "" {
		t.Fatalf("tab: text %q, chips %+v", m.composer.Value(), files)
	}
	if row := hintRow(m); !strings.Contains(row, "attached main.go") {
		t.Errorf("the hint line does not say what tab did: %q", row)
	}

	typeModel(m, "and @zzz")
	if v := plain(m); !strings.Contains(v, "no file matches zzz") {
		t.Errorf("the popup does not say nothing matches:\n%s", v)
	}
	deliverKey(m, tea.KeyPressMsg{Code: tea.KeyTab})
	if row := hintRow(m); !strings.Contains(row, "✗ no file matches zzz") {
		t.Errorf("tab with no match: hint line %q", row)
	}
	if m.items.transcript.Len() != entries {
		t.Errorf("completion added %d entries to the transcript", m.items.transcript.Len()-entries)
	}
	m.Update(hintExpiredMsg{seq: m.composer.flash.seq})
	if row := hintRow(m); strings.Contains(row, "no file matches") {
		t.Errorf("the hint outlived its time: %q", row)
	}
}

// TestMentionPopupKeys: down moves the popup's cursor and enter takes the
// row (it does not send); with no row, enter sends.
func TestMentionPopupKeys(t *testing.T) {
	t.Parallel()
	c := newTestComposer()
	c.mentions.dir = mentionTree(t)
	c = typeText(c, "see ")
	c, cmd := c.Update(tea.KeyPressMsg{Code: '@', Text: "@"}) // the popup opens and asks for the listing
	for _, msg := range run(cmd) {
		c, _ = c.Update(msg)
	}
	if !c.mentions.open || len(c.mentions.rows) != 3 {
		t.Fatalf("popup %+v", c.mentions)
	}
	c, _ = c.Update(keyMsg("down"))
	c, cmd = c.Update(keyMsg("enter"))
	for _, msg := range run(cmd) {
		if _, ok := msg.(SubmitMsg); ok {
			t.Fatal("enter on a popup row sent the message")
		}
	}
	if files := c.Attachments(); len(files) != 1 || files[0].Name != "readme.md" || c.Value() != "see " {
		t.Fatalf("enter took %+v, text %q", files, c.Value())
	}
	c = typeText(c, "@qqq")
	_, cmd = c.Update(keyMsg("enter"))
	if msgs := run(cmd); len(msgs) != 1 {
		t.Fatalf("enter with no row: %v", msgs)
	} else if sub, ok := msgs[0].(SubmitMsg); !ok || sub.Text != "see @qqq" || len(sub.Files) != 1 {
		t.Fatalf("enter with no row sent %+v", msgs[0])
	}
}

// TestCopyLeavesNoLine: a copy says what it did in the hint line, and the
// transcript gains nothing.
func TestCopyLeavesNoLine(t *testing.T) {
	m := answered(t)
	entries := m.items.transcript.Len()
	deliverKey(m, tea.KeyPressMsg{Code: 'y', Mod: tea.ModCtrl})
	if m.items.transcript.Len() != entries {
		t.Errorf("a copy added %d entries to the transcript", m.items.transcript.Len()-entries)
	}
	if row := hintRow(m); !strings.Contains(row, "to the terminal's clipboard") {
		t.Errorf("the hint line does not say what was copied: %q", row)
	}
}
