package export_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"runnel/session/export"
	"runnel/session/store"
	"runnel/stream/sharedtest"
)

// webSearchFixture is a recorded OpenAI answer after six hosted web
// searches, citing seven pages with utm_source=openai links.
const webSearchFixture = "vercel__ai/openai-web-search-6-calls.sse"

// TestExportCitesAsTheChatDoes: the markdown and HTML exports of a real
// web-search answer keep no tracking parameter, write the chat's numbered
// markers and one Sources list of the seven cited pages, and write the six
// searches as one line rather than six panels.
func TestExportCitesAsTheChatDoes(t *testing.T) {
	s, _ := fixtureSession(sharedtest.ReadReal(t, webSearchFixture))

	md := render(t, s)
	if strings.Contains(md, "utm_") {
		t.Errorf("the markdown keeps a tracking parameter:\n%s", md)
	}
	if n := strings.Count(md, "**Sources**"); n != 1 {
		t.Errorf("%d Sources lists in the markdown, want 1", n)
	}
	if !regexp.MustCompile(`(?m)^7\. \[`).MatchString(md) || !strings.Contains(md, `[\[1\]](<https://techcrunch.com/`) {
		t.Errorf("the markdown lacks the seventh source or the first marker:\n%s", md)
	}
	if n := strings.Count(md, "**Web search"); n != 1 || !strings.Contains(md, "**Web search ×6**: `tech news today December 5 2025`") {
		t.Errorf("%d web search lines, want one line for the six:\n%s", n, md)
	}

	doc := renderHTML(t, s)
	if strings.Contains(doc, "utm_") {
		t.Errorf("the HTML keeps a tracking parameter")
	}
	if n := strings.Count(doc, "<strong>Sources</strong>"); n != 1 {
		t.Errorf("%d Sources lists in the HTML, want 1", n)
	}
	if n := strings.Count(doc, "<summary>Web search"); n != 1 {
		t.Errorf("%d web search panels in the HTML, want one for the six", n)
	}
	p := parseHTML(t, doc)
	if len(p.problems) > 0 {
		t.Fatalf("the page is not inert: %q", p.problems)
	}
}

// TestExportHTMLAnswerHeadingsBelowTurn: an answer's own "#" and "##"
// headings come out below the page's "Turn N" (h2) and "Assistant" (h3).
func TestExportHTMLAnswerHeadingsBelowTurn(t *testing.T) {
	s := answerSession("# Big title\n\nText.\n\n## Part two\n\nMore.\n")
	doc := renderHTML(t, s)
	for _, want := range []string{"<h2>Turn 1</h2>", "<h4>Big title</h4>", "<h5>Part two</h5>"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the page lacks %s:\n%s", want, doc)
		}
	}
	var b bytes.Buffer
	if err := export.Markdown(&b, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "# Big title") {
		t.Errorf("the markdown export changed the answer's own headings:\n%s", b.String())
	}
}

// answerSession is a one-turn session whose answer is text.
func answerSession(text string) *store.Session {
	raw, _ := json.Marshal(map[string]any{"type": "message", "role": "assistant", "status": "completed",
		"content": []map[string]any{{"type": "output_text", "text": text}}})
	turn := store.Turn{Seq: 1, Prompt: "hi", Status: store.StatusCompleted,
		Responses: []store.Response{{Items: []store.Item{{Raw: raw, Done: true}}}}}
	return &store.Session{Info: store.SessionInfo{ID: "0k3m9xq4ab", Title: "t"}, Turns: []store.Turn{turn}}
}
