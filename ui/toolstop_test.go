package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestEscStopsToolsStatusAndPanelAgree: esc during a running local tool
// drops the tool's name from the status line at once ("stopping"), the
// status line is ready once the runner reports the round over, and the
// call's panel header says cancelled, as its body does.
func TestEscStopsToolsStatusAndPanelAgree(t *testing.T) {
	t.Parallel()
	m, d, _, _ := atSlowToolApproval(t)
	d.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	d.until("the printed line", func() bool {
		it := m.tools.round.calls["call_1"]
		return it != nil && strings.Contains(string(it.Output), "printed-before-kill")
	})
	it := m.tools.round.calls["call_1"]
	if st := statusLine(plain(m)); !strings.Contains(st, "running tool") || !strings.Contains(st, "slow_tool") {
		t.Fatalf("status while the tool runs:\n%s", st)
	}
	d.send(tea.KeyPressMsg{Code: tea.KeyEscape})
	if st := statusLine(plain(m)); strings.Contains(st, "slow_tool") || !strings.Contains(st, "stopping") {
		t.Errorf("status right after esc:\n%s", st)
	}
	d.until("the round to end", func() bool { return !m.tools.busy() })
	header := func(screen string) string {
		for _, l := range strings.Split(screen, "\n") {
			if strings.Contains(l, "╭") && strings.Contains(l, "slow_tool") {
				return l
			}
		}
		return ""
	}
	d.until("the panel redrawn", func() bool { return !strings.Contains(header(plain(m)), "running") })
	screen := plain(m)
	if st := statusLine(screen); !strings.Contains(st, "ready") || strings.Contains(st, "slow_tool") || strings.Contains(st, "stopping") {
		t.Errorf("status after the round ended:\n%s", st)
	}
	if r, ok := m.tools.round.runs[it.CallID]; !ok || r.State() != "cancelled" {
		t.Errorf("run %+v, want cancelled", r)
	}
	if h := header(screen); !strings.Contains(h, "cancelled") || strings.Contains(h, "completed") {
		t.Errorf("panel header %q does not say cancelled:\n%s", h, screen)
	}
}
