package block

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestWrapPanelKeepsPathsWhole(t *testing.T) {
	long := "/home/user/projects/some-very-long-project-name/src/components/widgets/file_name.go"
	for _, c := range []struct {
		in      string
		width   int
		shorten bool
		want    []string
	}{
		// a path that fits on a row goes whole to the next one (ansi.Wrap split it at "my-")
		{"cwd: /home/user/projects/my-app/src/components", 42, true, []string{"cwd:", "/home/user/projects/my-app/src/components"}},
		{"wrote /srv/a-b/c-d/e.txt and /srv/x-y/z.txt ok", 24, true, []string{"wrote /srv/a-b/c-d/e.txt", "and /srv/x-y/z.txt ok"}},
		// too long for any row: shortened in the middle, its start and file name kept
		// on the rest of the row when that leaves it room, else on a row of its own
		{"open " + long + " now", 40, true, []string{"open /home/user/pr…/widgets/file_name.go", "now"}},
		{"a much longer label, here: " + long, 40, true, []string{"a much longer label, here:", "/home/user/proj…nts/widgets/file_name.go"}},
		// indentation (pretty-printed JSON) is kept on the first row
		{`    "path": "/a/b/c-d/e"`, 18, true, []string{`    "path":`, `"/a/b/c-d/e"`}},
		// a URL or another long word is broken, never shortened
		{"see https://example.com/a/very/long/url/path", 20, true, []string{"see", "https://example.com/", "a/very/long/url/path"}},
		{"blob QUJDREVGR0hJSktMTU5PUFFSU1RVVldY", 16, true, []string{"blob", "QUJDREVGR0hJSktM", "TU5PUFFSU1RVVldY"}},
	} {
		got := wrapPanel(c.in, c.width, c.shorten)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrapPanel(%q, %d)\n got %q\nwant %q", c.in, c.width, got, c.want)
		}
		for _, r := range got {
			if ansi.StringWidth(r) > c.width {
				t.Errorf("row %q is wider than %d", r, c.width)
			}
		}
	}
	// expanded: every character of a long path is there, broken at the row end
	got := wrapPanel("open "+long, 40, false)
	if strings.Join(got[1:], "") != long {
		t.Errorf("expanded rows %q lose part of the path", got)
	}
}

// TestPanelsShowPathsWhole: an apply_patch header keeps the file name of a
// path too long for it; a file search result is shortened in the middle
// with its score kept; a shell command's path is not split at a hyphen.
func TestPanelsShowPathsWhole(t *testing.T) {
	ctx := testCtx(60, epoch)
	patch := item(t, `{"type":"apply_patch_call","id":"ap","call_id":"c","status":"completed","operation":{"type":"update_file","path":"src/internal/some-long-package-name/handlers/user_profile_handler.go","diff":"-a\n+b\n"}}`)
	header, _, _ := strings.Cut(visible(ForItem(patch, epoch).Render(ctx)), "\n")
	if !strings.Contains(header, "…") || !strings.Contains(header, "handler.go") || !strings.HasPrefix(strings.SplitN(header, "apply patch ", 2)[1], "src") {
		t.Errorf("patch header %q", header)
	}
	fs := item(t, `{"type":"file_search_call","id":"fs","status":"completed","queries":["q"],"results":[{"filename":"docs/architecture/decisions/2024-very-long-decision-record-title.md","score":0.91}]}`)
	vis := visible(ForItem(fs, epoch).Render(ctx))
	if !strings.Contains(vis, "…") || !strings.Contains(vis, "title.md score 0.91") || !strings.Contains(vis, "docs/") {
		t.Errorf("file search result:\n%s", vis)
	}
	sh := item(t, `{"type":"shell_call","id":"sh","call_id":"c","status":"completed","action":{"commands":["ls -la /home/user/projects/my-app/src/components/ui-kit"]}}`)
	vis = visible(ForItem(sh, epoch).Render(ctx))
	if !strings.Contains(vis, "/home/user/projects/my-app/src/components/ui-kit") {
		t.Errorf("shell command path split:\n%s", vis)
	}
	// a local shell call's working directory: whole when it fits, else
	// shortened in the middle on its row
	for _, c := range []struct{ dir, want string }{
		{"/home/user/projects/my-app/src", "│ cwd /home/user/projects/my-app/src "},
		{"/home/user/projects/a-very-long-project-directory-name/src/components/widgets", "│ cwd /home/user/projects/…ory-name/src/components/widgets │"},
	} {
		ls := item(t, `{"type":"local_shell_call","id":"ls","call_id":"c","status":"completed","action":{"type":"exec","command":["ls"],"working_directory":"`+c.dir+`"}}`)
		vis = visible(ForItem(ls, epoch).Render(ctx))
		if rows := strings.Split(vis, "\n"); len(rows) < 3 || !strings.Contains(rows[1], c.want) || !strings.Contains(rows[2], "$ ls") {
			t.Errorf("cwd %s:\n%s", c.dir, vis)
		}
	}
}

// TestPanelURLBreaksAfterSeparator: the page a find_in_page call searched
// (six-search fixture), too long for the row, is broken after a separator,
// not inside a word.
func TestPanelURLBreaksAfterSeparator(t *testing.T) {
	r := newReplayer(t, fixture(t, "vercel__ai/openai-web-search-6-calls.sse")).run()
	url := "https://techcrunch.com/2025/12/05/petco-confirms-security-lapse-exposed-customers-personal-data/"
	seen := false
	for _, b := range r.byType("web_search_call") {
		if b.Item().Details().Action.Type != "find_in_page" || b.Item().Details().Action.URL != url {
			continue
		}
		seen = true
		vis := visible(b.Render(r.ctx(80)))
		if !strings.Contains(vis, "│ https://techcrunch.com/2025/12/05/petco-confirms-security-lapse-exposed-") ||
			!strings.Contains(vis, "│ customers-personal-data/") {
			t.Errorf("URL broken inside a word:\n%s", vis)
		}
	}
	if !seen {
		t.Fatal("no find_in_page call on the Petco page")
	}
}
