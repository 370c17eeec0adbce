package block

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// payloads are the hostile strings the injection stream carries: a clipboard
// write (OSC 52), a hyperlink the model made up (OSC 8), screen clearing, an
// SGR with made-up parameters, APC, DCS, SOS and PM sequences, an 8-bit CSI,
// a carriage return that would let later text overwrite earlier text, and
// bidi and zero-width characters.
var payloads = []string{
	"\x1b]52;c;SGVsbG8=\x07",
	"\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07",
	// The string sequences ultraviolet now carries to the terminal (APC,
	// DCS, SOS, PM), 7-bit and C1, one unterminated (ended by the next ESC).
	"\x1b_Gf=100,a=T;AAAA\x1b\\ \x1bXsos\x1b\\ \x1b^pm\x1b\\ \u0090dcs\u009c \u0098sos\u009c \u009epm\u009c \u009fapc\u009c \x1b_Gopen",
	"\x1b[2J\x1b[H",
	"\x1b[123;45;67m",
	"\u009b2J",
	"\u009d8;;https://evil.example/\u009c",
	"over\rwrite",
	"\x1bPdcs\x1b\\",
	// Text that shows one thing and is another, or that terminals and width
	// measures disagree on: bidi overrides and isolates, zero-width and
	// other format characters, tag characters, the line separators, DEL.
	"\u202eevil\u202c \u2067rtl\u2069 \u200b\u200c\u200d\u200e\u200f\u061c\ufeff\u2060\u00ad\U000E0041\u2028\u2029\x7f ❤️👍🏽☺\ufe0e\U000E0100 \U0001F1EB lone",
}

func hostile(s string) string { return s + strings.Join(payloads, " x ") + " end" }

// injectionStream builds an SSE stream whose every text field carries the
// payloads.
func injectionStream(t *testing.T) []byte {
	t.Helper()
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	h := hostile
	args, _ := json.Marshal(map[string]string{"city": h("Paris")})
	events := []string{
		`{"type":"response.created","response":{"id":"resp_x","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs","summary":[]}}`,
		`{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":0,"delta":` + q("**"+h("Title")+"**\n\n"+h("thinking")) + `}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs","summary":[{"type":"summary_text","text":` + q("**"+h("Title")+"**\n\n"+h("thinking")) + `}]}}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc","name":` + q(h("get_weather")) + `,"arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","output_index":1,"delta":` + q(string(args)) + `}`,
		`{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc","status":"completed","name":` + q(h("get_weather")) + `,"arguments":` + q(string(args)) + `}}`,
		`{"type":"response.output_item.done","output_index":2,"item":{"type":"mcp_call","id":"mc","status":"failed","server_label":` + q(h("srv")) + `,"name":` + q(h("tool")) + `,"arguments":` + q(string(args)) + `,"output":` + q(h("out")) + `,"error":{"message":` + q(h("boom")) + `}}}`,
		`{"type":"response.output_item.done","output_index":3,"item":{"type":"web_search_call","id":"ws","status":"completed","action":{"type":"search","query":` + q(h("q")) + `,"sources":[{"type":"url","url":` + q(h("https://s.example/")) + `}]}}}`,
		`{"type":"response.output_item.done","output_index":4,"item":{"type":"shell_call_output","id":"so","status":"completed","output":[{"stdout":` + q(h("stdout")) + `,"stderr":` + q(h("stderr")) + `,"outcome":{"type":"exit","exit_code":1}}]}}`,
		`{"type":"response.output_item.done","output_index":5,"item":{"type":"apply_patch_call","id":"ap","status":"completed","operation":{"type":"update_file","path":` + q(h("a.go")) + `,"diff":` + q("+"+h("added")+"\n-"+h("removed")) + `}}}`,
		`{"type":"response.output_item.done","output_index":6,"item":{"type":` + q(h("weird")) + `,"id":` + q(h("id")) + `,"status":` + q(h("st")) + `}}`,
		`{"type":"response.output_item.added","output_index":7,"item":{"type":"message","id":"msg","role":"assistant","content":[]}}`,
		`{"type":"response.output_text.delta","output_index":7,"content_index":0,"delta":` + q("# "+h("Head")+"\n\n"+h("Body")+" [link](https://ok.example/)\n\n```\n"+h("code")+"\n```\n") + `}`,
		`{"type":"response.output_text.annotation.added","output_index":7,"content_index":0,"annotation_index":0,"annotation":{"type":"url_citation","start_index":0,"end_index":4,"url":` + q("https://ok.example/\x1b]52;c;AA==\x07") + `,"title":` + q(h("cite")) + `}}`,
		`{"type":"response.output_text.annotation.added","output_index":7,"content_index":0,"annotation_index":1,"annotation":{"type":"url_citation","start_index":0,"end_index":4,"url":"javascript:alert(1)","title":"js"}}`,
		`{"type":"response.refusal.delta","output_index":7,"content_index":1,"delta":` + q(h("no")) + `}`,
		`{"type":"response.output_item.done","output_index":7,"item":{"type":"message","id":"msg","role":"assistant","status":"completed","content":[]}}`,
		`{"type":"response.failed","response":{"id":"resp_x","status":"failed","output":[],"error":{"code":` + q(h("code")) + `,"message":` + q(h("failed")) + `}}}`,
	}
	var b bytes.Buffer
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.Bytes()
}

