package ui

// This file is what each child does when a turn ends (Model.endTurn
// routes it): the conversation records it, the transcript settles its
// entries, and one notice says how it ended when it went badly.

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/block"
)

// finish records how turn t ended in the conversation, settling its retry
// notice; when the server lost the chain it sends the turn again instead
// and returns that Cmd (nil otherwise).
func (ts *turns) finish(t *turn) tea.Cmd {
	switch {
	case t.stopped:
		ts.settleRetry(t, "stopped")
	case t.err != nil:
		ts.settleRetry(t, "failed") // the failure follows, with what to do
	default:
		ts.settleRetry(t, "the retry worked")
	}
	if cmd := ts.fallback(t); cmd != nil {
		return cmd
	}
	ts.conv.Finish(t.sess, t.snapshots(), t.err, t.stopped)
	return nil
}

// endNotices says how turn t ended when it went badly: per response, a
// failure or an incomplete answer; then one line for the turn (stopped,
// broken, over a limit, cut off). carried: the next message carries the
// unfinished turn.
func endNotices(t *turn, snaps []*stream.Snapshot, carried bool) []noticeMsg {
	var out []noticeMsg
	failed := false // a failure was reported: a cut-off is part of it, not a second story
	for _, s := range snaps {
		switch {
		case (s.Status == "failed" || s.ErrorEvent) && contextFull(nil, s.Error):
			out = append(out, noticeMsg{block.Error, contextFullNotice})
			failed = true
		case s.Status == "failed" || s.ErrorEvent:
			msg := "the response failed"
			if s.Error != nil {
				msg += ": " + stream.SanitizeLine(strings.TrimPrefix(s.Error.Code+": "+s.Error.Message, ": "))
			}
			out = append(out, noticeMsg{block.Error, msg + " — the partial answer is kept above"})
			failed = true
		case s.Status == "incomplete":
			out = append(out, noticeMsg{block.Warning, stream.IncompleteText(s.IncompleteDetails)})
		}
	}
	var limitErr *stream.LimitError
	switch {
	case errors.As(t.err, &limitErr):
		out = append(out, noticeMsg{block.Warning, session.LimitNotice(limitErr) + carriedNote(carried)})
	case t.stopped && carried:
		out = append(out, noticeMsg{block.Info, "stopped — the partial answer is kept; your next message sends this prompt and the partial answer to the model with it"})
	case t.stopped:
		out = append(out, noticeMsg{block.Info, "stopped — the partial answer is kept; the next message continues from the last complete reply"})
	case t.err != nil && len(snaps) == 0 && contextFull(t.err, nil):
		out = append(out, noticeMsg{block.Error, contextFullNotice})
	case t.err != nil && len(snaps) == 0:
		out = append(out, noticeMsg{block.Error, stream.SanitizeLine(t.err.Error())})
	case failed:
	case t.err != nil:
		out = append(out, noticeMsg{block.Error, "stream broken: " + stream.SanitizeLine(t.err.Error()) + " — the partial answer is kept" + carriedNote(carried)})
	case len(snaps) > 0 && snaps[len(snaps)-1].CutOff:
		out = append(out, noticeMsg{block.Warning, stream.CutOffNote + " — the partial answer is kept" + carriedNote(carried)})
	}
	return out
}
