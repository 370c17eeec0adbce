package block

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream/sharedtest"
)

// TestServerStreamsShowEachItemOnce replays every stream of fixtures/servers
// (vLLM, llama.cpp, Ollama, a gateway, transformers, new OpenAI ones) the
// way the transcript does and checks what the screen shows: one block per
// item the server produced, and each answer's text once. (vLLM's part at
// content_index 1 printed "HELLOHELLO"; llama.cpp's repeated items showed
// twice.)
func TestServerStreamsShowEachItemOnce(t *testing.T) {
	dir := sharedtest.Path(t, "fixtures", "servers")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.sse"))
	if len(files) < 18 {
		t.Fatalf("found %d server streams", len(files))
	}
	for _, path := range files {
		rel, _ := filepath.Rel(dir, path)
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := expectedItems(t, filepath.Join(dir, "expected", strings.TrimSuffix(rel, ".sse")+".jsonl"))
			r := newReplayer(t, data).run()
			if len(r.order) != len(want) {
				t.Fatalf("%d blocks, want %d (one per item)", len(r.order), len(want))
			}
			var screen strings.Builder
			for i, b := range r.order {
				if b.Item().Type != want[i].Type {
					t.Errorf("block %d is a %s, want %s", i, b.Item().Type, want[i].Type)
				}
				screen.WriteString(ansi.Strip(b.Render(r.ctx(400))))
				screen.WriteString("\n")
			}
			shown := squash(screen.String())
			for _, w := range want {
				if w.Type != "message" || strings.TrimSpace(w.Text) == "" {
					continue
				}
				probe := squash(w.Text)
				probe = probe[:min(len(probe), 40)]
				if n := strings.Count(shown, probe); n != 1 {
					t.Errorf("the answer's start %q is on screen %d times, want once", probe, n)
				}
			}
		})
	}
}

type wantItem struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// expectedItems reads the items of the expected summaries (every response's).
func expectedItems(t *testing.T, path string) []wantItem {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []wantItem
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r struct {
			Output []wantItem `json:"output"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r.Output...)
	}
	return out
}

// squash keeps only letters and digits, so markdown styling and wrapping
// do not matter.
func squash(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}
