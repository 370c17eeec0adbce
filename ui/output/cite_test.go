package output

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"runnel/stream"
	"runnel/stream/sharedtest"
)

// replayText plays a recorded stream through the text or markdown format
// as the one-shot does (an accumulator that keeps no delta text).
func replayText(t *testing.T, data []byte, format string) string {
	t.Helper()
	var out bytes.Buffer
	p := formatPrinter(format, &out, io.Discard, 100, nil)
	dec := stream.NewDecoder(bytes.NewReader(data))
	acc := &stream.Accumulator{DropText: true}
	ended := map[*stream.Snapshot]bool{}
	for dec.Next() {
		ev := dec.Event()
		it, err := acc.Apply(ev)
		if err != nil {
			continue
		}
		p.Event(ev, acc.Current(), it)
		for _, r := range acc.Responses() {
			if r.Terminal && !ended[r] {
				ended[r] = true
				p.Response(r)
			}
		}
	}
	acc.Finish()
	for _, r := range acc.Responses() {
		if !ended[r] {
			p.Response(r)
		}
	}
	p.Close()
	return out.String()
}

// TestPlainOutputCitesAsTheChatDoes: replayed as text and as markdown, a
// real web-search answer keeps no tracking parameter, its cited links
// become the chat's numbered markers, it ends with one Sources list of the
// seven pages, and the six searches are one line.
func TestPlainOutputCitesAsTheChatDoes(t *testing.T) {
	data := sharedtest.ReadReal(t, "vercel__ai/openai-web-search-6-calls.sse")
	for _, c := range []struct{ format, marker, seventh string }{
		{"text", "security lapse. [1]", `(?m)^\[7\] AI coding startup Vercel`},
		{"markdown", `security lapse. \[1\]`, `(?m)^7\. AI coding startup Vercel`},
	} {
		out := replayText(t, data, c.format)
		if strings.Contains(out, "utm_") {
			t.Errorf("%s: a tracking parameter is left:\n%s", c.format, out)
		}
		if !strings.Contains(out, c.marker) || strings.Contains(out, "([techcrunch.com](") {
			t.Errorf("%s: the cited link is not replaced by its marker:\n%s", c.format, out)
		}
		if n := strings.Count(out, "\nSources\n"); n != 1 || !regexp.MustCompile(c.seventh).MatchString(out) {
			t.Errorf("%s: %d Sources lists, or the seventh source missing:\n%s", c.format, n, out)
		}
		if c.format == "text" && (strings.Count(out, "Web search") != 1 || !strings.Contains(out, "• Web search ×6: tech news today December 5 2025 · ")) {
			t.Errorf("text: the six searches are not one line:\n%s", out)
		}
	}
}
