package ui

// Golden view tests: whole screens of the chat at a fixed size (80x24), a
// fixed theme (dark, full colour: the styled bytes are stored as lipgloss
// renders them, i.e. the TrueColor profile, before any terminal
// downsampling) and a fixed clock, compared byte for byte with
// ui/testdata/golden/*.golden.
//
// After an intended change of the look (a new markdown renderer, a theme
// change), regenerate them all with one command and review the diff:
//
//	go test ./ui -run TestGolden -update
//
// A mismatch prints both screens with the styling stripped, and the first
// differing line.

import (
	"context"
	"flag"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session"
	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
	"runnel/ui/block"
)

var update = flag.Bool("update", false, "rewrite ui/testdata/golden/*.golden from the current views")

// fixedNow is the golden tests' clock: it never moves, so every elapsed
// time and duration on screen is zero.
var fixedNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

const goldenW, goldenH = 80, 24

// goldenModel is a chat at 80x24 with a dark theme and a stopped clock,
// talking to srv (nil: no server).
func goldenModel(t *testing.T, srv *streamtest.Server) *Model {
	t.Helper()
	o := Options{WindowWidth: goldenW, Settings: session.Settings{Model: "gpt-golden", Store: true}}
	if srv != nil {
		o.Client = &stream.Client{BaseURL: srv.URL}
	}
	m := New(t.Context(), o)
	m.frame.clock = func() time.Time { return fixedNow }
	m.frame.now = fixedNow
	m.Update(tea.WindowSizeMsg{Width: goldenW, Height: goldenH})
	// the model starts dark; no BackgroundColorMsg arrives without a terminal
	return m
}

// goldenPump delivers the turn's batches with a frame at the fixed time
// after each, then the finished messages' full renders, so the screen does
// not depend on how the stream was cut into batches.
func goldenPump(t *testing.T, m *Model) {
	t.Helper()
	pumpFrames(t, m, func() time.Time { return fixedNow }, nil)
	for _, e := range m.items.entries {
		if f, ok := e.b.(block.Finisher); ok && e.it.Done {
			render := f.FinalRender(block.Context{Width: m.frame.width, Styles: m.frame.styles, Now: fixedNow})
			m.Update(finalMsg{e: e, width: m.frame.width, rendered: render()})
		}
	}
	m.Update(frameMsg{gen: m.turns.gen, now: fixedNow})
}

// checkGolden compares the model's screen with testdata/golden/name.golden,
// or rewrites it under -update.
func checkGolden(t *testing.T, m *Model, name string) {
	t.Helper()
	got := m.View().Content
	if n := strings.Count(got, "\n") + 1; n != goldenH {
		t.Errorf("the view has %d lines, want %d", n, goldenH)
	}
	for i, l := range strings.Split(got, "\n") {
		if w := ansi.StringWidth(l); w > goldenW {
			t.Errorf("line %d is %d cells wide", i, w)
		}
	}
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with: go test ./ui -run TestGolden -update)", err)
	}
	if got == string(want) {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	line := 0
	for line < min(len(g), len(w)) && g[line] == w[line] {
		line++
	}
	t.Errorf("%s differs from the golden file at line %d (styling included); if the change is intended, run: go test ./ui -run TestGolden -update\n--- got:\n%s\n--- want:\n%s",
		name, line+1, ansi.Strip(got), ansi.Strip(string(want)))
}

// goldenAnswer is an answer with a table and a code fence.
const goldenAnswer = "Here is **the plan** in brief.\n\n" +
	"| step | owner |\n|---|---|\n| parse | stream |\n| draw | ui |\n\n" +
	"```go\nfunc main() {\n\tprintln(\"hello from the fence\")\n}\n```\n\n" +
	"That is *all* there is.\n"

func TestGoldenStreamedAnswer(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_golden", splitEvery(goldenAnswer, 7)...)})
	m := goldenModel(t, srv)
	m.Update(SubmitMsg{Text: "make a plan"})
	goldenPump(t, m)
	checkGolden(t, m, "answer")
}

// mcpEvents is a hosted MCP turn: the server's tool list, a call with its
// output, and a short answer.
func mcpEvents(respID string) []byte {
	return streamtest.Events(
		`{"type":"response.created","response":{"id":"`+respID+`","status":"in_progress","model":"gpt-golden","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"mcp_list_tools","id":"mcpl_1","server_label":"docs","tools":[]}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"mcp_list_tools","id":"mcpl_1","server_label":"docs","tools":[{"name":"search_docs","description":"Search the documentation.","input_schema":{}},{"name":"read_page","description":"Return one page as markdown.","input_schema":{}}]}}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"mcp_call","id":"mcp_1","server_label":"docs","name":"search_docs","arguments":"","status":"in_progress"}}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"type":"mcp_call","id":"mcp_1","server_label":"docs","name":"search_docs","arguments":"{\"query\":\"streaming\"}","output":"2 results:\n1. guide/streaming.md\n2. guide/events.md","status":"completed"}}`,
		`{"type":"response.output_item.added","output_index":2,"item":{"type":"message","id":"msg_1","role":"assistant","status":"in_progress","content":[]}}`,
		`{"type":"response.output_text.delta","output_index":2,"item_id":"msg_1","content_index":0,"delta":"The best match is guide/streaming.md."}`,
		`{"type":"response.output_item.done","output_index":2,"item":{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"The best match is guide/streaming.md.","annotations":[]}]}}`,
		`{"type":"response.completed","response":{"id":"`+respID+`","status":"completed","model":"gpt-golden","output":[],"usage":{"input_tokens":20,"output_tokens":9,"total_tokens":29}}}`,
	)
}

