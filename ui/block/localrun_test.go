package block

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"runnel/session/tools/toolrun"
	"runnel/stream"
)

// TestLocalRunTellsOneStory: a function call runnel runs shows its run's
// state in the header (waiting, running, then completed, failed, cancelled,
// denied, timed out), with one duration in the whole panel (the run's, none
// while it waits or when it never ran), and the body never contradicts it.
func TestLocalRunTellsOneStory(t *testing.T) {
	it := item(t, `{"type":"function_call","id":"fc_1","call_id":"c1","name":"slow_tool","arguments":"{\"n\":1}","status":"completed"}`)
	b := ForItem(it, epoch)
	b.Update(epoch.Add(400 * time.Millisecond)) // the model took 0.4s to write the call
	render := func(now time.Time) (header, body string) {
		vis := visible(b.Render(testCtx(70, now)))
		header, body, _ = strings.Cut(vis, "\n")
		if n := len(durationRE.FindAllString(vis, -1)); n > 1 {
			t.Errorf("%d durations in one panel:\n%s", n, vis)
		}
		return header, body
	}

	run := b.(RunHolder)
	run.SetRun(toolrun.Run{Phase: toolrun.RunWaiting})
	b.Update(epoch.Add(time.Second))
	if h, _ := render(epoch.Add(2 * time.Second)); !strings.Contains(h, "waiting") || durationRE.MatchString(h) || b.Live() {
		t.Errorf("waiting: %q (live %v)", h, b.Live())
	}

	start := epoch.Add(2 * time.Second)
	run.SetRun(toolrun.Run{Phase: toolrun.RunRunning, Started: start, Detail: "50% indexing"})
	b.Update(start)
	h, body := render(start.Add(1500 * time.Millisecond))
	if !strings.Contains(h, "running 1.5s") || !spinnerRE.MatchString(h) || !b.Live() || !strings.Contains(body, "local · 50% indexing") {
		t.Errorf("running: %q\n%s", h, body)
	}

	for _, c := range []struct {
		outcome toolrun.Status
		want    string
	}{
		{toolrun.StatusOK, "completed 3.0s"}, {toolrun.StatusFailed, "failed 3.0s"}, {toolrun.StatusCancelled, "cancelled 3.0s"},
		{toolrun.StatusTimedOut, "timed out 3.0s"}, {toolrun.StatusInterrupted, "interrupted 3.0s"},
		{toolrun.StatusUnrecorded, "outcome unknown 3.0s"},
	} {
		run.SetRun(toolrun.Run{Phase: toolrun.RunEnded, Outcome: c.outcome, Started: start, Took: 3 * time.Second})
		b.Update(start.Add(3 * time.Second))
		h, body := render(start.Add(time.Minute))
		if !strings.Contains(h, c.want) || (c.outcome != toolrun.StatusOK && strings.Contains(h, "completed")) || b.Live() {
			t.Errorf("%s: header %q", c.outcome, h)
		}
		for _, w := range []string{"completed", "local", "running"} {
			if strings.Contains(body, w) {
				t.Errorf("%s: the body says %q:\n%s", c.outcome, w, body)
			}
		}
	}

	run.SetRun(toolrun.Run{Phase: toolrun.RunEnded, Outcome: toolrun.StatusDenied})
	b.Update(start)
	if h, _ := render(start.Add(time.Minute)); !strings.Contains(h, "denied") || durationRE.MatchString(h) {
		t.Errorf("denied (never ran): %q", h)
	}
}

// TestHostedCallKeepsItsOwnClock: a call runnel does not run keeps the
// header from its item, with the time it streamed.
func TestHostedCallKeepsItsOwnClock(t *testing.T) {
	it := item(t, `{"type":"function_call","id":"fc_1","call_id":"c1","name":"remote","arguments":"{}","status":"completed"}`)
	b := ForItem(it, epoch)
	b.Update(epoch.Add(700 * time.Millisecond))
	vis := visible(b.Render(testCtx(70, epoch.Add(time.Minute))))
	if h, _, _ := strings.Cut(vis, "\n"); !strings.Contains(h, "completed") {
		t.Errorf("header %q", h)
	}
}

// TestPrinterHoldsCallsUntilRun: --format ansi prints a function call's
// panel once runnel ran it, its header saying how the run ended; a call
// that was never run is printed when the output closes.
func TestPrinterHoldsCallsUntilRun(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, 70, testStyles)
	p.now = func() time.Time { return epoch }
	s := &stream.Snapshot{ID: "resp_1", Status: "completed", Terminal: true}
	a := item(t, `{"type":"function_call","id":"fc_1","call_id":"c1","name":"tool_a","arguments":"{}","status":"completed"}`)
	b := item(t, `{"type":"function_call","id":"fc_2","call_id":"c2","name":"tool_b","arguments":"{}","status":"completed"}`)
	b.Index = 1
	s.Items = []*stream.Item{a, b}
	p.Event(&stream.Event{}, s, a)
	p.Event(&stream.Event{}, s, b)
	p.Response(s)
	if strings.Contains(out.String(), "tool_") {
		t.Fatalf("printed before the run:\n%s", out.String())
	}
	p.Ran(a, toolrun.Run{Phase: toolrun.RunEnded, Outcome: toolrun.StatusFailed, Took: 2 * time.Second})
	header, _, _ := strings.Cut(strings.TrimLeft(visible(out.String()), "\n"), "\n")
	if !strings.Contains(header, "tool_a") || !strings.Contains(header, "failed 2.0s") {
		t.Errorf("panel after the run: %q", header)
	}
	p.Close()
	if v := visible(out.String()); !strings.Contains(v, "tool_b") || strings.Count(v, "tool_a") != 1 {
		t.Errorf("after close:\n%s", v)
	}
}
