package ui

import (
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestCopyCmd(t *testing.T) {
	text := strings.Repeat("x", 1250)
	msgs := run(CopyCmd(text))
	if len(msgs) != 2 {
		t.Fatalf("CopyCmd gave %d messages: %#v", len(msgs), msgs)
	}
	// The first is Bubble Tea's own OSC 52 request for exactly this text.
	if want := tea.SetClipboard(text)(); !reflect.DeepEqual(msgs[0], want) {
		t.Errorf("first message = %#v; want tea.SetClipboard's", msgs[0])
	}
	if n, ok := msgs[1].(NoticeMsg); !ok || n.Err || n.Text != "copied 1.2 KB to the clipboard" {
		t.Errorf("notice = %#v", msgs[1])
	}
	msgs = run(CopyCmd(""))
	if len(msgs) != 1 || msgs[0].(NoticeMsg).Text != "nothing to copy" {
		t.Errorf("CopyCmd(\"\") = %#v", msgs)
	}
}

func TestByteSize(t *testing.T) {
	cases := map[int]string{0: "0 B", 340: "340 B", 1023: "1023 B", 1024: "1.0 KB", 1250: "1.2 KB", 20_000: "19 KB", 3 << 20: "3.0 MB", 50 << 20: "50 MB"}
	for n, want := range cases {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q; want %q", n, got, want)
		}
	}
}
