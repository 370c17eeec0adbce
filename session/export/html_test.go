package export_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	chromastyles "github.com/alecthomas/chroma/v2/styles"
	"golang.org/x/net/html"

	"runnel/session/export"
	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/sharedtest"
)

func renderHTML(t *testing.T, s *store.Session) string {
	t.Helper()
	var b bytes.Buffer
	if err := export.HTML(&b, s, export.Style{CSS: "body{margin:0}", Code: chromastyles.Get("github")}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// page is what a browser makes of an exported page.
type page struct {
	elements map[string]int // element name → count
	text     string         // every text node outside <style>, joined
	pre      []*html.Node   // the <pre> elements
	problems []string       // whatever could run or load something
}

// allowed are the elements the export writes: anything else came from
// stored text.
var allowed = map[string]bool{
	"html": true, "head": true, "body": true, "meta": true, "title": true, "style": true, "main": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "p": true, "hr": true, "br": true,
	"ul": true, "ol": true, "li": true, "blockquote": true, "em": true, "strong": true, "del": true,
	"code": true, "pre": true, "span": true, "a": true, "details": true, "summary": true,
	"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "input": true,
	"dl": true, "dt": true, "dd": true,
}

func parseHTML(t *testing.T, doc string) page {
	t.Helper()
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("the page does not parse: %v", err)
	}
	p := page{elements: map[string]int{}}
	var texts []string
	var walk func(n *html.Node, inStyle bool)
	walk = func(n *html.Node, inStyle bool) {
		switch n.Type {
		case html.ElementNode:
			p.elements[n.Data]++
			if !allowed[n.Data] {
				p.problems = append(p.problems, "element <"+n.Data+">")
			}
			if n.Data == "pre" {
				p.pre = append(p.pre, n)
			}
			if n.Data == "input" && attr(n, "type") != "checkbox" {
				p.problems = append(p.problems, "an input that is not a task-list checkbox")
			}
			for _, a := range n.Attr {
				k := strings.ToLower(a.Key)
				switch {
				case strings.HasPrefix(k, "on"):
					p.problems = append(p.problems, "handler "+a.Key+"="+a.Val)
				case k == "src" || k == "srcset" || k == "background" || k == "action" || k == "formaction":
					p.problems = append(p.problems, "load "+a.Key+"="+a.Val)
				case k == "href":
					v := strings.ToLower(a.Val)
					if !strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "mailto:") {
						p.problems = append(p.problems, "href "+a.Val)
					}
					if n.Data != "a" {
						p.problems = append(p.problems, "href on <"+n.Data+">")
					}
				case k == "style" && strings.Contains(v(a.Val), "url("):
					p.problems = append(p.problems, "style url "+a.Val)
				}
			}
			inStyle = n.Data == "style"
		case html.TextNode:
			if inStyle {
				if strings.Contains(n.Data, "url(") || strings.Contains(n.Data, "@import") {
					p.problems = append(p.problems, "style sheet loads "+n.Data)
				}
			} else {
				texts = append(texts, n.Data)
			}
		case html.CommentNode:
			p.problems = append(p.problems, "comment "+n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inStyle)
		}
	}
	walk(root, false)
	p.text = strings.Join(texts, "")
	if strings.ContainsAny(doc, "\x1b\x07\u009b") {
		p.problems = append(p.problems, "a terminal control character")
	}
	return p
}

