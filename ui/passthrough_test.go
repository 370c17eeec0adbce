package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// stringSeqs are the string-type sequences that ultraviolet carries from a
// view's text to the terminal since 2026-10 (styled.go, passThrough): APC
// (kitty graphics), DCS (a sixel image, a settings report), SOS and PM, in
// their 7-bit forms and with their C1 introducers as UTF-8 runes, ended by
// ESC \, by the C1 ST, by BEL, and not ended at all (an unterminated one is
// followed by a terminated one, whose ESC ends it on a real terminal).
var stringSeqs = []string{
	"\x1b_Gunterminated apc ",
	"\x1b_Gf=100,a=T,t=f;L2V0Yy9wYXNzd2Q=\x1b\\",
	"\x1bPunterminated dcs ",
	"\x1bPq#0;2;0;0;0#0~~@@vv\x1b\\",
	"\x1bP1$r0m\x1b\\",
	"\x1bXsos\x1b\\",
	"\x1b^pm\x1b\\",
	"\x1b_G\x07",
	"\x1bP\u009c",
	"\u009funterminated c1 apc ",
	"\u0090c1dcs\u009c",
	"\u0098c1sos\u009c",
	"\u009ec1pm\u009c",
	"\u009fc1apc\x1b\\",
}

// rawStringSeqs are the same introducers as raw 8-bit bytes, which only a
// byte stream carries (a tool's output, an error body, a status command):
// JSON makes them U+FFFD.
var rawStringSeqs = []string{"\x90raw dcs\x1b\\", "\x98raw sos\x1b\\", "\x9eraw pm\x1b\\", "\x9fraw apc\x1b\\", "\x9fraw open ", "\x1b_Gz\x1b\\"}

// seqText is untrusted text carrying every sequence, then marker, which
// shows the path reached the screen.
func seqText(marker string) string {
	return marker + "-start " + strings.Join(stringSeqs, " ~ ") + " " + marker
}

// terminal is Bubble Tea's renderer as cursedRenderer.flush drives
// ultraviolet (v2.1.1): every frame's view parsed into a cleared cell
// buffer and diffed with the last, for one width method.
type terminal struct {
	out bytes.Buffer
	scr *uv.TerminalRenderer
	buf uv.ScreenBuffer
}

func newTerminal(w, h int, method ansi.Method) *terminal {
	t := &terminal{}
	t.scr = uv.NewTerminalRenderer(&t.out, nil)
	t.scr.SetFullscreen(true)
	t.scr.SetWidthMethod(method)
	t.scr.Resize(w, h)
	t.buf = uv.NewScreenBuffer(w, h)
	t.buf.Method = method
	return t
}

func (t *terminal) draw(content string) {
	t.buf.Clear()
	uv.NewStyledString(content).Draw(t.buf, t.buf.Bounds())
	t.scr.Render(t.buf.RenderBuffer)
	_ = t.scr.Flush()
}

// stringSeqAt returns where out holds the start of a string-type sequence
// (ESC P, ESC _, ESC X, ESC ^; the C1 DCS, SOS, PM or APC as a rune or as a
// raw byte), or -1.
func stringSeqAt(out []byte) int {
	for i := 0; i < len(out); {
		c := out[i]
		if c == 0x1b && i+1 < len(out) && strings.IndexByte("P_X^", out[i+1]) >= 0 {
			return i
		}
		r, size := utf8.DecodeRune(out[i:])
		if r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f {
			return i
		}
		if r == utf8.RuneError && size == 1 && (c == 0x90 || c == 0x98 || c == 0x9e || c == 0x9f) {
			return i
		}
		i += size
	}
	return -1
}

// screens collects every view a chat shows and plays them on two
// terminals, one per width method.
type screens struct {
	m     *Model
	views []string
	terms []*terminal
}

func (s *screens) capture() {
	v := s.m.View()
	if n := len(s.views); n > 0 && s.views[n-1] == v.Content {
		return
	}
	s.views = append(s.views, v.Content)
	for _, t := range s.terms {
		t.draw(v.Content)
	}
	if i := strings.IndexFunc(v.WindowTitle, func(r rune) bool { return r < 0x20 || r >= 0x7f && r <= 0x9f }); i >= 0 {
		panic(fmt.Sprintf("window title carries a control: %q", v.WindowTitle))
	}
}

