package itemlook

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"runnel/session/tools/toolrun"
	"runnel/stream"
	"runnel/stream/sharedtest"
)

// TestLooksKeyedByTheKindTable: the presentation table and stream's kind
// table list the same types, so every type the protocol knows has a title,
// an icon and a summary here, and this table names no type it does not.
func TestLooksKeyedByTheKindTable(t *testing.T) {
	kinds := map[string]bool{}
	for _, k := range stream.ItemKinds() {
		kinds[k.Type] = true
		if l := For(k.Type); l.Generic || l.Type != k.Type {
			t.Errorf("kind %q has no look: %+v", k.Type, l)
		}
	}
	for _, l := range Looks() {
		if !kinds[l.Type] {
			t.Errorf("look %q names a type the kind table does not list", l.Type)
		}
	}
	if len(Looks()) != len(kinds) {
		t.Errorf("%d looks for %d kinds", len(Looks()), len(kinds))
	}
}

// TestLookEntries: every entry has a plain title and a one-cell icon, and
// gives a zero item of its type a one-line summary.
func TestLookEntries(t *testing.T) {
	for _, l := range Looks() {
		if l.Type == "" || l.Generic || l.Title == "" || stream.SanitizeLine(l.Title) != l.Title {
			t.Errorf("entry %+v: needs a type, a plain title and Generic unset", l)
		}
		if utf8.RuneCountInString(l.Icon) != 1 || stream.SanitizeLine(l.Icon) != l.Icon {
			t.Errorf("%s: icon %q is not one plain glyph", l.Type, l.Icon)
		}
		checkSummary(t, l.Type+" (empty item)", l.Summary(&stream.Item{Type: l.Type}, nil))
	}
}

// TestGenericLooks: a type in neither table is titled after the type, with
// the icon of its class, and still summed up.
func TestGenericLooks(t *testing.T) {
	for _, c := range []struct{ typ, title, icon string }{
		{"hologram_call", "hologram call", "ƒ"},
		{"hologram_call_output", "hologram call output", "ƒ"},
		{"hologram", "hologram", "?"},
		{"", "item", "?"},
	} {
		l := For(c.typ)
		if !l.Generic || l.Title != c.title || l.Icon != c.icon {
			t.Errorf("For(%q) = %+v", c.typ, l)
		}
		it := stream.StoredItem(json.RawMessage(`{"type":"` + c.typ + `","name":"beam","status":"completed"}`))
		checkSummary(t, c.typ, l.Summary(it, nil))
	}
	it := stream.StoredItem(json.RawMessage(`{"type":"hologram_call","arguments":"mars","status":"completed"}`))
	if got := For("hologram_call").Summary(it, nil); got != "• hologram_call (mars) completed" {
		t.Errorf("generic summary %q", got)
	}
}

// TestSummariesShowWhatItemsCarry: the programmatic tool calling items,
// additional_tools and a provider's own items ("openrouter:*", known or
// not) are summed up by what they carry, sanitized, never by a status
// alone.
func TestSummariesShowWhatItemsCarry(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`{"type":"program","id":"cm_1","call_id":"call_p","code":"const a = await tools.f({});\ntext(a);\n","status":"completed"}`,
			"• program: const a = await tools.f({}); (2 lines) completed"},
		{`{"type":"program_output","id":"cmo_1","call_id":"call_p","result":"{\"units\":42}","status":"completed"}`,
			`• program output: {"units":42}`},
		{`{"type":"additional_tools","id":"at_1","tools":[{"type":"function","name":"getDemand"},{"type":"function","name":"getStock"}]}`,
			"• additional tools: getDemand, getStock"},
		{`{"type":"openrouter:web_search","id":"ws_1","status":"completed","action":{"type":"search","query":"tallest peak \u001b[31mred"}}`,
			"• openrouter:web_search: tallest peak red completed"},
		{`{"type":"openrouter:datetime","id":"dt_1","status":"completed","output":"2026-11-29T07:00:00Z"}`,
			"• openrouter:datetime: 2026-11-29T07:00:00Z completed"},
		{`{"type":"openrouter:web_fetch","id":"wf_1","status":"completed","action":{"url":"https://example.com/a"}}`,
			"• openrouter:web_fetch: https://example.com/a completed"},
	} {
		it := stream.StoredItem(json.RawMessage(c.raw))
		if got := For(it.Type).Summary(it, nil); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", it.Type, got, c.want)
		}
	}
}

// TestSummarySaysHowTheRunEnded: a call runnel ran is summed up with its
// run's outcome, typed, not the item's status; one it did not run (or that
// has not ended) keeps the item's; an item with an error says failed.
func TestSummarySaysHowTheRunEnded(t *testing.T) {
	it := stream.StoredItem(json.RawMessage(`{"type":"function_call","name":"sh","arguments":"{}","status":"completed"}`))
	l := For("function_call")
	for _, c := range []struct {
		run  *toolrun.Run
		want string
	}{
		{nil, "completed"},
		{&toolrun.Run{Phase: toolrun.RunRunning}, "completed"},
		{&toolrun.Run{Phase: toolrun.RunEnded, Outcome: toolrun.StatusOK, Took: time.Second}, "completed"},
		{&toolrun.Run{Phase: toolrun.RunEnded, Outcome: toolrun.StatusTimedOut}, "timed out"},
		{&toolrun.Run{Phase: toolrun.RunEnded, Outcome: toolrun.StatusDenied}, "denied"},
		{&toolrun.Run{Phase: toolrun.RunEnded, Outcome: toolrun.StatusUnrecorded}, "outcome unknown"},
	} {
		if got := l.Summary(it, c.run); got != "• function sh({}) "+c.want {
			t.Errorf("run %+v: %q", c.run, got)
		}
	}
	mcp := stream.StoredItem(json.RawMessage(`{"type":"mcp_call","server_label":"docs","name":"search","arguments":"{}","status":"completed","error":"boom"}`))
	if got := For("mcp_call").Summary(mcp, nil); got != "• mcp docs.search({}) failed: boom" {
		t.Errorf("failed MCP call %q", got)
	}
}

