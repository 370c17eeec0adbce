package ui

// This file turns the pacer's plans (ui/pace) into Cmds: the turns child
// asks it at every decision point, on the injected clock or the time a
// message brought, and the root draws when a plan says so (Model.tick).

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/ui/pace"
)

// plan asks the pacer what to do at now and returns its plan with the Cmds
// it asks for: the turn's next batch, a frame tick, the approval's wait
// tick. The caller draws when the plan says so.
func (ts *turns) plan(f pace.Facts, now time.Time) (pace.Plan, tea.Cmd) {
	f.Turn = ts.cur != nil
	pl := ts.pacer.Decide(f, now)
	var cmds []tea.Cmd
	if t := ts.cur; pl.Take && t != nil {
		cmds = append(cmds, waitBatch(t.gen, t.handle, pl.Hold)) // the stream's reader holds what comes meanwhile
	}
	if pl.Tick.Seq != 0 {
		cmds = append(cmds, ts.fs.frameTick(ts.gen, pl.Tick.Seq, pl.Tick.In))
	}
	if pl.WaitTick > 0 {
		cmds = append(cmds, tea.Tick(pl.WaitTick, func(t time.Time) tea.Msg { return waitTickMsg{t} }))
	}
	return pl, tea.Batch(cmds...)
}

// pace is plan for a decision that draws nothing.
func (ts *turns) pace(f pace.Facts, now time.Time) tea.Cmd {
	_, cmd := ts.plan(f, now)
	return cmd
}
