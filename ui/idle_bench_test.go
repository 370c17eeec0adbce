package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// styled stands for the value Bubble Tea's renderer makes of a view on
// every tick (uv.NewStyledString: one allocation holding the text).
type styled struct{ text string }

// sink keeps the tick's work from being optimised away.
var sink int

// tickWork is what Bubble Tea v2's renderer does on each 60 Hz tick before
// it finds the view unchanged (cursedRenderer.flush, v2.0.10): it wraps the
// view's content in a styled string, counts its lines unless the view is on
// the alternate screen, and compares the view with the last one drawn. A
// chat that is idle sends no message, so its View is not called per tick.
func tickWork(v, last *tea.View) {
	s := &styled{text: v.Content}
	h := 0
	if !v.AltScreen {
		h = strings.Count(s.text, "\n") + 1
	}
	if v.Content == last.Content && v.AltScreen == last.AltScreen && v.MouseMode == last.MouseMode && v.ReportFocus == last.ReportFocus {
		h++
	}
	sink += h
}

// BenchmarkIdleTick is the per-tick work of the idle chat (after a short
// answer, its view as drawn, the same string tick after tick) as a ratio to
// a bare Bubble Tea program's tick ("bare\n" inline), timed in the same
// run, interleaved in spans of 10,000 ticks.
func BenchmarkIdleTick(b *testing.B) {
	m := newTestModel(b, Options{})
	chatFrames(b, m, sseAnswer(realAnswers(b, 2<<10), 4), 0)
	chat := m.View()
	chatLast := chat
	bare := tea.NewView("bare\n")
	bareLast := bare
	var tChat, tBare time.Duration
	const span = 10_000
	for b.Loop() {
		t := time.Now()
		for range span {
			tickWork(&bare, &bareLast)
		}
		tBare += time.Since(t)
		t = time.Now()
		for range span {
			tickWork(&chat, &chatLast)
		}
		tChat += time.Since(t)
	}
	n := float64(b.N) * span
	b.ReportMetric(float64(tChat.Nanoseconds())/n, "ns/chat-tick")
	b.ReportMetric(float64(tBare.Nanoseconds())/n, "ns/bare-tick")
	b.ReportMetric(float64(tChat)/float64(tBare), "x-bare")
}
