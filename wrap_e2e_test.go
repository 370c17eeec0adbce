package main

// End-to-end tests of NO_COLOR markdown and of wrapping (URLs, the
// approval dialog's command), in tmux.

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

const wrapURL = "https://example.com/docs/some-long-section/with-hyphens-in-it?page=2"

const noColorAnswer = "# Release notes\n\nThis is **important** and *subtle*, see `make test`.\n\n" +
	"> a quoted line\n\n" +
	"- a list item that points at " + wrapURL + " for the details\n- second\n\n" +
	"| name | link |\n|---|---|\n| docs | " + wrapURL + " |\n\nDone.\n"

// TestChatNoColorMarkdown: under NO_COLOR the answer shows its structure
// without markdown's markers and without colour (bold and underline stay),
// and a URL that fits a row is never split, in a list item or a table.
func TestChatNoColorMarkdown(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_nc", chunks(noColorAnswer, 9)...)})
	p := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "NO_COLOR": "1"}, binary(t))
	p.waitText("Ask anything")
	p.say("notes please")
	s := p.waitText("Done.")
	for _, want := range []string{"Release notes", "│ a quoted line", "• a list item", "• second", "important"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	for _, raw := range []string{"# Release", "**", "`make", "> a quoted", "| a quoted"} {
		if strings.Contains(s, raw) {
			t.Errorf("raw markdown %q on screen:\n%s", raw, s)
		}
	}
	if n := strings.Count(s, wrapURL); n != 2 {
		t.Errorf("the URL shows whole %d times, want 2 (list item, table):\n%s", n, s)
	}
	styled := p.tmux("capture-pane", "-p", "-e", "-t", "t")
	for _, m := range regexp.MustCompile(`\x1b\[([0-9;]*)m`).FindAllStringSubmatch(styled, -1) {
		for _, p := range strings.Split(m[1], ";") {
			if n, err := strconv.Atoi(p); err == nil && (n >= 30 && n <= 38 || n >= 40 && n <= 48 || n >= 90 && n <= 107) {
				t.Fatalf("colour (SGR %s) under NO_COLOR:\n%q", m[1], styled)
			}
		}
	}
	if !regexp.MustCompile(`\x1b\[[0-9;]*1[;m][^\n]*Release notes`).MatchString(styled) {
		t.Errorf("the heading is not bold:\n%q", styled)
	}
}

// TestChatApprovalWrapsCommand: the approval dialog wraps a long command
// at spaces, each argument whole, continuation rows further in.
func TestChatApprovalWrapsCommand(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	cfgDir := t.TempDir()
	os.MkdirAll(filepath.Join(cfgDir, "runnel"), 0o700)
	cfg := `[[functions]]
name = "deploy_site"
description = "Deploys"
command = ["rsync", "--archive", "--delete-after", "--exclude=node_modules", "--exclude=.git", "/home/user/projects/my-long-project-name/src/", "deploy@build.example.com:/srv/www/my-project/"]
approval = "always"
`
	if err := os.WriteFile(filepath.Join(cfgDir, "runnel", "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_d","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","name":"deploy_site","call_id":"call_d","arguments":"{}","status":"completed"}}`,
		`{"type":"response.completed","response":{"id":"resp_d","status":"completed","output":[]}}`,
	)})
	p := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_CONFIG_HOME": cfgDir}, binary(t))
	p.waitText("Ask anything")
	p.say("deploy")
	s := p.waitText("Allow this tool call?")
	rows := strings.Split(s, "\n")
	for _, arg := range []string{"--exclude=node_modules", "/home/user/projects/my-long-project-name/src/", "deploy@build.example.com:/srv/www/my-project/"} {
		whole := false
		for _, r := range rows {
			whole = whole || strings.Contains(r, arg)
		}
		if !whole {
			t.Errorf("argument %q split in the dialog:\n%s", arg, s)
		}
	}
	if !regexp.MustCompile(`(?m)^\W*\s{6}--exclude=\.git|\s{6}/home/user`).MatchString(s) {
		t.Errorf("no hanging indent on the command's continuation rows:\n%s", s)
	}
	p.keys("n")
}