var (
	sgrRE  = regexp.MustCompile(`\x1b\[[0-9;:]*m`)
	osc8RE = regexp.MustCompile(`\x1b\]8;[^;\x1b\a]*;([^\x1b\a]*)(\x1b\\|\a)`)
)

// checkNoInjection checks out for any trace of the payloads as sequences.
func checkNoInjection(t *testing.T, where, out string) {
	t.Helper()
	checkSafe(t, where, out)
	for _, m := range sgrRE.FindAllString(out, -1) {
		if strings.Contains(m, "123;45;67") {
			t.Errorf("%s: injected SGR passed through", where)
		}
	}
	for _, m := range osc8RE.FindAllStringSubmatch(out, -1) {
		if u := m[1]; u != "" && !strings.HasPrefix(u, "https://ok.example/") {
			t.Errorf("%s: hyperlink to %q", where, u)
		}
	}
	stripped := sgrRE.ReplaceAllString(osc8RE.ReplaceAllString(out, ""), "")
	if strings.ContainsAny(stripped, "\x1b\r\a") {
		t.Errorf("%s: escape or control left after removing styling: %q", where, stripped)
	}
}

func TestInjectionTUI(t *testing.T) {
	r := newReplayer(t, injectionStream(t)).run()
	if len(r.order) < 8 {
		t.Fatalf("only %d blocks", len(r.order))
	}
	for _, b := range r.order {
		if x, ok := b.(Expander); ok {
			x.SetExpanded(true)
		}
		for _, w := range []int{100, 60} {
			out := b.Render(r.ctx(w))
			checkNoInjection(t, b.Item().Type, out)
			checkFits(t, b.Item().Type, out, w)
			if !strings.Contains(visible(out), "end") && b.Item().Type != "reasoning" {
				t.Errorf("%s: the text after the payloads is missing:\n%s", b.Item().Type, visible(out))
			}
		}
		if f, ok := b.(Finisher); ok {
			ctx := r.ctx(80)
			render := f.FinalRender(ctx)
			f.SetFinal(80, render())
			checkNoInjection(t, "final", b.Render(ctx))
		}
	}
	for _, n := range []Block{NewUser(hostile("prompt")), NewNotice(Error, hostile("err")), NewRetry(hostile("retry"), epoch.Add(3e9))} {
		checkNoInjection(t, "plain", n.Render(testCtx(40, epoch)))
	}
}

// TestInjectionBordersAligned: whatever the stream's text holds, every row
// of a panel is as wide as its top border and ends in the right border, by
// the grapheme measure the layout uses and by the per-rune measure Bubble
// Tea's renderer uses on terminals without grapheme clustering, so the two
// agree on where the border is.
func TestInjectionBordersAligned(t *testing.T) {
	r := newReplayer(t, injectionStream(t)).run()
	panels := 0
	for _, b := range r.order {
		if x, ok := b.(Expander); ok {
			x.SetExpanded(true)
		}
		for _, w := range []int{100, 60, 37} {
			rows := strings.Split(b.Render(r.ctx(w)), "\n")
			width := -1
			for i, row := range rows {
				plain := ansi.Strip(row)
				if !strings.HasPrefix(plain, "╭") && !strings.HasPrefix(plain, "│") && !strings.HasPrefix(plain, "╰") {
					continue
				}
				if width < 0 {
					width = ansi.StringWidth(row)
					panels++
				}
				if gw, wc := ansi.StringWidth(row), ansi.StringWidthWc(row); gw != width || wc != width {
					t.Errorf("%s at %d: row %d is %d columns (%d per rune), the panel %d: %q", b.Item().Type, w, i, gw, wc, width, plain)
				}
				if !strings.HasSuffix(plain, "╮") && !strings.HasSuffix(plain, "│") && !strings.HasSuffix(plain, "╯") {
					t.Errorf("%s at %d: row %d does not end in the border: %q", b.Item().Type, w, i, plain)
				}
			}
		}
	}
	if panels < 6 {
		t.Errorf("only %d bordered panels rendered", panels)
	}
}
