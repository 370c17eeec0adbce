package main

// End-to-end test of the clipboard: runnel in a tmux pane that drops OSC 52
// (set-clipboard off), then takes it (on), the answer full of control sequences, bidi and
// zero-width characters, and what lands in tmux's paste buffer and in the
// OSC 52 bytes runnel writes to the pty.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream/streamtest"
)

// clipAnswer is a hostile answer: a code block that shows two harmless lines
// but holds ESC[201~ (which ends a shell's bracketed paste, so the lines
// after it would run without Enter) and bidi controls that reorder what is
// shown, and prose holding every kind of sequence: ESC, BEL, CSI, OSC, DCS,
// APC, C1 (8-bit CSI and NEL), NUL, BS, lone CR, DEL, and soft hyphen,
// zero-width space, BOM and a tag character.
const clipAnswer = "Paste this:\n\n```sh\necho one\x1b[201~\necho two\u202e\u2066 owt\u2069\n```\n\n" +
	"Text: ESC\x1b[2J BEL\x07 CSI\x1b[31m OSC\x1b]0;t\x07 DCS\x1bPq\x1b\\ APC\x1b_Gf=1\x1b\\ C1\u0085\u009b1m " +
	"NUL\x00 BS\b CR\rX DEL\x7f soft\u00adhyphen zw\u200bsp bom\ufeff tag\U000E0041 end\n"

// clipShown is clipAnswer as the screen shows it, and so as it is copied.
const clipShown = "Paste this:\n\n```sh\necho one\necho two owt\n```\n\n" +
	"Text: ESC BEL CSI OSC DCS APC C1 NUL BS CRX DEL softhyphen zwsp bom tag end\n"

var osc52RE = regexp.MustCompile(`\x1b\]52;[a-z]*;([A-Za-z0-9+/=]*)(?:\x07|\x1b\\)`)

// TestChatClipboardCleaned: ctrl+y and /copy N put on the clipboard what the
// screen shows, never a control sequence, as tmux receives it over the pty.
// With tmux's set-clipboard off the copy says it did not get through; once
// it is on, the next copy asks again and does.
// The panel of an MCP call whose output holds the same characters keeps its
// right border in line.
func TestChatClipboardCleaned(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	mcpOut := "out\u202eput\u00ad \u200bhidden\u2067 x\u2069 \ufeffwide\u00ad\u00ad\u00ad\u00ad heart ❤️ thumbs 👍🏽 lone \U0001F1EB row end"
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_c","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"mcp_call","id":"mc","status":"completed","server_label":"srv\u202e","name":"look\u00adup","arguments":"{}","output":`+q(mcpOut)+`}}`,
		`{"type":"response.output_item.added","output_index":1,"item":{"type":"message","id":"m","role":"assistant","content":[]}}`,
		fmt.Sprintf(`{"type":"response.output_text.delta","output_index":1,"content_index":0,"delta":%s}`, q(clipAnswer[:40])),
		fmt.Sprintf(`{"type":"response.output_text.delta","output_index":1,"content_index":0,"delta":%s}`, q(clipAnswer[40:])),
		`{"type":"response.completed","response":{"id":"resp_c","status":"completed","output":[]}}`,
	)})
	p := chatPane(t, srv)
	p.tmux("set-option", "-g", "set-clipboard", "off")
	raw := filepath.Join(t.TempDir(), "pty.out")
	p.tmux("pipe-pane", "-o", "-t", "t", "cat >> "+shellQuote(raw))

	p.say("copy test")
	p.waitText("tag end")
	s := p.waitFor("the turn to end", func(s string) bool { return strings.Contains(lastLines(s, 3), "ready") })
	checkScreenAligned(t, s)

	// tmux drops a program's copy: runnel asks tmux and says so
	p.keys("C-y")
	p.waitText("(set-clipboard off)")
	p.tmux("set-option", "-g", "set-clipboard", "on")
	p.keys("C-y")
	p.waitText("through tmux")
	if got := p.tmux("show-buffer"); got != clipShown {
		t.Errorf("ctrl+y: tmux buffer = %+q\nwant %+q", got, clipShown)
	}
	p.say("/copy 1")
	p.waitFor("the code block in the buffer", func(string) bool { return p.tmux("show-buffer") != clipShown })
	if got := p.tmux("show-buffer"); got != "echo one\necho two owt" {
		t.Errorf("/copy 1: tmux buffer = %+q", got)
	}

	// The OSC 52 requests runnel wrote to the pty carry the same text.
	p.tmux("pipe-pane", "-t", "t") // stop recording
	data, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	var copied []string
	for _, m := range osc52RE.FindAllSubmatch(data, -1) {
		b, err := base64.StdEncoding.DecodeString(string(m[1]))
		if err != nil {
			t.Fatalf("OSC 52 payload %q: %v", m[1], err)
		}
		copied = append(copied, string(b))
	}
	if len(copied) != 3 || copied[0] != clipShown || copied[1] != clipShown || copied[2] != "echo one\necho two owt" {
		t.Errorf("OSC 52 payloads on the pty: %+q", copied)
	}
}

// checkScreenAligned fails if the captured screen holds a format character,
// or if a bordered panel's rows differ in width or do not end in the border.
func checkScreenAligned(t *testing.T, screen string) {
	t.Helper()
	width, panels := -1, 0
	for i, row := range strings.Split(screen, "\n") {
		for _, r := range row {
			if r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r) {
				t.Errorf("row %d holds %U: %+q", i, r, row)
			}
		}
		row = strings.TrimRight(row, " ")
		switch {
		case strings.HasPrefix(row, "╭"):
			width = ansi.StringWidth(row)
			panels++
		case strings.HasPrefix(row, "│") || strings.HasPrefix(row, "╰"):
		default:
			continue
		}
		if w := ansi.StringWidth(row); w != width || !strings.ContainsAny(row[len(row)-3:], "╮│╯") {
			t.Errorf("row %d is %d columns, its panel's top %d, or lacks the right border: %q", i, w, width, row)
		}
	}
	if panels == 0 {
		t.Errorf("no bordered panel on screen:\n%s", screen)
	}
}
