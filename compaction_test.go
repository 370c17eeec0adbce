package main

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream/sharedtest"
)

// TestReplayCompactionPanel: `runnel replay` of the recorded compaction
// stream (real2) shows the answer and then the "context compacted" panel
// with the context's size before, from the response's usage; the text
// format names it in one line; neither shows the encrypted content.
func TestReplayCompactionPanel(t *testing.T) {
	f := sharedtest.Path(t, "fixtures", "real2", "vercel__ai", "openai-compaction.sse")
	out, stderr, code := runnel(t, "", "replay", f, "--format", "ansi", "--width", "80")
	plain := ansi.Strip(out)
	if code != 0 || !strings.Contains(plain, "≡ context compacted") || !strings.Contains(plain, "51,097 tokens before") {
		t.Fatalf("exit %d, stderr %q, tail:\n%s", code, stderr, plain[max(0, len(plain)-800):])
	}
	if strings.Index(plain, "Testing strategies") > strings.Index(plain, "context compacted") {
		t.Error("the panel comes before the answer")
	}
	out, stderr, _ = runnel(t, "", "replay", f, "--format", "text")
	if !strings.Contains(out+stderr, "• context compacted") {
		t.Errorf("text format: %q", stderr)
	}
	if strings.Contains(plain+out+stderr, "gAAAAA") {
		t.Error("the encrypted content is shown")
	}
}
