package ui

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Frame-cost benchmark: one frame is what the root does per tick while an
// answer streams — Invalidate the live entry at the end, then View. The same
// frame runs on a 10-turn and a 1,000-turn transcript, interleaved in one
// loop so machine noise hits both alike; x-10turns is their ratio. A flat
// cost per frame means a ratio near 1.

const (
	benchWidth  = 100
	benchHeight = 40
)

// benchEntry is a settled entry with rendered-looking content: lines of
// about 90 cells wrapped in SGR sequences, as glamour output is after
// padding is trimmed. It caches per width like a real block.
type benchEntry struct {
	lines  int
	seed   int
	cacheW int
	cache  string
}

func (e *benchEntry) View(width int) string {
	if e.cacheW != width {
		e.cacheW, e.cache = width, benchText(e.seed, e.lines, width)
	}
	return e.cache
}

func (e *benchEntry) Live() bool { return false }

// benchLive is the streaming answer: its last line grows by a token each
// frame, a new line starts every eight frames, and after 80 lines it starts
// over at 40, so its height changes in both directions. Its own cost is the
// same for both transcripts.
type benchLive struct {
	done  []string // finished lines
	tail  strings.Builder
	frame int
	out   string
}

func newBenchLive() *benchLive {
	l := &benchLive{}
	for i := 0; i < 40; i++ {
		l.done = append(l.done, benchLine(i, benchWidth))
	}
	l.render()
	return l
}

func (l *benchLive) step() {
	l.frame++
	l.tail.WriteString(" token")
	if l.frame%8 == 0 {
		l.done = append(l.done, "\x1b[38;2;220;220;220m"+l.tail.String()+"\x1b[m")
		l.tail.Reset()
		if len(l.done) >= 80 {
			l.done = l.done[:40]
		}
	}
	l.render()
}

func (l *benchLive) render() {
	l.out = strings.Join(l.done, "\n") + "\n" + l.tail.String()
}

func (l *benchLive) View(int) string { return l.out }
func (l *benchLive) Live() bool      { return true }

// benchLine is one rendered-looking line of about width-10 cells.
func benchLine(seed, width int) string {
	words := []string{"stream", "the", "answer", "token", "render", "cache", "frame", "entry"}
	var b strings.Builder
	b.WriteString("\x1b[38;2;220;220;220m")
	n := 0
	for k := seed; n < width-10; k++ {
		w := words[k%len(words)]
		if k%5 == 0 {
			b.WriteString("\x1b[1m" + w + "\x1b[22m ")
		} else {
			b.WriteString(w + " ")
		}
		n += len(w) + 1
	}
	b.WriteString("\x1b[m")
	return b.String()
}

func benchText(seed, lines, width int) string {
	out := make([]string, lines)
	for i := range out {
		out[i] = benchLine(seed+i, width)
	}
	return strings.Join(out, "\n")
}

// benchTranscript builds turns of a 2-line prompt and a 40-line answer,
// then the streaming answer; middle scrolls to the middle of the history.
func benchTranscript(turns int, middle bool) (Transcript, *benchLive) {
	tr := NewTranscript(benchWidth, benchHeight)
	for i := 0; i < turns; i++ {
		tr.Append(&benchEntry{lines: 2, seed: 3 * i})
		tr.Append(&benchEntry{lines: 40, seed: 7 * i})
	}
	live := newBenchLive()
	tr.Append(live)
	if middle {
		tr, _ = tr.Update(press("home"))
		for i := 0; i < turns*43/2/(benchHeight-1); i++ {
			tr, _ = tr.Update(press("pgdown"))
		}
		if tr.Following() {
			panic("benchTranscript: middle view is at the bottom")
		}
	}
	return tr, live
}

var benchSink int

// frame is one tick: the live entry changes, the root invalidates it, and
// Bubble Tea calls View.
func frame(tr *Transcript, live *benchLive) {
	live.step()
	tr.Invalidate(tr.Len() - 1)
	benchSink += len(tr.View())
}

func BenchmarkFrameCost(b *testing.B) {
	for _, c := range []struct {
		name   string
		middle bool
	}{{"bottom", false}, {"middle", true}} {
		b.Run(c.name, func(b *testing.B) {
			small, smallLive := benchTranscript(10, c.middle)
			large, largeLive := benchTranscript(1000, c.middle)
			// Warm both so first-touch renders are not timed.
			for i := 0; i < 16; i++ {
				frame(&small, smallLive)
				frame(&large, largeLive)
			}
			// Frames run in alternating chunks; the medians of the chunk
			// times are robust to the bursts of a shared machine.
			const chunk = 32
			var small10, large1000 []time.Duration
			timed := func(tr *Transcript, live *benchLive, n int) time.Duration {
				t0 := time.Now()
				for j := 0; j < n; j++ {
					frame(tr, live)
				}
				return time.Since(t0) / time.Duration(n)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i += chunk {
				n := min(chunk, b.N-i)
				if i/chunk%2 == 0 {
					small10 = append(small10, timed(&small, smallLive, n))
					large1000 = append(large1000, timed(&large, largeLive, n))
				} else {
					large1000 = append(large1000, timed(&large, largeLive, n))
					small10 = append(small10, timed(&small, smallLive, n))
				}
			}
			dSmall, dLarge := median(small10), median(large1000)
			b.ReportMetric(float64(dSmall.Nanoseconds()), "ns/frame-10turns")
			b.ReportMetric(float64(dLarge.Nanoseconds()), "ns/frame-1000turns")
			b.ReportMetric(float64(dLarge)/float64(dSmall), "x-10turns")
		})
	}
}

func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// TestFrameCostFlat guards the benchmark's claim without timing: after every
// entry is made stale, one frame on a 1,000-turn transcript renders no more
// entries than on a 10-turn one (only those on screen).
func TestFrameCostFlat(t *testing.T) {
	t.Parallel()
	for _, middle := range []bool{false, true} {
		reads := map[int]int{}
		for _, turns := range []int{10, 1000} {
			tr, live := benchTranscript(turns, middle)
			frame(&tr, live)
			tr.InvalidateAll()
			for _, s := range tr.slots {
				if e, ok := s.e.(*benchEntry); ok {
					e.cacheW = 0
				}
			}
			frame(&tr, live)
			for _, s := range tr.slots {
				if e, ok := s.e.(*benchEntry); ok && e.cacheW != 0 {
					reads[turns]++
				}
			}
		}
		if reads[1000] > reads[10] || reads[10] > 3 {
			t.Errorf("middle=%v: a frame renders %d entries at 1,000 turns and %d at 10", middle, reads[1000], reads[10])
		}
	}
}
