package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/prompts"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// promptLib is a library with /review (instructions, model, effort, a file
// and the input in its template) and /new, which the built-in /new takes.
func promptLib(t *testing.T) prompts.Library {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir) // @paths resolve relative to the working directory
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main // the code"), 0o644)
	pdir := filepath.Join(dir, "prompts")
	os.MkdirAll(pdir, 0o755)
	os.WriteFile(filepath.Join(pdir, "review.md"), []byte("+++\ndescription = \"Review code\"\ninstructions = \"You review code.\"\nmodel = \"gpt-5-mini\"\neffort = \"low\"\n+++\nReview @main.go for {{input}}\n"), 0o644)
	os.WriteFile(filepath.Join(pdir, "new.md"), []byte("shadowed"), 0o644)
	lib := prompts.Open(pdir, "", prompts.Trust{})
	if len(lib.Prompts) != 2 {
		t.Fatalf("library: %+v", lib)
	}
	return lib
}

// TestPromptCommandSendsItsTurn: /review races sends the filled-in template
// with its file, under the prompt's instructions, model and effort, with a
// line naming it above the turn; the next message is the session's again.
func TestPromptCommandSendsItsTurn(t *testing.T) {
	lib := promptLib(t)
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "reviewed")})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_2", "plain")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Prompts: &Prompts{Library: lib},
		Settings: session.Settings{Model: "gpt-5", Instructions: "be terse", ReasoningEffort: "high", Store: true}})
	if !strings.Contains(plain(m), "prompt files not used: /new is a built-in command") {
		t.Errorf("the clash is not said:\n%s", plain(m))
	}
	m.composer.SetValue("/review races")
	_, cmd := m.Update(keyMsg("enter"))
	msgs := run(cmd)
	if len(msgs) != 1 {
		t.Fatalf("enter gave %v", msgs)
	}
	sub, ok := msgs[0].(SubmitMsg)
	if !ok || sub.Prompt == nil || sub.Text != "Review @main.go for races" || len(sub.Files) != 1 {
		t.Fatalf("enter gave %+v", msgs[0])
	}
	_, cmd = m.Update(sub)
	m.Update(cmd()) // the file is read off the update loop
	pump(t, m, nil)
	body := string(srv.Requests()[0].Body)
	for _, want := range []string{`"instructions":"You review code."`, `"model":"gpt-5-mini"`, `"effort":"low"`, `Review @main.go for races`, `package main // the code`} {
		if !strings.Contains(body, want) {
			t.Errorf("request lacks %s: %s", want, body)
		}
	}
	if s := plain(m); !strings.Contains(s, "▸ /review — its instructions, model gpt-5-mini, effort low, for this turn") {
		t.Errorf("no prompt line above the turn:\n%s", s)
	}
	if m.turns.conv.Settings.Model != "gpt-5" || m.turns.conv.Settings.Instructions != "be terse" {
		t.Errorf("the session's settings changed: %+v", m.turns.conv.Settings)
	}

	m.Update(SubmitMsg{Text: "and now?"})
	pump(t, m, nil)
	body = string(srv.Requests()[1].Body)
	if !strings.Contains(body, `"instructions":"be terse"`) || !strings.Contains(body, `"model":"gpt-5"`) || !strings.Contains(body, `"effort":"high"`) {
		t.Errorf("the next turn kept the prompt's settings: %s", body)
	}
}

// TestPromptCommandsComplete: the prompts follow the built-in commands in
// the menu, with their descriptions; a built-in's name is not offered twice.
func TestPromptCommandsComplete(t *testing.T) {
	c := newTestComposer()
	if line := c.SetPrompts(promptLib(t)); !strings.Contains(line, "/new is a built-in command") {
		t.Errorf("clash line %q", line)
	}
	c = typeText(c, "/re")
	var got []string
	for _, m := range c.menu.rows {
		got = append(got, m.Name)
	}
	if strings.Join(got, " ") != "retry rename review" {
		t.Fatalf("menu %q", got)
	}
	if c.menu.rows[2].Desc != "prompt: Review code" || c.menu.rows[2].Usage() != "/review [INPUT]" {
		t.Errorf("row %+v", c.menu.rows[2])
	}
	c.SetValue("/n")
	c.updateMenu()
	for _, m := range c.menu.rows {
		if m.Name == "new" && m.Desc != "start a new conversation" {
			t.Errorf("the prompt file /new is offered: %+v", m)
		}
	}
	// tab completes the name with a space for its input
	c.SetValue("/rev")
	c.updateMenu()
	c, _ = c.Update(keyMsg("tab"))
	if c.Value() != "/review " {
		t.Errorf("tab gave %q", c.Value())
	}
}

