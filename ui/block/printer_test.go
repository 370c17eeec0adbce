package block

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"runnel/stream"
)

// printFixture replays a stream through a Printer the way the one-shot
// command does, with a fixed clock.
func printFixture(t *testing.T, data []byte, width int) string {
	t.Helper()
	return printFixtureEvery(t, data, width, tick)
}

// printFixtureEvery is printFixture with the clock moving step per event.
func printFixtureEvery(t *testing.T, data []byte, width int, step time.Duration) string {
	t.Helper()
	var out bytes.Buffer
	p := NewPrinter(&out, width, testStyles)
	now := epoch
	p.now = func() time.Time { return now }
	var acc stream.Accumulator
	d := stream.NewDecoder(bytes.NewReader(data))
	var last *stream.Snapshot
	for d.Next() {
		now = now.Add(step)
		ev := d.Event()
		it, _ := acc.Apply(ev)
		s := acc.Current()
		if s == nil {
			continue
		}
		if last != nil && s != last {
			p.Response(last)
		}
		last = s
		p.Event(ev, s, it)
		if ev.Kind.IsTerminal() {
			p.Response(s)
			last = nil
		}
	}
	acc.Finish()
	if last != nil {
		p.Response(last)
	}
	p.Close()
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestPrinterFixtures(t *testing.T) {
	cases := []struct {
		name   string
		panels map[string]int // header text → how many times it must appear
		text   []string       // answer text that must appear
	}{
		{"vercel__ai/openai-web-search-6-calls.sse", map[string]int{"web search": 0}, []string{"⌕ 2 searches · 21 sources · 1 page opened · 3 finds in pages", "Sources"}},
		{"vercel__ai/openai-mcp-tool-two-calls.sse", map[string]int{"dmcp: 2 tools": 1, "dmcp.web_search_exa": 2}, nil},
		{"vercel__ai/openai-code-interpreter-3-calls.sse", map[string]int{"code interpreter": 3}, nil},
		{"vercel__ai/openai-apply-patch-diff.sse", map[string]int{"apply patch shopping-checklist.md": 1}, []string{"+## Shopping Checklist"}},
		{"charmbracelet__fantasy/openai-gpt-4o-parallel-function-calls.sse", nil, nil},
		{"vercel__ai/openai-error-insufficient-quota.sse", nil, []string{"response failed", "insufficient_quota"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := fixture(t, c.name)
			out := printFixture(t, data, 80)
			checkFits(t, c.name, out, 80)
			checkSafe(t, c.name, out)
			vis := visible(out)
			for h, n := range c.panels {
				if got := countHeaders(vis, h); got != n {
					t.Errorf("panel %q printed %d times, want %d\n%s", h, got, n, vis)
				}
			}
			flat := strings.Join(strings.Fields(vis), " ")
			for _, s := range c.text {
				if !strings.Contains(flat, s) {
					t.Errorf("missing %q", s)
				}
			}
			// Every message's text is printed once, in order: check its
			// words appear in sequence.
			r := newReplayer(t, data).run()
			for _, b := range r.byType("message") {
				words := strings.Fields(stream.Sanitize(b.Item().Text()))
				checkWordsInOrder(t, flat, words)
			}
			for _, b := range r.order {
				if typ := b.Item().Type; typ == "function_call" {
					if got := countHeaders(vis, b.Item().Name); got < 1 {
						t.Errorf("function %s not printed", b.Item().Name)
					}
				}
			}
		})
	}
}

// countHeaders counts panel top edges that carry h.
func countHeaders(vis, h string) int {
	n := 0
	for _, row := range strings.Split(vis, "\n") {
		if strings.HasPrefix(row, "╭") && strings.Contains(row, " "+h+" ") {
			n++
		}
	}
	return n
}

// checkWordsInOrder checks that plain words of a message (markdown syntax
// aside) appear in flat in order.
func checkWordsInOrder(t *testing.T, flat string, words []string) {
	t.Helper()
	at, checked := 0, 0
	for _, w := range words {
		w = strings.Trim(w, "*_`#[]()|>-:.,;!?\"'")
		if len(w) < 4 || strings.ContainsAny(w, "*_`[]()|<>\\/=-") {
			continue
		}
		i := strings.Index(flat[at:], w)
		if i < 0 {
			t.Errorf("word %q (after %d checked) not printed in order", w, checked)
			return
		}
		at += i + len(w)
		checked++
	}
}

func TestPrinterInjection(t *testing.T) {
	out := printFixture(t, injectionStream(t), 80)
	checkNoInjection(t, "printer", out)
	checkFits(t, "printer", out, 80)
	for _, want := range []string{"Body", "response failed"} {
		if !strings.Contains(visible(out), want) {
			t.Errorf("missing %q in:\n%s", want, visible(out))
		}
	}
}