func TestGoldenToolPanel(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: mcpEvents("resp_mcp")})
	m := goldenModel(t, srv)
	m.Update(SubmitMsg{Text: "search the docs"})
	goldenPump(t, m)
	m.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}) // the call's panel, expanded
	checkGolden(t, m, "tool-panel")
}

// approvalEvents is a turn that stops at a hosted MCP approval request.
func approvalEvents(respID string) []byte {
	return streamtest.Events(
		`{"type":"response.created","response":{"id":"`+respID+`","status":"in_progress","model":"gpt-golden","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"mcp_list_tools","id":"mcpl_1","server_label":"deploy","tools":[]}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"mcp_list_tools","id":"mcpl_1","server_label":"deploy","tools":[{"name":"deploy_preview","description":"Deploy a branch.","input_schema":{}},{"name":"rollback","description":"Roll back.","input_schema":{}}]}}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"mcp_approval_request","id":"mcpr_1","server_label":"deploy","name":"deploy_preview","arguments":"{\"branch\":\"main\",\"environment\":\"preview\"}"}}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"type":"mcp_approval_request","id":"mcpr_1","server_label":"deploy","name":"deploy_preview","arguments":"{\"branch\":\"main\",\"environment\":\"preview\"}"}}`,
		`{"type":"response.completed","response":{"id":"`+respID+`","status":"completed","model":"gpt-golden","output":[],"usage":{"input_tokens":20,"output_tokens":9,"total_tokens":29}}}`,
	)
}

func TestGoldenApprovalDialog(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: approvalEvents("resp_ask")})
	m := goldenModel(t, srv)
	m.Update(SubmitMsg{Text: "deploy main"})
	goldenPump(t, m)
	if m.dialog == nil {
		t.Fatal("no approval dialog")
	}
	checkGolden(t, m, "approval")
}

func TestGoldenPicker(t *testing.T) {
	t.Parallel()
	m := goldenModel(t, nil)
	sessions := []store.SessionInfo{
		{ID: "s1", Title: "Plan the streaming parser", Model: "gpt-5", Preview: "Here is the plan in brief.", Turns: 4, Updated: fixedNow.Add(-3 * time.Minute)},
		{ID: "s2", Title: "Why does the table wrap?", Model: "gpt-5-mini", Preview: "Tables wrap at the column width.", Turns: 2, Updated: fixedNow.Add(-5 * time.Hour)},
		{ID: "s3", Title: "Deploy to preview", Model: "gpt-5", Preview: "", Turns: 1, Updated: fixedNow.Add(-49 * time.Hour)},
	}
	m.Update(sessionsMsg{list: sessions})
	if _, ok := m.dialog.(dlg[Picker]); !ok {
		t.Fatalf("the picker did not open: %T", m.dialog)
	}
	m.dialog = dlg[Picker]{NewPicker(sessions, fixedNow, m.frame.styles)} // ages from the fixed clock
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	checkGolden(t, m, "picker")
}

