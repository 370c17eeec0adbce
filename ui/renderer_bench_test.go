package ui

import (
	"io"
	"runtime"
	"testing"
	"time"

	"runnel/stream/costtest"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// BenchmarkRendererFrame is what Bubble Tea v2's renderer does with a view
// that changed (cursedRenderer.flush, v2.0.10 and v2.1.1, through
// ultraviolet's public API as it calls it): parse the whole view string
// into a cell buffer (uv.NewStyledString, Draw after a Clear) and diff every
// cell with the last frame (TerminalRenderer.Render, Flush), for the chat's
// frames of a 40 KB answer streamed at 200 deltas a second on a 120×40
// screen; against the chat's own View for the same frames, timed in the
// same run (x-view), each on the thread's CPU clock. A tea.View holds its
// content as a string only, and the renderer parses it before it compares
// it with the last, so no public API lets a program hand over less: these
// are the figures for README's Design section.
func BenchmarkRendererFrame(b *testing.B) {
	runtime.LockOSThread() // costtest.Now reads this thread's CPU time
	defer runtime.UnlockOSThread()
	m := newTestModel(b, Options{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	var views []string
	var viewTime time.Duration
	chatView = func(m *Model) {
		t := costtest.Now()
		v := m.View()
		viewTime += costtest.Since(t)
		views = append(views, v.Content)
	}
	defer func() { chatView = func(m *Model) { _ = m.View() } }()
	chatFrames(b, m, sseAnswer(realAnswers(b, 40<<10), 4), 200)
	perView := viewTime / time.Duration(len(views))

	scr := uv.NewTerminalRenderer(io.Discard, nil)
	scr.SetFullscreen(true)
	scr.Resize(120, 40)
	buf := uv.NewScreenBuffer(120, 40)
	var draw, diff time.Duration
	frames := 0
	for b.Loop() {
		for _, v := range views {
			t := costtest.Now()
			buf.Clear()
			uv.NewStyledString(v).Draw(buf, buf.Bounds())
			t1 := costtest.Now()
			scr.Render(buf.RenderBuffer)
			_ = scr.Flush()
			draw, diff = draw+t1-t, diff+costtest.Since(t1)
		}
		frames += len(views)
	}
	perFrame := (draw + diff) / time.Duration(frames)
	b.ReportMetric(float64(draw.Nanoseconds())/float64(frames), "ns/parse")
	b.ReportMetric(float64(diff.Nanoseconds())/float64(frames), "ns/diff")
	b.ReportMetric(float64(len(views)), "frames")
	b.ReportMetric(float64(perFrame.Nanoseconds()), "ns/renderer-frame")
	b.ReportMetric(float64(perView.Nanoseconds()), "ns/view")
	b.ReportMetric(float64(perFrame)/float64(perView), "x-view")
}
