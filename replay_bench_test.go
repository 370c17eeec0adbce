package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"runnel/stream/costtest"
)

// paragraphSSE is a stream of one message: one paragraph of n bytes of the
// kind (words, base64, url, cjk) in 16-byte deltas.
func paragraphSSE(kind string, n int) []byte {
	var text string
	if kind == "url" {
		text = "https://example.com/" + strings.Repeat("a1b2c3/", n/7)
	} else {
		text = paragraph(kind, n)
	}
	var b bytes.Buffer
	ev := func(m map[string]any) {
		j, _ := json.Marshal(m)
		b.WriteString("data: ")
		b.Write(j)
		b.WriteString("\n\n")
	}
	ev(map[string]any{"type": "response.created", "response": map[string]any{"id": "r", "status": "in_progress"}})
	for i := 0; i < len(text); i += 16 {
		ev(map[string]any{"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": text[i:min(i+16, len(text))]})
	}
	ev(map[string]any{"type": "response.completed", "response": map[string]any{"id": "r", "status": "completed"}})
	return b.Bytes()
}

// BenchmarkReplayANSILinear times `replay --format ansi` of one 8 MB
// paragraph against a 2 MB one of the same kind, in the same run, and
// reports the ratio (x-2MB-<kind>): linear is 4, the goal at most 5.
func BenchmarkReplayANSILinear(b *testing.B) {
	replay := func(data []byte) time.Duration {
		t0 := time.Now()
		o := options{format: "ansi", width: 100}
		if code := replayCommand(context.Background(), o, "-", bytes.NewReader(data), io.Discard, io.Discard); code != exitOK {
			b.Fatalf("replay exit %d", code)
		}
		return time.Since(t0)
	}
	for _, kind := range []string{"words", "base64", "url"} {
		small, big := paragraphSSE(kind, 2<<20), paragraphSSE(kind, 8<<20)
		var ts, tb time.Duration
		for range b.N {
			ts += replay(small)
			tb += replay(big)
		}
		b.ReportMetric(float64(tb)/float64(ts), "x-2MB-"+kind)
	}
}

// TestReplayANSIIsLinear: `replay --format ansi` of a 1 MB paragraph costs
// at most 20× a 128 KB one of the same kind (linear is 8×; the quadratic
// this guards against, a search for the line end from the start of the
// open line on every delta, is 64×), timed in the same run. (It compared
// 1 MB with 256 KB against 6.5×, and a machine at load 22 measured a URL
// at 9×: a big working set suffers most from the processes beside it.)
func TestReplayANSIIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a cost guard of 5 s (replays of 1 MB in four kinds)")
	}
	costtest.SkipIfRace(t)
	t.Parallel() // timed on the thread's CPU (costtest), which tests beside it do not stretch
	replay := func(data []byte) costtest.Work {
		return costtest.Func(func() {
			if code := replayCommand(context.Background(), options{format: "ansi", width: 100}, "-", bytes.NewReader(data), io.Discard, io.Discard); code != exitOK {
				t.Fatalf("replay exit %d", code)
			}
		})
	}
	for _, kind := range []string{"words", "base64", "url", "cjk"} {
		costtest.AtMost(t, kind+": replay of 1 MB, against 128 KB", replay(paragraphSSE(kind, 128<<10)), replay(paragraphSSE(kind, 1<<20)), 20)
	}
}
