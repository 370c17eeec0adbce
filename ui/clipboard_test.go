package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestCopyCmd(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("x", 1250)
	msgs := run((&clipboard{}).copy(text))
	if len(msgs) != 2 {
		t.Fatalf("CopyCmd gave %d messages: %#v", len(msgs), msgs)
	}
	// The first is Bubble Tea's own OSC 52 request for exactly this text.
	if want := tea.SetClipboard(text)(); msgs[0] != want {
		t.Errorf("first message = %#v; want tea.SetClipboard's", msgs[0])
	}
	if n, ok := msgs[1].(hintMsg); !ok || n.err || n.text != "sent 1.2 KB to the terminal's clipboard (OSC 52)" {
		t.Errorf("notice = %#v", msgs[1])
	}
	msgs = run((&clipboard{}).copy(""))
	if len(msgs) != 1 || msgs[0].(hintMsg).text != "nothing to copy" {
		t.Errorf("(&clipboard{}).copy(\"\") = %#v", msgs)
	}
}

func TestByteSize(t *testing.T) {
	t.Parallel()
	cases := map[int]string{0: "0 B", 340: "340 B", 1023: "1023 B", 1024: "1.0 KB", 1250: "1.2 KB", 20_000: "19 KB", 3 << 20: "3.0 MB", 50 << 20: "50 MB"}
	for n, want := range cases {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q; want %q", n, got, want)
		}
	}
}

// clipboardOf checks that msgs hold an OSC 52 request for exactly want.
func clipboardOf(t *testing.T, msgs []tea.Msg, want string) {
	t.Helper()
	for _, m := range msgs {
		if fmt.Sprintf("%T", m) == fmt.Sprintf("%T", tea.SetClipboard("")()) {
			if m != tea.SetClipboard(want)() {
				t.Errorf("clipboard = %+q; want %+q", fmt.Sprint(m), want)
			}
			return
		}
	}
	t.Errorf("no clipboard request in %#v", msgs)
}

// hostile holds every kind of sequence a model can send: ESC, BEL, CSI,
// OSC (clipboard and title), DCS, APC, PM, SOS, 8-bit C1 CSI and OSC, other
// C1, NUL, BS, lone CR, DEL, form feed, and the bidi and zero-width
// characters that show one text and paste another.
const hostile = "echo safe\x1b[201~\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;title\x1b\\\x07" +
	"\x1bPq#0\x1b\\\x1b_Gf=1\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\\u009b31m\u009d0;x\u009c\u0085" +
	"\x00b\bc\rEVIL\x7f\f\tend\r\n" +
	"rm\u202e -rf\u202c\u2066x\u2069\u200b\ufeff\u00ad\U000E0041\n"

// hostileCopied is what the screen shows of hostile, and so what is copied.
const hostileCopied = "echo safe" + "bcEVIL\tend\n" + "rm -rfx\n"

func TestCopyCmdCleans(t *testing.T) {
	t.Parallel()
	msgs := run((&clipboard{}).copy(hostile))
	clipboardOf(t, msgs, hostileCopied)
	if n, ok := msgs[1].(hintMsg); !ok || n.text != "sent 28 B to the terminal's clipboard (OSC 52)" {
		t.Errorf("notice = %#v", msgs[1])
	}
	if msgs := run((&clipboard{}).copy("\x1b[31m\u202e")); len(msgs) != 1 || msgs[0].(hintMsg).text != "nothing to copy" {
		t.Errorf("CopyCmd of controls only = %#v", msgs)
	}
}

// TestCopyAnswerCleans: ctrl+y and /copy N copy the last answer, or its
// code block, as the screen shows it: a code block that shows two harmless
// lines cannot end a shell's bracketed paste (ESC[201~) and run them.
func TestCopyAnswerCleans(t *testing.T) {
	t.Parallel()
	m := newTestModel(t, Options{})
	answer := "Run this:\n\n```sh\necho hello\x1b[201~\nrm -rf ~/tmp/x\u202e\n```\n\nand\n\n```\n" + hostile + "```\n"
	m.items.answers = append(m.items.answers, answer)
	view := "Run this:\n\n```sh\necho hello\nrm -rf ~/tmp/x\n```\n\nand\n\n```\n" + hostileCopied + "```\n"

	_, cmd := m.Update(tea.KeyPressMsg{Code: 'y', Mod: tea.ModCtrl})
	clipboardOf(t, run(cmd), view)
	clipboardOf(t, run(m.items.copyAnswer("1")), "echo hello\nrm -rf ~/tmp/x")
	clipboardOf(t, run(m.items.copyAnswer("2")), strings.TrimSuffix(hostileCopied, "\n"))
}

// TestCopyInsideTmux: inside tmux a copy asks tmux's set-clipboard (the
// question injected: never the machine's tmux) and says what happened:
// external and off drop it, with how to turn it on, and are asked again at
// the next copy; on gets through and is not asked again; a question that
// fails says it could not tell.
func TestCopyInsideTmux(t *testing.T) {
	t.Parallel()
	answers := []string{"external\n", "off\n", "on\n"}
	asked := 0
	c := &clipboard{tmux: true, query: func(ctx context.Context) (string, error) {
		if _, ok := ctx.Deadline(); !ok {
			t.Error("tmux is asked without a timeout")
		}
		asked++
		return answers[asked-1], nil
	}}
	notice := func() NoticeMsg {
		t.Helper()
		msgs := run(c.copy("hello"))
		clipboardOf(t, msgs, "hello")
		if h, ok := msgs[1].(hintMsg); ok { // a copy that got through: a hint, not a notice
			return NoticeMsg{Text: h.text, Err: h.err}
		}
		return msgs[1].(NoticeMsg)
	}
	for _, mode := range []string{"external", "off"} {
		n := notice()
		if !n.Err || !strings.HasPrefix(n.Text, "not copied: ") || !strings.Contains(n.Text, "(set-clipboard "+mode+")") ||
			!strings.Contains(n.Text, `run "tmux set -g set-clipboard on"`) || !strings.Contains(n.Text, "~/.tmux.conf") {
			t.Errorf("set-clipboard %s: %+v", mode, n)
		}
	}
	for range 2 {
		if n := notice(); n.Err || n.Text != "sent 5 B to the terminal's clipboard through tmux (OSC 52; set-clipboard on keeps it in tmux's paste buffer too)" {
			t.Errorf("set-clipboard on: %+v", n)
		}
	}
	if asked != 3 {
		t.Errorf("tmux was asked %d times, want 3 (not again once it said on)", asked)
	}

	c = &clipboard{tmux: true, query: func(context.Context) (string, error) { return "", errors.New("no server running\x1b[2J") }}
	if n := notice(); n.Err || !strings.HasPrefix(n.Text, "sent 5 B to the terminal's clipboard (OSC 52); inside tmux it gets through only with set-clipboard on") ||
		!strings.Contains(n.Text, "could not ask tmux: no server running)") {
		t.Errorf("a failed question: %+q", n.Text)
	}
	c = &clipboard{tmux: true, query: func(context.Context) (string, error) { return "maybe\x1b]0;x\x07", nil }}
	if n := notice(); strings.ContainsRune(n.Text, 0x1b) || !strings.Contains(n.Text, `could not ask tmux: set-clipboard is "maybe`) {
		t.Errorf("an odd answer: %+q", n.Text)
	}
	c = &clipboard{query: func(context.Context) (string, error) { t.Error("tmux asked outside tmux"); return "", nil }}
	if n := notice(); n.Text != "sent 5 B to the terminal's clipboard (OSC 52)" {
		t.Errorf("outside tmux: %+v", n)
	}
}