// TestProjectPromptsAskOnce: a project's prompts ask nothing at start
// (the welcome is the first screen, and keys typed at once go to the
// composer); the first /NAME of one asks, holding it: n puts it back in the
// composer, y remembers the directory (0600), offers its prompts and runs
// the /NAME; a chat started again does not ask.
func TestProjectPromptsAskOnce(t *testing.T) {
	t.Parallel()
	wd, data := t.TempDir(), t.TempDir()
	proj := prompts.ProjectDir(wd)
	os.MkdirAll(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "deploy.md"), []byte("+++\ndescription = \"Deploy notes\"\n+++\nwrite deploy notes for {{input}}"), 0o644)
	global := filepath.Join(data, "prompts")
	os.MkdirAll(global, 0o755)
	os.WriteFile(filepath.Join(global, "bad.md"), []byte("+++\nbogus = 1\n+++\nx"), 0o644)
	trust := prompts.Trust{Path: filepath.Join(data, prompts.TrustFile)}
	open := func() *Model {
		m := newTestModel(t, Options{Prompts: &Prompts{Library: prompts.Open(global, proj, trust), Trust: trust}})
		for _, msg := range run(m.Init()) {
			if _, ok := msg.(dialogMsg); ok {
				t.Fatal("asked at start")
			}
		}
		return m
	}
	deliver := func(m *Model, cmd tea.Cmd) {
		for _, msg := range run(cmd) {
			_, next := m.Update(msg)
			for _, n := range run(next) {
				m.Update(n)
			}
		}
	}

	m := open()
	if _, ok := m.composer.menu.prompt("deploy"); ok {
		t.Fatal("a project prompt was offered before it was allowed")
	}
	if m.dialog != nil || !strings.Contains(plain(m), "Ask anything") {
		t.Fatalf("the first screen is not the chat's:\n%s", plain(m))
	}
	m.Update(tea.KeyPressMsg{Code: 'h', Text: "h"}) // typed at once: the composer's
	if m.composer.Value() != "h" {
		t.Fatalf("a key typed at start went elsewhere: %q", m.composer.Value())
	}
	m.composer.SetValue("/deploy v2")
	_, cmd := m.Update(keyMsg("enter"))
	deliver(m, cmd)
	if m.dialog == nil || !strings.Contains(plain(m), "Use this project's prompt files?") || !strings.Contains(plain(m), "/deploy Deploy notes") {
		t.Fatalf("no question at the first use:\n%s", plain(m))
	}
	_, cmd = m.Update(tea.KeyPressMsg{Code: 'n', Text: "n"})
	deliver(m, cmd)
	if m.dialog != nil || !strings.Contains(plain(m), "project prompts not used") || m.composer.Value() != "/deploy v2" {
		t.Fatalf("n: composer %q\n%s", m.composer.Value(), plain(m))
	}
	if _, err := os.Stat(trust.Path); err == nil {
		t.Fatal("n remembered the directory")
	}

	m = open()
	m.composer.SetValue("/deploy v2")
	_, cmd = m.Update(keyMsg("enter"))
	deliver(m, cmd)
	_, cmd = m.Update(tea.KeyPressMsg{Code: 'y', Text: "y"})
	var sent *SubmitMsg
	for _, msg := range run(cmd) {
		_, said := m.Update(msg)
		for _, n := range run(said) {
			if s, ok := n.(SubmitMsg); ok {
				sent = &s
				continue
			}
			m.Update(n)
		}
	}
	if _, ok := m.composer.menu.prompt("deploy"); !ok || m.dialog != nil {
		t.Fatal("y did not offer the project's prompts")
	}
	if sent == nil || !strings.Contains(sent.Text, "write deploy notes for v2") {
		t.Fatalf("y did not run the /deploy that asked: %+v", sent)
	}
	if s := plain(m); !strings.Contains(s, "project prompts allowed: /deploy") || strings.Count(s, "bad.md") != 1 {
		t.Errorf("after y (a problem said at start is not said again):\n%s", s)
	}
	if fi, err := os.Stat(trust.Path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("trust file: %v %v", fi, err)
	}
	m = open()
	if askPromptTrust(m.opts.Prompts, "", m.frame) != nil {
		t.Error("asked again with nothing changed")
	}
	if _, ok := m.composer.menu.prompt("deploy"); !ok {
		t.Error("an allowed project prompt is not offered")
	}
}

// TestPromptCommandPutBackAsTyped: a /NAME sent while a reply streams is
// queued, and esc takes it back to the composer as typed, not as its
// expansion, so sending it again is the prompt's turn once more (its
// settings and files).
func TestPromptCommandPutBackAsTyped(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "busy")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Prompts: &Prompts{Library: promptLib(t)},
		Settings: session.Settings{Model: "gpt-5", Store: true}})
	m.Update(SubmitMsg{Text: "first"}) // streaming: not pumped yet
	m.composer.SetValue("/review races")
	_, cmd := m.Update(keyMsg("enter"))
	for _, msg := range run(cmd) {
		m.Update(msg)
	}
	if m.queue.len() != 1 || m.composer.Value() != "" {
		t.Fatalf("queued %d, composer %q; want the command queued", m.queue.len(), m.composer.Value())
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if got := m.composer.Value(); got != "/review races" || len(m.composer.Attachments()) != 0 {
		t.Errorf("put back as %q with %d files; want the command as typed", got, len(m.composer.Attachments()))
	}
	pump(t, m, nil)
}