// refusingClient is a client whose every connection is refused at once,
// as by a closed port, at a fixed address (the golden screen names it),
// with retries that barely wait.
func refusingClient() *stream.Client {
	refuse := func(context.Context, string, string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	return &stream.Client{BaseURL: "http://127.0.0.1:9/v1", Transport: &http.Transport{DialContext: refuse},
		BaseDelay: time.Microsecond, MaxDelay: time.Microsecond}
}

// TestGoldenFailedConnection: a server that refuses every connection
// (issue 21 item 4: the same two-line error four times) shows, after the
// prompt, one retry line that the retries updated in place and one
// failure line: two rows at 80 columns.
func TestGoldenFailedConnection(t *testing.T) {
	t.Parallel()
	o := Options{WindowWidth: goldenW, Settings: session.Settings{Model: "gpt-golden", Store: true}, Client: refusingClient()}
	m := New(t.Context(), o)
	m.frame.clock = func() time.Time { return fixedNow }
	m.frame.now = fixedNow
	m.Update(tea.WindowSizeMsg{Width: goldenW, Height: goldenH})
	m.Update(SubmitMsg{Text: "hello"})
	goldenPump(t, m)
	v := ansi.Strip(m.View().Content)
	_, after, _ := strings.Cut(v, "┃ hello")
	after, _, _ = strings.Cut(after, "› ")
	var rows []string
	for l := range strings.Lines(after) {
		if l = strings.TrimSpace(l); l != "" {
			rows = append(rows, l)
		}
	}
	flat := strings.Join(rows, " ")
	if strings.Count(flat, "↻") != 1 || strings.Count(flat, "✗") != 1 || !strings.HasPrefix(flat, "↻ connect to 127.0.0.1:9: connection refused — retry 3 of 3 · failed ✗ ") {
		t.Errorf("after the prompt, want the retry line and the failure:\n%s", v)
	}
	if strings.Count(flat, "is it running? check base_url") != 1 || len(rows) != 2 {
		t.Errorf("want two rows at 80 columns, what to do said once:\n%s", v)
	}
	checkGolden(t, m, "failed-connection")
}

// TestFailedConnectionOnAClosedPort: the same against a real closed port:
// after the prompt, one retry line and one failure, each one notice.
func TestFailedConnectionOnAClosedPort(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: "http://" + addr + "/v1", BaseDelay: time.Microsecond, MaxDelay: time.Microsecond}})
	m.Update(SubmitMsg{Text: "hello"})
	pump(t, m, nil)
	v := ansi.Strip(m.View().Content)
	_, after, _ := strings.Cut(v, "┃ hello")
	if strings.Count(after, "↻ connect to "+addr+": connection refused — retry 3 of 3 · failed") != 1 ||
		strings.Count(after, "✗ connect to "+addr+": connection refused — is it running? check base_url") != 1 || strings.Count(after, "connection refused") != 2 {
		t.Errorf("want one retry line and one failure after the prompt:\n%s", v)
	}
}

// TestGoldenApprovalArgumentsOnce: an approval of a call with more
// arguments than a panel's preview shows them once, whole, in the panel;
// the dialog points there.
func TestGoldenApprovalArgumentsOnce(t *testing.T) {
	t.Parallel()
	args := `{\"branch\":\"main\",\"environment\":\"preview\",\"region\":\"eu-west-1\",\"replicas\":2,\"notify\":[\"ops@example.com\",\"dev@example.com\"],\"dry_run\":false}`
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_ask","status":"in_progress","model":"gpt-golden","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"mcp_approval_request","id":"mcpr_1","server_label":"deploy","name":"deploy_preview","arguments":"`+args+`"}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"mcp_approval_request","id":"mcpr_1","server_label":"deploy","name":"deploy_preview","arguments":"`+args+`"}}`,
		`{"type":"response.completed","response":{"id":"resp_ask","status":"completed","model":"gpt-golden","output":[],"usage":{"input_tokens":20,"output_tokens":9,"total_tokens":29}}}`,
	)})
	m := goldenModel(t, srv)
	m.Update(SubmitMsg{Text: "deploy main to preview"})
	goldenPump(t, m)
	if m.dialog == nil {
		t.Fatal("no approval dialog")
	}
	v := ansi.Strip(m.View().Content)
	for _, arg := range []string{`"branch": "main"`, `"region": "eu-west-1"`, `"ops@example.com"`, `"dry_run": false`} {
		if n := strings.Count(v, arg); n != 1 {
			t.Errorf("%s shows %d times, want once:\n%s", arg, n, v)
		}
	}
	if strings.Contains(v, "more line") || !strings.Contains(v, "arguments in its panel above") {
		t.Errorf("the arguments are not whole in the panel, or the dialog does not point at it:\n%s", v)
	}
	checkGolden(t, m, "approval-arguments-once")
}

// TestGoldenSearchAnswer: the six-search answer (real fixture) from its
// prompt: the searches are one line, the reasoning without a summary draws
// nothing, citations are [n] markers, so the answer's first words are within
// the first 10 rows after the prompt.
func TestGoldenSearchAnswer(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: sharedtest.ReadReal(t, "vercel__ai/openai-web-search-6-calls.sse")})
	m := goldenModel(t, srv)
	m.Update(SubmitMsg{Text: "tech news today: anything about vercel?"})
	goldenPump(t, m)
	m.Update(tea.KeyPressMsg{Code: tea.KeyHome}) // the top of the turn
	rows := strings.Split(ansi.Strip(m.View().Content), "\n")
	prompt, first := -1, -1
	for i, r := range rows {
		if prompt < 0 && strings.Contains(r, "anything about vercel?") {
			prompt = i
		}
		if first < 0 && strings.Contains(r, "I checked today’s tech headlines") {
			first = i
		}
	}
	if prompt < 0 || first < 0 || first-prompt > 10 {
		t.Errorf("the prompt is on row %d and the answer begins on row %d, want within 10 rows:\n%s", prompt, first, strings.Join(rows, "\n"))
	}
	checkGolden(t, m, "search-answer")
}

// splitEvery cuts s into n-byte deltas.
func splitEvery(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}