// TestNoStringSequenceReachesTheTerminal: APC, DCS, SOS and PM sequences in
// every kind of untrusted text a chat shows (the model's reasoning, answer,
// refusal and call arguments in the approval dialog, a hosted MCP call's
// output and error, a local tool's stdout and stderr, an HTTP error body, a
// failed response's error, a status command's output) never reach the
// terminal: each frame the chat drew, played through ultraviolet as Bubble
// Tea's renderer plays it, holds none of their bytes, while each text's
// marker shows the path was drawn. The answer streams in 3-byte deltas, so
// sequences arrive cut in pieces.
func TestNoStringSequenceReachesTheTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	raw := strings.Join(rawStringSeqs, " ~ ")
	toolOut := filepath.Join(dir, "tool.out")
	os.WriteFile(toolOut, []byte("tool-start "+raw+" "+strings.Join(stringSeqs, " ~ ")+" tool-end\nline two "+raw+" two-end\n"), 0o600)
	statusOut := filepath.Join(dir, "status.out")
	os.WriteFile(statusOut, []byte("st "+raw+" status-end\n"), 0o600)

	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	args, _ := json.Marshal(map[string]string{"what": seqText("args-end")})
	answer := "# " + seqText("head-end") + "\n\n" + seqText("text-end") + " `" + seqText("inline-end") + "`\n\n```go\n" + seqText("code-end") + "\n```\n"
	first := []string{
		`{"type":"response.created","response":{"id":"resp_1","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs","summary":[]}}`,
		`{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":0,"delta":` + q("**Plan**\n\n"+seqText("reason-end")) + `}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs","summary":[{"type":"summary_text","text":` + q("**Plan**\n\n"+seqText("reason-end")) + `}]}}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"message","id":"msg","role":"assistant","content":[]}}`,
	}
	for i, next := 0, 0; i < len(answer); i = next {
		next = min(i+3, len(answer))
		for next < len(answer) && !utf8.RuneStart(answer[next]) {
			next++
		}
		first = append(first, `{"type":"response.output_text.delta","output_index":1,"content_index":0,"delta":`+q(answer[i:next])+`}`)
	}
	first = append(first,
		`{"type":"response.refusal.delta","output_index":1,"content_index":1,"delta":`+q(seqText("refusal-end"))+`}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"type":"message","id":"msg","role":"assistant","status":"completed","content":[{"type":"output_text","text":`+q(answer)+`,"annotations":[]},{"type":"refusal","refusal":`+q(seqText("refusal-end"))+`}]}}`,
		`{"type":"response.output_item.done","output_index":2,"item":{"type":"mcp_call","id":"mc","status":"failed","server_label":"srv","name":"tool","arguments":"{}","output":`+q(seqText("mcp-end"))+`,"error":{"message":`+q(seqText("mcperr-end"))+`}}}`,
		`{"type":"response.output_item.added","output_index":3,"item":{"type":"function_call","id":"fc_1","name":"hostile_tool","call_id":"call_1","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","output_index":3,"item_id":"fc_1","delta":`+q(string(args))+`}`,
		`{"type":"response.output_item.done","output_index":3,"item":{"type":"function_call","id":"fc_1","name":"hostile_tool","call_id":"call_1","arguments":`+q(string(args))+`,"status":"completed"}}`,
		`{"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[]}}`,
	)
	srv := streamtest.New(t)
	srv.Enqueue(
		streamtest.Reply{SSE: streamtest.Events(first...)},
		streamtest.Reply{Status: 400, Body: []byte("http-start " + raw + " " + strings.Join(stringSeqs, " ~ ") + " http-end")},
		streamtest.Reply{SSE: streamtest.Events(
			`{"type":"response.created","response":{"id":"resp_3","status":"in_progress","output":[]}}`,
			`{"type":"response.failed","response":{"id":"resp_3","status":"failed","output":[],"error":{"code":"server_error","message":`+q(seqText("failed-end"))+`}}}`,
		)},
	)
	tl := &Tools{Config: tools.Config{Functions: []tools.Function{{
		Name: "hostile_tool", Description: "prints sequences", Approval: tools.ApproveAlways,
		Command: []string{"sh", "-c", "cat >/dev/null; cat " + toolOut + "; cat " + toolOut + " >&2; exit 3"},
	}}}, Enabled: map[string]bool{"hostile_tool": true}}
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL}, Tools: tl, StatusLine: StatusLine{Command: []string{"cat", statusOut}}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 200}) // every text on screen at once
	s := &screens{m: m}
	for _, method := range []ansi.Method{ansi.WcWidth, ansi.GraphemeWidth} {
		s.terms = append(s.terms, newTerminal(100, 200, method))
	}
	d := newDriver(t, m)
	seen := func(marker string) func() bool {
		return func() bool {
			s.capture()
			return strings.Contains(ansi.Strip(s.views[len(s.views)-1]), marker)
		}
	}
	d.run(m.Init())
	d.send(SubmitMsg{Text: "go"})
	d.until("the approval prompt", func() bool { s.capture(); return m.dialog != nil })
	d.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	d.until("the error body", seen("http-end"))
	d.until("the turn's end", func() bool { s.capture(); return m.turns.cur == nil && !m.tools.busy() })
	m.items.expand(keyAllReasoning, nil, nil)
	s.capture()
	d.send(SubmitMsg{Text: "again"})
	d.until("the failed response", seen("failed-end"))
	d.until("the status command", seen("status-end"))

	all := ansi.Strip(strings.Join(s.views, "\n"))
	for _, marker := range []string{"reason-end", "head-end", "text-end", "inline-end", "code-end", "refusal-end", "mcp-end", "mcperr-end", "args-end", "tool-end", "http-end", "failed-end", "status-end"} {
		if !strings.Contains(all, marker) {
			t.Errorf("no frame showed %s", marker)
		}
	}
	for i, v := range s.views {
		if at := stringSeqAt([]byte(v)); at >= 0 {
			t.Fatalf("view %d holds a string sequence at %d: %q", i, at, v[max(0, at-20):min(len(v), at+40)])
		}
	}
	for _, term := range s.terms {
		out := term.out.Bytes()
		if at := stringSeqAt(out); at >= 0 {
			t.Fatalf("the terminal was sent a string sequence at %d of %d bytes: %q", at, len(out), out[max(0, at-20):min(len(out), at+40)])
		}
	}
	if len(s.views) < 10 {
		t.Errorf("only %d frames drawn", len(s.views))
	}
}

