package export_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"runnel/session/export"
	"runnel/session/store"
)

// load imports a fixture from the repository's testdata/sessions into a
// fresh store and loads it back.
func load(t *testing.T, name string) *store.Session {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sessions", name))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	id, err := db.Import(data)
	if err != nil {
		t.Fatal(err)
	}
	s, warn, err := db.Load(id)
	if err != nil || len(warn) > 0 {
		t.Fatalf("load: %v %v", err, warn)
	}
	return s
}

func render(t *testing.T, s *store.Session) string {
	t.Helper()
	var b bytes.Buffer
	if err := export.Markdown(&b, s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// outline is what a markdown reader sees in a document: its headings and
// its fenced code blocks (info string, content), in order.
type outline struct {
	headings []string
	blocks   [][2]string
}

func parse(md string) outline {
	src := []byte(md)
	var o outline
	ast.Walk(goldmark.New().Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			o.headings = append(o.headings, strings.Repeat("#", n.Level)+" "+string(n.Lines().Value(src)))
		case *ast.FencedCodeBlock:
			o.blocks = append(o.blocks, [2]string{string(n.Language(src)), string(n.Lines().Value(src))})
		}
		return ast.WalkContinue, nil
	})
	return o
}

// TestExportMarkdownTranscript: the fixture's transcript has the title,
// the metadata, each prompt quoted, reasoning collapsed, the function call
// with its arguments and its output (sent back in the next turn) under it,
// the MCP call, and notes on the stopped and failed turns.
func TestExportMarkdownTranscript(t *testing.T) {
	md := render(t, load(t, "weather.json"))
	for _, want := range []string{
		"# What's the weather in Paris?\n",
		"- **Session:** `0k3m9xq4ab` (resume with `runnel -r 0k3m9xq4ab`)\n",
		"- **Model:** `gpt-5-mini`\n",
		"- **Created:** 2025-06-01 12:00:00 UTC\n",
		"> What's the weather in Paris?\n",
		"> Ask the docs server about streaming\n",
		"> And tomorrow's weather?\n",
		"<details>\n<summary>Reasoning</summary>\n\n**Checking the forecast**\n",
		"**Function call** `get_weather` · completed\n",
		"**MCP tools listed** `docs`\n\n`search_docs`, `fetch_page`\n",
		"**MCP call** `docs.search_docs` · completed\n",
		"It is **sunny** in Paris, 22 °C.\n",
		"*(saved while still streaming)*",
		"**Stopped** by the user; the answer above is partial.",
		"**Failed:** server_error: the upstream timed out",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("transcript lacks %q:\n%s", want, md)
		}
	}
	o := parse(md)
	wantHeads := []string{"# What's the weather in Paris?",
		"## Turn 1", "### You", "### Assistant", // stored turn 2, the tool round, folded in
		"## Turn 2", "### You", "### Assistant",
		"## Turn 3", "### You", "### Assistant"}
	if strings.Join(o.headings, "|") != strings.Join(wantHeads, "|") {
		t.Errorf("headings\n got %q\nwant %q", o.headings, wantHeads)
	}
	wantBlocks := [][2]string{
		{"json", "{\n  \"city\": \"Paris\",\n  \"unit\": \"celsius\"\n}\n"},
		{"", "{\"temp\":22,\"sky\":\"sunny\",\"note\":\"red alert\"}\n"}, // the output, under its call
		{"sh", "echo ok\n"},
		{"json", "{\n  \"query\": \"streaming events\"\n}\n"},
		{"", "Streaming uses server-sent events.\n```\nevent: response.created\n```\n"},
		{"text", "server-sent ev\n"}, // the partial answer's open block, closed
	}
	if len(o.blocks) != len(wantBlocks) {
		t.Fatalf("code blocks\n got %q\nwant %q", o.blocks, wantBlocks)
	}
	for i := range wantBlocks {
		if o.blocks[i] != wantBlocks[i] {
			t.Errorf("code block %d\n got %q\nwant %q", i, o.blocks[i], wantBlocks[i])
		}
	}
}

// TestExportMarkdownNoControls: escape sequences stored in prompts, answers
// and tool output never reach the markdown; only newlines and tabs remain.
func TestExportMarkdownNoControls(t *testing.T) {
	md := render(t, load(t, "weather.json"))
	for i, r := range md {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			t.Fatalf("control %U at byte %d: %q", r, i, md[max(0, i-20):min(len(md), i+20)])
		}
	}
	for _, gone := range []string{"pwned", "[31m", "[2J"} {
		if strings.Contains(md, gone) {
			t.Errorf("escape sequence remnant %q in the transcript", gone)
		}
	}
}

func raw(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func msg(role, text string) json.RawMessage {
	return raw(map[string]any{"type": "message", "role": role, "content": []any{map[string]any{"type": "output_text", "text": text}}})
}

// TestExportMarkdownStructureHolds: stored text made to break the document
// (an unclosed fence, long backtick runs, a closing </details>, a heading
// inside a tool output) stays inside its own block, so every turn keeps its
// heading and each call's arguments and output come back whole.
func TestExportMarkdownStructureHolds(t *testing.T) {
	hostile := "`````\n## Turn 99\n</details>\n~~~"
	s := &store.Session{
		Info: store.SessionInfo{ID: "0k3m9xq4ab", Title: "`weird` title", Created: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)},
		Turns: []store.Turn{
			{Seq: 1, Prompt: "```\nunclosed", Status: store.StatusCompleted, Responses: []store.Response{{Items: []store.Item{
				{Done: true, Raw: raw(map[string]any{"type": "reasoning", "summary": []any{map[string]any{"text": hostile}}})},
				{OutputIndex: 1, Done: true, Raw: raw(map[string]any{"type": "function_call", "call_id": "c1", "name": "run`it", "arguments": hostile})},
				{OutputIndex: 2, Done: true, Raw: msg("assistant", "```go\nfunc open() {")},
			}}}},
			{Seq: 2, Input: []json.RawMessage{raw(map[string]any{"type": "function_call_output", "call_id": "c1", "output": hostile})},
				Status: store.StatusInterrupted, Responses: []store.Response{{Items: []store.Item{
					{Done: false, Raw: msg("assistant", "~~~\nstill open")},
				}}}},
			{Seq: 3, Prompt: "last", Status: "from-the-future", Responses: []store.Response{{Items: []store.Item{
				{Done: true, Raw: raw(map[string]any{"type": "brand_new_call", "call_id": "c9", "name": "x", "payload": map[string]any{"a": 1}})},
				{OutputIndex: 1, Done: true, Raw: json.RawMessage(`not json`)},
			}}}},
		},
	}
	md := render(t, s)
	o := parse(md)
	var turns []string
	for _, h := range o.headings {
		if strings.HasPrefix(h, "## ") {
			turns = append(turns, h)
		}
	}
	if strings.Join(turns, "|") != "## Turn 1|## Turn 2" { // stored turn 2 is a round of turn 1
		t.Errorf("turn headings %q, want Turn 1..2:\n%s", turns, md)
	}
	var got []string
	for _, b := range o.blocks {
		got = append(got, b[1])
	}
	if !contains(got, hostile+"\n") {
		t.Errorf("the call's arguments or output did not come back whole: %q\n%s", got, md)
	}
	for _, want := range []string{"**Interrupted:**", "**Status:** from-the-future", "**brand new call** `x`", "*(saved while still streaming)*"} {
		if !strings.Contains(md, want) {
			t.Errorf("transcript lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(md, "## Turn 99\n&lt;/details>\n") {
		t.Errorf("the </details> in the reasoning was not defused:\n%s", md)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
