package markdown

import (
	"fmt"
	"os"
	"strings"
	"testing"

	chromastyles "github.com/alecthomas/chroma/v2/styles"

	"runnel/theme"
)

// TestLook checks the look of each element against glamour's dark style
// as theme/ adjusts it (testdata/look.md at 40 columns): row by row, what
// shows and the colours that matter.
func TestLook(t *testing.T) {
	src, err := os.ReadFile("testdata/look.md")
	if err != nil {
		t.Fatal(err)
	}
	style := theme.New(theme.Dark()).Glamour()
	r := newTestRenderer(t, style, 40)
	out, err := r.Render(string(src))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(out, "\n")
	vis := visible(out)
	find := func(prefix string) int {
		for i, v := range vis {
			if strings.HasPrefix(v, prefix) {
				return i
			}
		}
		t.Fatalf("no row starts with %q in\n%s", prefix, strings.Join(vis, "\n"))
		return -1
	}
	sgrOf := func(hex string) string { // a colour as lipgloss writes it
		var r, g, b int
		fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b)
		return fmt.Sprintf("%d;%d;%d", r, g, b)
	}
	h1 := rows[find(" Title one")]
	if !strings.Contains(h1, "48;2;"+sgrOf(*style.H1.BackgroundColor)) {
		t.Errorf("H1 without its background: %q", h1)
	}
	if h2 := rows[find("## Sub heading")]; !strings.Contains(h2, sgrOf(*style.Heading.Color)) {
		t.Errorf("H2 without the heading colour: %q", h2)
	}
	if code := rows[find("  func main()")]; !strings.Contains(code, "38;2;"+sgrOf(*style.CodeBlock.Chroma.Keyword.Color)+"m"+"func") {
		t.Errorf("code keyword not in the keyword colour: %q", code)
	}
	if link := rows[find("https://example.com/a/very/long/url/path")]; !strings.Contains(link, "\x1b]8;;https://example.com/a/very/long/url/path") {
		t.Errorf("URL on a row of its own, hyperlinked: %q", link)
	}
	for _, want := range []string{
		"• item one is long enough to wrap around",
		"  the width of forty columns", // hanging indent
		"  • nested a",
		"1. first",
		"2. second",
		"│ a quote continues",
		"[✓] done",
		"[ ] task",
		"--------",
		"Image: alt → http://img.png",
	} {
		find(want)
	}
	head, rule, body := find(" a"), find("───"), find(" 1")
	if rule != head+1 || body != rule+1 || !strings.Contains(vis[head], "│") || !strings.Contains(vis[rule], "┼") {
		t.Errorf("table without its box rules:\n%s", strings.Join(vis[head:body+1], "\n"))
	}
	for i, v := range vis {
		if w := cells(v); w > 40 && !strings.HasPrefix(v, "  ") {
			t.Errorf("row %d is %d cells wide: %q", i, w, v)
		}
	}
}

// TestNoChromaRegistryWrites checks that renderers keep their code colours
// to themselves: chroma's global registry is left as it was.
func TestNoChromaRegistryWrites(t *testing.T) {
	before := strings.Join(chromastyles.Names(), ",")
	for _, p := range []theme.Palette{theme.Dark(), theme.Light()} {
		r := newTestRenderer(t, theme.New(p).Glamour(), 60)
		if _, err := r.Render("```go\nfunc f() {}\n```"); err != nil {
			t.Fatal(err)
		}
	}
	if after := strings.Join(chromastyles.Names(), ","); after != before {
		t.Errorf("chroma's registry changed:\n%s\n%s", before, after)
	}
}

// TestLookNoColor checks the NO_COLOR look (testdata/look.md at 40
// columns): structure shows by layout and text attributes, never by
// markdown's markers, and no colour is written.
func TestLookNoColor(t *testing.T) {
	src, err := os.ReadFile("testdata/look.md")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRenderer(t, theme.New(theme.NoColor()).Glamour(), 40)
	out, err := r.Render(string(src))
	if err != nil {
		t.Fatal(err)
	}
	rows, vis := strings.Split(out, "\n"), visible(out)
	find := func(prefix string) int {
		for i, v := range vis {
			if strings.HasPrefix(v, prefix) {
				return i
			}
		}
		t.Fatalf("no row starts with %q in\n%s", prefix, strings.Join(vis, "\n"))
		return -1
	}
	for _, marker := range []string{"#", "**", "~~", "`", "| ", "> "} {
		for _, v := range vis {
			if strings.Contains(v, marker) {
				t.Errorf("markdown marker %q shows: %q", marker, v)
			}
		}
	}
	for i, row := range rows {
		if a := rowAttrs(row); a["colour"] {
			t.Errorf("row %d has a colour: %q", i, row)
		}
	}
	attr := func(row int, text, want string) {
		t.Helper()
		if !rowAttrs(rows[row])[want] {
			t.Errorf("%s: no %s in %q", text, want, rows[row])
		}
	}
	h1 := find("Title one")
	attr(h1, "H1", "bold")
	attr(h1, "H1", "underline")
	attr(find("Sub heading"), "H2", "bold")
	para := find("Some emph")
	for _, a := range []string{"italic", "bold", "strike", "inverse"} {
		attr(para, "inline "+a, a)
	}
	attr(find("https://example.com/a/very/long/url/path"), "link URL", "underline")
	for _, want := range []string{
		"• item one is long enough to wrap around",
		"  the width of forty columns", // hanging indent
		"  • nested a",
		"1. first",
		"│ a quote continues",
		"  func main()", // code indented
		"[✓] done",
		"[ ] task",
		"────────",
		"Image: alt → http://img.png",
	} {
		find(want)
	}
	head, rule := find(" a"), find("───")
	if rule != head+1 || !strings.Contains(vis[head], "│") || !strings.Contains(vis[rule], "┼") {
		t.Errorf("table without its box rules:\n%s", strings.Join(vis[head:rule+2], "\n"))
	}
}

// rowAttrs names the attributes (and "colour") some cell of row shows.
func rowAttrs(row string) map[string]bool {
	seen := map[string]bool{}
	var st sgrState
	for i := 0; i < len(row); {
		if strings.HasPrefix(row[i:], "\x1b[") {
			j := i + 2
			for j < len(row) && (row[j] < 0x40 || row[j] > 0x7e) {
				j++
			}
			if j < len(row) && row[j] == 'm' {
				st = applySGR(st, row[i+2:j])
			}
			i = j + 1
			continue
		}
		if strings.HasPrefix(row[i:], "\x1b]") {
			j := strings.IndexAny(row[i+2:], "\a\x1b")
			if j < 0 {
				break
			}
			if i += 2 + j + 1; row[i-1] == '\x1b' {
				i++ // ST is ESC \\
			}
			continue
		}
		for name, on := range map[string]bool{"bold": st.bold, "italic": st.italic, "underline": st.under,
			"inverse": st.rev, "strike": st.strike, "colour": st.fg != "" || st.bg != ""} {
			if on {
				seen[name] = true
			}
		}
		i++
	}
	return seen
}
