package ui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
)

// NoticeMsg is a one-line message for the user from a child or a Cmd:
// "copied 1.2 KB to the clipboard", a bad slash command, an editor failure.
// The root shows it in one place. Err marks a failure.
type NoticeMsg struct {
	Text string
	Err  bool
}

// notify returns a Cmd that delivers a NoticeMsg.
func notify(isErr bool, text string) tea.Cmd {
	return func() tea.Msg { return NoticeMsg{Text: text, Err: isErr} }
}

// CopyCmd copies text to the system clipboard with OSC 52 (through Bubble
// Tea's output, so it works over ssh and in tmux with set-clipboard on) and
// confirms with a NoticeMsg. Terminals without OSC 52 ignore the sequence;
// there is no way to tell, so the notice says what was sent.
//
// The text is cleaned as the screen cleans it (stream.Sanitize): what is
// pasted later is what was shown, never an escape sequence (ESC[201~ would
// end a shell's bracketed paste and run the lines that follow), a control
// other than newline and tab, a lone CR, or a bidi control or zero-width
// character that shows one text and pastes another.
func CopyCmd(text string) tea.Cmd {
	text = stream.Sanitize(text)
	if text == "" {
		return notify(false, "nothing to copy")
	}
	return tea.Batch(tea.SetClipboard(text), notify(false, "copied "+byteSize(len(text))+" to the clipboard"))
}

// byteSize formats n bytes: "340 B", "1.2 KB", "12 KB", "3.4 MB".
func byteSize(n int) string {
	switch {
	case n < 1024:
		return strconv.Itoa(n) + " B"
	case n < 1024*1024:
		return scaled(n, 1024) + " KB"
	default:
		return scaled(n, 1024*1024) + " MB"
	}
}

// scaled is n/unit with one decimal below 10 and none above.
func scaled(n, unit int) string {
	if n < 10*unit {
		return strconv.FormatFloat(float64(n)/float64(unit), 'f', 1, 64)
	}
	return strconv.Itoa(n / unit)
}