// TestSummariesOnRealFixtures: every item of every recorded stream (real,
// real2, real3) gets a non-empty one-line summary free of control
// sequences.
func TestSummariesOnRealFixtures(t *testing.T) {
	files := sharedtest.AllRealFiles(t)
	items, types := 0, map[string]bool{}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var acc stream.Accumulator
		d := stream.NewDecoder(strings.NewReader(string(data)))
		for d.Next() {
			_, _ = acc.Apply(d.Event()) // malformed events are the stream tests' business
		}
		acc.Finish()
		for _, s := range acc.Responses() {
			for _, it := range s.Items {
				items++
				types[it.Type] = true
				checkSummary(t, filepath.Base(path)+" "+it.Type, For(it.Type).Summary(it, nil))
			}
		}
	}
	if items < 300 || len(types) < 15 {
		t.Errorf("only %d items of %d types: the fixtures did not replay", items, len(types))
	}
}

// TestSummaryOfLenientItems: members of unexpected JSON types never keep
// an item from a summary line.
func TestSummaryOfLenientItems(t *testing.T) {
	for _, raw := range []string{
		`{"type":"web_search_call","action":"search"}`,
		`{"type":"web_search_call","action":{"queries":{"a":1},"sources":"x","query":5}}`,
		`{"type":"file_search_call","queries":3,"results":{"a":1}}`,
		`{"type":"code_interpreter_call","outputs":[1,"x",{"type":7}]}`,
		`{"type":"apply_patch_call","operation":[1]}`,
		`{"type":"mcp_list_tools","tools":[1,{"name":2}]}`,
		`{"type":"image_generation_call","result":12,"size":1024,"approve":"yes"}`,
		`{"type":"mcp_call","server_label":"s","name":"n","arguments":{"a":1},"output":[{"type":"text","text":"x"}],"error":{"code":1}}`,
		`{"type":"shell_call_output","output":[{"stdout":"a","outcome":{"type":"exit","exit_code":0}}]}`,
		`{"role":"user","content":"hi"}`,
	} {
		it := stream.StoredItem(json.RawMessage(raw))
		checkSummary(t, raw, For(it.Type).Summary(it, nil))
	}
}

// TestSummaryHostile: names, arguments and errors holding escape sequences
// and newlines make one clean summary line.
func TestSummaryHostile(t *testing.T) {
	evil := "\x1b]52;c;cHduZWQ=\x07a\x1b[2J\nb\u202e\x9b31m"
	q, _ := json.Marshal(evil)
	for _, l := range append(Looks(), For("hologram_call"), For("x_output"), For("x")) {
		raw := `{"type":"` + l.Type + `","role":"assistant","name":` + string(q) + `,"server_label":` + string(q) +
			`,"arguments":` + string(q) + `,"input":` + string(q) + `,"code":` + string(q) + `,"status":` + string(q) +
			`,"output":` + string(q) + `,"error":{"message":` + string(q) + `},"content":[{"type":"output_text","text":` + string(q) + `}]` +
			`,"summary":[{"type":"summary_text","text":` + string(q) + `}],"action":{"commands":[` + string(q) + `],"query":` + string(q) + `}` +
			`,"operation":{"path":` + string(q) + `,"diff":` + string(q) + `},"revised_prompt":` + string(q) + `}`
		checkSummary(t, l.Type, l.Summary(stream.StoredItem(json.RawMessage(raw)), nil))
	}
}

func checkSummary(t *testing.T, where, s string) {
	t.Helper()
	if !strings.HasPrefix(s, "• ") || len(strings.TrimSpace(strings.TrimPrefix(s, "• "))) == 0 {
		t.Errorf("%s: summary %q is empty", where, s)
	}
	if stream.SanitizeLine(s) != s || strings.ContainsAny(s, "\n\r\x1b") {
		t.Errorf("%s: summary %q is not one clean line", where, s)
	}
}

// TestWebSearchActions: on the six-search fixture, a page opened or searched
// in is summed up as what it is, not as a search.
func TestWebSearchActions(t *testing.T) {
	data, err := os.ReadFile(sharedtest.Real(t, "vercel__ai/openai-web-search-6-calls.sse"))
	if err != nil {
		t.Fatal(err)
	}
	var acc stream.Accumulator
	d := stream.NewDecoder(strings.NewReader(string(data)))
	for d.Next() {
		acc.Apply(d.Event())
	}
	acc.Finish()
	got := map[string]int{}
	for _, it := range acc.Responses()[0].Items {
		if it.Type != "web_search_call" {
			continue
		}
		s := For(it.Type).Summary(it, nil)
		checkSummary(t, it.ID, s)
		kind, _, _ := strings.Cut(strings.TrimPrefix(s, "• "), ":")
		got[kind]++
	}
	if want := map[string]int{"web search": 2, "open page": 1, "find in page": 3}; !maps.Equal(got, want) {
		t.Errorf("summaries %v, want %v", got, want)
	}
}
