package block

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"runnel/stream"
	"runnel/stream/costtest"
	"runnel/stream/streamtest"
)

// longParagraph is a stream of one paragraph of at least size bytes, in
// 64-byte deltas, with a line break every 80 bytes or so and no blank line:
// nothing settles until the end.
func longParagraph(size int) []byte {
	const line = "The stream keeps going with words and more words, never a blank line here.\n"
	var deltas []string
	var b strings.Builder
	for b.Len() < size {
		b.WriteString(line)
	}
	s := b.String()
	for i := 0; i < len(s); i += 64 {
		deltas = append(deltas, s[i:min(i+64, len(s))])
	}
	return streamtest.Text("resp_long", deltas...)
}

// printAll replays data through a Printer writing to io.Discard, as
// `replay --format ansi` does.
func printAll(tb testing.TB, data []byte) {
	p := NewPrinter(io.Discard, 100, testStyles)
	feed(p, data)
	if err := p.Err(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkPrintLongParagraph prints one 8 MB paragraph against one of
// 2 MB in the same run (issue 8 item 5: it was quadratic). Linear time
// gives x-8MB-vs-2MB ≈ 4; the goal is ≤ 5.
func BenchmarkPrintLongParagraph(b *testing.B) {
	small, big := longParagraph(2<<20), longParagraph(8<<20)
	var ts, tb time.Duration
	for b.Loop() {
		t0 := time.Now()
		printAll(b, small)
		ts += time.Since(t0)
		t1 := time.Now()
		printAll(b, big)
		tb += time.Since(t1)
	}
	b.ReportMetric(float64(tb)/float64(ts), "x-8MB-vs-2MB")
	b.ReportMetric(float64(ts)/float64(b.N)/1e6, "ms-2MB")
	b.ReportMetric(float64(tb)/float64(b.N)/1e6, "ms-8MB")
}

// TestPrintLongParagraphIsLinear guards what BenchmarkPrintLongParagraph
// measures: printing a 1 MB paragraph costs at most 20 times a 128 KB one
// (linear is 8, the quadratic it was 64), timed in the same run. Under
// -short the two are half as long (512 KB against 64 KB: each sample still
// runs tens of milliseconds, costtest repeats the smaller); the full run
// times the sizes above.
func TestPrintLongParagraphIsLinear(t *testing.T) {
	costtest.SkipIfRace(t)
	small, big := 128<<10, 1<<20
	if testing.Short() {
		small, big = small/2, big/2
	}
	printed := func(size int) costtest.Work {
		data := longParagraph(size)
		return costtest.Func(func() { printAll(t, data) })
	}
	costtest.AtMost(t, fmt.Sprintf("printing a %d KB paragraph, against %d KB", big>>10, small>>10), printed(small), printed(big), 20)
}

// feed replays a recorded stream through p, event by event, as the
// one-shot output does, and closes it.
func feed(p *Printer, data []byte) {
	var acc stream.Accumulator
	d := stream.NewDecoder(bytes.NewReader(data))
	for d.Next() {
		ev := d.Event()
		it, _ := acc.Apply(ev)
		if s := acc.Current(); s != nil {
			p.Event(ev, s, it)
			if ev.Kind.IsTerminal() {
				p.Response(s)
			}
		}
	}
	p.Close()
}
