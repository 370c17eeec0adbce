package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/session/agentsmd"
	"runnel/session/prompts"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// agentsChat is a chat whose project has an AGENTS.md not yet allowed,
// and whose user has one of their own.
func agentsChat(t *testing.T, trust prompts.Trust, srv *streamtest.Server) *Model {
	t.Helper()
	repo, cfg := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(repo, agentsmd.Name), []byte("Project rule: run the tests."), 0o644)
	os.WriteFile(filepath.Join(cfg, agentsmd.Name), []byte("User rule: be brief."), 0o644)
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Agents: &Agents{Found: agentsmd.Find(repo, cfg), Trust: trust}})
	m.Init()
	return m
}

// deliver runs cmd's messages through m, and theirs, until none is left
// (a turn that starts is left for pump).
func deliver(m *Model, cmd tea.Cmd) {
	for _, msg := range run(cmd) {
		_, next := m.Update(msg)
		if m.turns.cur == nil {
			deliver(m, next)
		}
	}
}

// TestChatAsksAboutAgentsMDAtTheFirstMessage: nothing is asked before the
// first message; then one question names the file and holds the message,
// which goes once answered, with the project's instructions only when
// allowed; the user's own file goes either way. /status names the files.
func TestChatAsksAboutAgentsMDAtTheFirstMessage(t *testing.T) {
	for _, answer := range []string{"y", "n"} {
		t.Run(answer, func(t *testing.T) {
			srv := streamtest.New(t)
			srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "ok")})
			trust := prompts.Trust{Path: filepath.Join(t.TempDir(), prompts.TrustFile)}
			m := agentsChat(t, trust, srv)
			if m.dialog != nil || strings.Contains(plain(m), "Use this project's instructions?") {
				t.Fatal("asked before the first message")
			}
			_, cmd := m.Update(SubmitMsg{Text: "hello there"})
			deliver(m, cmd)
			if m.dialog == nil || !strings.Contains(plain(m), "Use this project's instructions?") || !strings.Contains(plain(m), "Project rule: run the") || len(srv.Requests()) != 0 {
				t.Fatalf("no question, or the message went first (%d requests):\n%s", len(srv.Requests()), plain(m))
			}
			_, cmd = m.Update(tea.KeyPressMsg{Code: rune(answer[0]), Text: answer})
			deliver(m, cmd)
			pump(t, m, nil)
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want the held message once", len(reqs))
			}
			body := reqs[0].JSON()
			in, _ := body["instructions"].(string)
			if !strings.Contains(in, "User rule: be brief.") || strings.Contains(in, "Project rule") != (answer == "y") {
				t.Fatalf("answer %s: instructions %q", answer, in)
			}
			if !strings.Contains(string(reqs[0].Body), "hello there") {
				t.Fatalf("the held message was not sent: %s", reqs[0].Body)
			}
			m.Update(SlashMsg{Name: "status"})
			deliver(m, m.routePosted())
			if s := plain(m); !strings.Contains(s, "AGENTS.md") {
				t.Errorf("/status does not name the files:\n%s", s)
			}
			// asked once a run
			srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_2", "ok")})
			_, cmd = m.Update(SubmitMsg{Text: "again"})
			deliver(m, cmd)
			if m.dialog != nil {
				t.Fatal("asked twice")
			}
			pump(t, m, nil)
			// an allowed file is used by the next run without a question
			next := agentsChat(t, trust, srv)
			if answer == "y" && !strings.Contains(next.turns.conv.Project, "User rule") {
				t.Errorf("next run's instructions %q", next.turns.conv.Project)
			}
		})
	}
}
