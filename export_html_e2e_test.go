package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestSessionsExportHTML: the built binary's `sessions export --format html`
// writes the fixture session as one page that parses, with no script and
// nothing to load, its tool call and reasoning in <details> panels and its
// JSON arguments highlighted by chroma; `-o x.html` picks html by itself
// and writes the same page, 0600.
func TestSessionsExportHTML(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Parallel()
	data := t.TempDir()
	env := map[string]string{"XDG_DATA_HOME": data}
	if out, errs, code := runBinary(t, env, string(sessionFixture(t, "weather.json")), "sessions", "import", "-"); code != exitOK {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	page, errs, code := runBinary(t, env, "", "sessions", "export", "0k3m9xq4ab", "--format", "html")
	if code != exitOK || errs != "" {
		t.Fatalf("export --format html: %d %q", code, errs)
	}
	root, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatalf("the page does not parse: %v", err)
	}
	count := map[string]int{}
	var spans int
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			count[n.Data]++
			for _, a := range n.Attr {
				if a.Key == "src" || strings.HasPrefix(a.Key, "on") {
					t.Errorf("<%s %s=%q> in the page", n.Data, a.Key, a.Val)
				}
				if n.Data == "span" && a.Key == "style" && strings.Contains(a.Val, "color:") {
					spans++
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	if count["script"] > 0 || count["link"] > 0 || count["img"] > 0 {
		t.Errorf("script, link or img elements: %v", count)
	}
	if count["details"] < 2 || count["style"] != 1 || spans == 0 {
		t.Errorf("want panels, one style sheet and highlighted code: %v, %d coloured spans\n%s", count, spans, page)
	}
	for _, want := range []string{"<title>What&#39;s the weather in Paris?</title>", "<summary>Reasoning</summary>", "<summary>Function call get_weather · completed</summary>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}

	file := filepath.Join(t.TempDir(), "talk.html")
	out, errs, code := runBinary(t, env, "", "sessions", "export", "0k3m9xq4ab", "-o", file)
	if code != exitOK || errs != "" || out != "exported 0k3m9xq4ab to "+file+" (html)\n" {
		t.Fatalf("export -o talk.html: %d %q %q", code, out, errs)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != page {
		t.Errorf("the file differs from stdout's page (%v)", err)
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode: %v", err)
	}
}
