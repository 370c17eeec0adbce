package ui

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"runnel/stream/costtest"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// sink keeps the tick's work from being optimised away.
var sink int

// tickWork is what Bubble Tea v2's renderer does on each tick of its 60 Hz
// ticker before it finds the view unchanged and returns (cursedRenderer.flush,
// v2.0.10 and v2.1.1), through ultraviolet's public API as flush calls it:
// wrap the view's content in a styled string (uv.NewStyledString keeps the
// string, it parses nothing yet), count its lines unless the view is on the
// alternate screen (Height), and compare the view with the last one drawn
// (viewEquals: since v2.1.1 the program status by value, then the content
// string). The last view drawn holds the same string as long as no message
// came (Bubble Tea calls View only after an Update), so the compare finds
// the same bytes at the same address.
func tickWork(v, last *tea.View) {
	s := uv.NewStyledString(v.Content)
	h := 0
	if !v.AltScreen {
		h = s.Height()
	}
	a, b := v.ProgramStatus, last.ProgramStatus
	if (a == nil || b == nil) && a != b || a != nil && b != nil && *a != *b {
		return
	}
	if s.Text == last.Content && v.AltScreen == last.AltScreen && v.MouseMode == last.MouseMode &&
		v.ReportFocus == last.ReportFocus && v.WindowTitle == last.WindowTitle && (v.Cursor == nil) == (last.Cursor == nil) {
		h++
	}
	sink += h
}

// BenchmarkIdleTick is the per-tick work of the idle chat (120×40, after an
// answer that fills the screen: its view as drawn, the same string tick
// after tick) as a ratio to a bare Bubble Tea program's tick (a one-line
// view, inline, so its Height is counted) timed in the same run,
// interleaved in spans of a million ticks (tens of ms), each on the
// thread's CPU clock (x-bare). ns/copy-tick is the tick when the last view
// drawn holds an equal copy of the screen, not the same string: the
// compare reads every byte (what screenMemo saves). ns/view-tick is what one
// tick would cost if a message woke the chat for it: Update is not counted,
// only View and a compare that must read the whole new string; it is what
// TestIdleChatSendsNoMessage keeps off the idle chat. Against the 60 wake-ups
// a second the ticker costs a Go program, the work of an idle tick is
// nothing (README, Design).
func BenchmarkIdleTick(b *testing.B) {
	runtime.LockOSThread() // costtest.Now reads this thread's CPU time
	defer runtime.UnlockOSThread()
	m := newTestModel(b, Options{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	chatFrames(b, m, sseAnswer(realAnswers(b, 4<<10), 4), 0)
	chat := m.View()
	chatLast := chat
	copyLast := chat
	copyLast.Content = strings.Clone(chat.Content) // an equal view that is not the same string
	bare := tea.NewView("bare")
	bareLast := bare
	var tChat, tBare, tCopy, tView time.Duration
	const span, viewSpan = 1_000_000, 500
	for b.Loop() {
		t := costtest.Now()
		for range span {
			tickWork(&bare, &bareLast)
		}
		tBare += costtest.Since(t)
		t = costtest.Now()
		for range span {
			tickWork(&chat, &chatLast)
		}
		tChat += costtest.Since(t)
		t = costtest.Now()
		for range span / 10 {
			tickWork(&chat, &copyLast)
		}
		tCopy += costtest.Since(t)
		t = costtest.Now()
		for range viewSpan {
			v := m.View()
			tickWork(&v, &chatLast)
		}
		tView += costtest.Since(t)
	}
	n := float64(b.N) * span
	b.ReportMetric(float64(tChat.Nanoseconds())/n, "ns/chat-tick")
	b.ReportMetric(float64(tBare.Nanoseconds())/n, "ns/bare-tick")
	b.ReportMetric(float64(tCopy.Nanoseconds())/n*10, "ns/copy-tick")
	b.ReportMetric(float64(tView.Nanoseconds())/(float64(b.N)*viewSpan), "ns/view-tick")
	b.ReportMetric(float64(tChat)/float64(tBare), "x-bare")
}