func v(s string) string { return strings.ToLower(s) }

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// highlighted reports whether pre holds chroma's spans with inline colours.
func highlighted(pre *html.Node) bool {
	found := false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "span" && strings.Contains(attr(n, "style"), "color:") {
			found = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(pre)
	return found
}

// TestExportHTMLHostileInert: hostile stored text (script tags, an
// attribute break-out with onerror, ESC sequences, javascript: links, a
// remote image, a </details> in a tool's arguments) comes out as text: the
// page parses with only the elements the export writes, no handler, no
// load, links only to http(s), the hostile strings readable as text. Code
// is highlighted by chroma, and each panel (reasoning, the function call
// with its output, the MCP call) is its own <details>.
func TestExportHTMLHostileInert(t *testing.T) {
	script := "<script>alert(1)</script>"
	breakOut := `"><img src=x onerror=alert(2)>`
	answer := "Look: " + script + " and " + breakOut + "\n\n" +
		"<div onclick=\"alert(3)\">block html</div>\n\n" +
		"[click](javascript:alert(4)) [ok](https://example.com/a?b=1&c=2) <javascript:alert(5)> " +
		"![pic](https://evil.example/track.png) \x1b[31mred\x1b[0m \x1b]8;;https://evil.example\x07osc\x1b]8;;\x07\n\n" +
		"```go\nfunc main() { fmt.Println(\"hi\") }\n```\n"
	args := `{"cmd":"</details><script>alert(6)</script>"}`
	s := &store.Session{
		Info: store.SessionInfo{ID: "0k3m9xq4ab", Title: script + " title\x1b[2J", Model: breakOut},
		Turns: []store.Turn{
			{Seq: 1, Prompt: breakOut + "\x1b[31m", Status: store.StatusCompleted, Responses: []store.Response{{Items: []store.Item{
				{Done: true, Raw: raw(map[string]any{"type": "reasoning", "summary": []any{map[string]any{"text": "thinking " + script}}})},
				{OutputIndex: 1, Done: true, Raw: raw(map[string]any{"type": "function_call", "call_id": "c1", "name": "run" + breakOut, "arguments": args, "status": "completed"})},
			}}}},
			{Seq: 2, Input: []json.RawMessage{raw(map[string]any{"type": "function_call_output", "call_id": "c1", "output": script})},
				Status: store.StatusCompleted, Responses: []store.Response{{Items: []store.Item{
					{Done: true, Raw: raw(map[string]any{"type": "mcp_call", "server_label": "docs", "name": "find", "arguments": `{"q":"x"}`, "output": breakOut})},
					{OutputIndex: 1, Done: true, Raw: msg("assistant", answer)},
				}}}},
		},
	}
	doc := renderHTML(t, s)
	p := parseHTML(t, doc)
	if len(p.problems) > 0 {
		t.Fatalf("the page is not inert: %q\n%s", p.problems, doc)
	}
	if p.elements["script"] > 0 || p.elements["img"] > 0 || strings.Contains(strings.ToLower(doc), "<script") {
		t.Fatalf("script or img in the page:\n%s", doc)
	}
	for _, want := range []string{script, breakOut, `<div onclick="alert(3)">block html</div>`, "</details><script>alert(6)</script>", "[image: pic]", "thinking " + script} {
		if !strings.Contains(p.text, want) {
			t.Errorf("the page's text lacks %q:\n%s", want, p.text)
		}
	}
	if !strings.Contains(doc, `href="https://example.com/a?b=1&amp;c=2"`) || !strings.Contains(doc, `href="https://evil.example/track.png"`) {
		t.Errorf("the safe link and the image's link are missing:\n%s", doc)
	}
	if got := p.elements["details"]; got != 3 {
		t.Errorf("%d <details>, want 3 (reasoning, function call, MCP call):\n%s", got, doc)
	}
	for _, sum := range []string{"Reasoning", "Function call run" + breakOut + " · completed", "MCP call docs.find"} {
		if !strings.Contains(p.text, sum) {
			t.Errorf("no panel summary %q:\n%s", sum, p.text)
		}
	}
	var lit int
	for _, pre := range p.pre {
		if highlighted(pre) {
			lit++
		}
	}
	if lit < 2 { // the go block and the JSON arguments at least
		t.Errorf("%d highlighted code blocks, want the go answer and the JSON arguments:\n%s", lit, doc)
	}
	if !strings.Contains(doc, "Content-Security-Policy") || !strings.Contains(doc, "<style>") {
		t.Errorf("the page lacks its policy or its style sheet")
	}
}

// TestExportHTMLRealFixtures: every recorded stream under fixtures/real,
// exported as a one-turn session, parses as HTML holding only the
// export's own elements (none made from the model's text), no script, no
// handler and nothing loaded; the answer's words are in the page.
func TestExportHTMLRealFixtures(t *testing.T) {
	files := sharedtest.RealFiles(t)
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, answer := fixtureSession(data)
			doc := renderHTML(t, s)
			p := parseHTML(t, doc)
			if len(p.problems) > 0 {
				t.Fatalf("the page is not inert: %q", p.problems)
			}
			if w := firstWord(answer); w != "" && !strings.Contains(p.text, w) {
				t.Errorf("the answer's word %q is not in the page's text", w)
			}
		})
	}
}

// fixtureSession makes a one-turn session of a recorded stream, and
// returns the answer's text.
func fixtureSession(data []byte) (*store.Session, string) {
	dec := stream.NewDecoder(bytes.NewReader(data))
	acc := &stream.Accumulator{}
	for dec.Next() {
		_, _ = acc.Apply(dec.Event())
	}
	acc.Finish()
	turn := store.Turn{Seq: 1, Prompt: "replay", Status: store.StatusCompleted}
	var answer strings.Builder
	for i, snap := range acc.Responses() {
		r := store.Response{Index: i, ID: snap.ID}
		for j, it := range snap.Items {
			r.Items = append(r.Items, store.Item{OutputIndex: j, Raw: it.JSON(), Done: true})
			if it.Type == "message" {
				answer.WriteString(it.Text())
			}
		}
		turn.Responses = append(turn.Responses, r)
	}
	return &store.Session{Info: store.SessionInfo{ID: "0k3m9xq4ab", Title: "replay"}, Turns: []store.Turn{turn}}, answer.String()
}

// firstWord is the first word of letters only in text, "" when none is.
func firstWord(text string) string {
	for _, w := range strings.Fields(text) {
		if len(w) > 3 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
			return w
		}
	}
	return ""
}