// TestTerminalCarriesStringSequences: the check above can fail; ultraviolet
// does send a string sequence in a view's text on to the terminal, in every
// form stringSeqs and rawStringSeqs hold that ends in ESC \ (the one end it
// accepts).
func TestTerminalCarriesStringSequences(t *testing.T) {
	for _, seq := range append(append([]string{}, stringSeqs...), rawStringSeqs...) {
		if strings.Contains(seq, "open") || strings.Contains(seq, "unterminated") || !strings.HasSuffix(seq, "\x1b\\") {
			continue
		}
		term := newTerminal(40, 3, ansi.WcWidth)
		term.draw("a" + seq + "b")
		if stringSeqAt(term.out.Bytes()) < 0 {
			t.Errorf("%q: not passed through (%q); if ultraviolet drops them again, this test and the pass-through check can go", seq, term.out.String())
		}
	}
}

// TestSanitizedTextCarriesNoStringSequence: whatever bytes a hostile text
// is made of (pieces of every introducer, terminator and C1 control, raw and
// as runes, mixed with text, cut anywhere), stream.Sanitize and SanitizeLine
// leave nothing that ultraviolet sends on as a string sequence: the class
// of defect, checked on 5,000 generated texts from a fixed seed (1,000 with
// -short).
func TestSanitizedTextCarriesNoStringSequence(t *testing.T) {
	t.Parallel()
	pieces := []string{
		"\x1b", "\x1b\\", "\x1b_", "\x1bP", "\x1bX", "\x1b^", "\x1b]", "\x1b[", "_", "P", "X", "^", "\\", "G", "q",
		"\a", "\u009c", "\u0090", "\u0098", "\u009e", "\u009f", "\u009d", "\u009b", "\x9c", "\x90", "\x98", "\x9e", "\x9f",
		"\xc2", "a", "b c", "é", "日本", "\n", "\t", "\r", ";", "=", "~",
	}
	rng := rand.New(rand.NewPCG(31, 7))
	var b strings.Builder
	term := newTerminal(40, 4, ansi.WcWidth)
	n := 5000
	if testing.Short() {
		n = 1000
	}
	for i := range n {
		b.Reset()
		for range 1 + rng.IntN(24) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		in := b.String()
		for _, out := range []string{stream.Sanitize(in), stream.SanitizeLine(in)} {
			if at := stringSeqAt([]byte(out)); at >= 0 || strings.ContainsRune(out, 0x1b) {
				t.Fatalf("text %d %q: sanitized %q holds a sequence", i, in, out)
			}
			term.out.Reset()
			term.draw("x" + out + "y")
			if at := stringSeqAt(term.out.Bytes()); at >= 0 {
				t.Fatalf("text %d %q: sanitized %q reached the terminal as %q", i, in, out, term.out.Bytes())
			}
		}
	}
}
