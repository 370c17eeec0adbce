package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// TestReplayTextCleansAcrossDeltas: `replay --format text` and `markdown`
// print the answer as Sanitize cleans it whole, when the deltas split a flag
// between its two regional indicators and a Persian word around its ZWNJ,
// and they print no bidi or zero-width character.
func TestReplayTextCleansAcrossDeltas(t *testing.T) {
	deltas := []string{"flag \U0001F1EB", "\U0001F1F7 word ", "می", "\u200c", "خواهم ", "rtl\u202e", "x\u200b", " done"}
	want := "flag 🇫🇷 word می\u200cخواهم rtlx done"
	f := filepath.Join(t.TempDir(), "split.sse")
	if err := os.WriteFile(f, streamtest.Text("resp_1", deltas...), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "markdown"} {
		out, stderr, code := runnel(t, "", "replay", f, "--format", format)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		if strings.TrimSpace(out) != want {
			t.Errorf("%s: %+q, want %+q", format, out, want)
		}
	}
}
