package ui

// This file is what each child does when a turn ends (Model.endTurn
// routes it): the conversation records it, the transcript settles its
// entries, and one notice says how it ended when it went badly. A dropped
// stream offers its next step (keys to continue and to ask again) while
// its notices are the last thing shown.

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/block"
)

// turnEnd is how the turn in flight ended, for the root to route to the
// meter, the status line, the notifier, the transcript, the approvals and
// the tools (Model.endTurn).
type turnEnd struct {
	snaps   []*stream.Snapshot    // its responses
	usage   Usage                 // its token usage (turn.usage)
	failed  bool                  // the stream broke, or a response failed (turnFailed)
	stopped bool                  // the user stopped it
	ok      bool                  // neither stopped nor ended by an error: its calls run
	changed map[*stream.Item]bool // its items changed since the last frame
	notices []noticeMsg           // how it ended, when it went badly, and what a dropped stream offers
	prompt  string                // the conversation's first prompt, when this turn answered it well; else ""
}

// end ends the turn in flight: the turn engine is told how it ended (its
// retry notice settles) and records it in the conversation, or answers
// that it goes again (without what the server refused, or with the
// history), and then the Cmd that sends it is returned and the end is
// not. Else the end's facts are returned, with its notices: how it ended
// when it went badly (endNotices) and what a dropped stream offers.
func (ts *turns) end() (turnEnd, tea.Cmd) {
	t := ts.cur
	switch {
	case t.stopped:
		t.settleRetry("stopped", ts.fs)
	case t.err != nil:
		t.settleRetry("failed", ts.fs) // the failure follows, with what to do
	default:
		t.settleRetry("the retry worked", ts.fs)
	}
	a := ts.next(session.Event{Kind: session.Ended, Conv: ts.conv, Turn: t.sess, Responses: t.snapshots(), Err: t.err, Stopped: t.stopped})
	if a.Kind == session.Resend {
		if a.InputChanged && t.log != nil {
			t.log.SetInput(t.sess.Input)
		}
		return turnEnd{}, ts.resend(t, a.Request)
	}
	snaps := t.snapshots()
	e := turnEnd{snaps: snaps, usage: t.usage(), failed: turnFailed(t), stopped: t.stopped, ok: !t.stopped && t.err == nil, changed: t.changed}
	carried := ts.conv.Carried()
	notices, dropped := endNotices(t, snaps, carried)
	e.notices = append(notices, ts.drop.ended(ts.conv, t, dropped, carried)...)
	if e.ok && len(ts.conv.Turns) == 1 {
		e.prompt = t.sess.Prompt
	}
	return e, nil
}

// ended is what a dropped stream offers once turn t of conv ended
// (dropped: endNotices found that the connection broke, or the stream
// ended, before the answer finished; carried: the next message carries
// it): a line with the keys that continue it and ask again, and, once per
// conversation, that background mode would have resumed it. The offer
// holds until something else is shown (turns.endShown, turns.offered); a
// turn that did not drop takes back the offer before it.
func (d *dropState) ended(conv *session.Conversation, t *turn, dropped, carried bool) []noticeMsg {
	d.offer = nil
	if !dropped {
		return nil
	}
	d.offer = &dropOffer{conv: conv, turn: t.sess, at: -1}
	offer := `enter sends "continue" · ctrl+t retries (/retry)`
	if carried {
		offer += " · any message you send carries the partial answer"
	}
	out := []noticeMsg{{block.Info, offer}}
	if !t.req.Background && !conv.Stateless && d.hinted != conv {
		d.hinted = conv
		out = append(out, noticeMsg{block.Info, backgroundHint})
	}
	return out
}

// backgroundHint says, once per conversation, what would have kept a
// dropped stream.
const backgroundHint = "background = true in the config (or --background) would have resumed this stream where it broke"

// continuePrompt is what the Continue key sends after a dropped stream.
const continuePrompt = "continue"

// dropState is what the turns child keeps of dropped streams.
//
// Invariants: offer is nil, or names the conversation's last turn as it
// ended; hinted is the conversation told about background mode (nil: none
// yet), also set when the server refused background mode.
type dropState struct {
	offer  *dropOffer
	hinted *session.Conversation
}

// dropOffer is the next step a dropped stream offers: the Continue and
// Retry keys, while its notices are the last thing in the transcript.
type dropOffer struct {
	conv *session.Conversation
	turn *session.Turn // the turn that dropped
	at   int           // the transcript's length once its notices were shown; -1 before
}

// endShown records that the end of the turn in flight is shown, at now:
// the transcript is n long with its end notices, from where a dropped
// stream's keys hold while they are the last thing (offered), and the
// turn's record in the history ends.
func (ts *turns) endShown(n int, now time.Time) {
	if o := ts.drop.offer; o != nil && o.at < 0 {
		o.at = n
	}
	if t := ts.cur; t.log != nil {
		t.log.End(now, t.sess)
	}
}

// offered reports whether a dropped stream's keys apply: its notices are
// the last thing in the transcript (of length n), no turn runs, and its turn
// is still the conversation's last.
func (ts *turns) offered(n int) bool {
	o := ts.drop.offer
	return o != nil && o.at == n && ts.cur == nil && o.conv == ts.conv &&
		len(ts.conv.Turns) > 0 && ts.conv.Turns[len(ts.conv.Turns)-1] == o.turn
}

// endNotices says how turn t ended when it went badly: per response, a
// failure or an incomplete answer; then one line for the turn (stopped,
// broken, over a limit, cut off). carried: the next message carries the
// unfinished turn. dropped: the stream broke or ended before the answer
// finished (not stopped, failed or over a limit), so continuing or asking
// again may help; its line says the turn's tokens and cost are unknown, or
// count only the responses that finished (a response reports its usage at
// its end).
func endNotices(t *turn, snaps []*stream.Snapshot, carried bool) (out []noticeMsg, dropped bool) {
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
		if n := session.TierNotice(t.req.ServiceTier, s); n != "" { // the tier asked for was declined
			out = append(out, noticeMsg{block.Warning, n})
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
		// the offer that follows says how to try again
		why := strings.TrimSuffix(stream.SanitizeLine(t.err.Error()), " — try again")
		out = append(out, noticeMsg{block.Error, "stream broken: " + why + " — the partial answer is kept; " + usageNote(snaps)})
		dropped = true
	case len(snaps) > 0 && snaps[len(snaps)-1].CutOff:
		out = append(out, noticeMsg{block.Warning, stream.CutOffNote + " — the partial answer is kept; " + usageNote(snaps)})
		dropped = true
	}
	return out, dropped
}

// usageNote says what is known of a dropped turn's tokens and cost: a
// response reports its usage only when it finishes.
func usageNote(snaps []*stream.Snapshot) string {
	counted := 0
	for _, s := range snaps {
		if s.Usage != nil {
			counted++
		}
	}
	switch {
	case counted == 0:
		return "its tokens and cost are unknown" // a response reports them when it finishes
	case counted < len(snaps):
		return fmt.Sprintf("its tokens and cost count only the %s that finished", plural(counted, "response"))
	}
	return "its tokens and cost are counted"
}

// carriedNote says that the next message carries an unfinished turn.
func carriedNote(carried bool) string {
	if carried {
		return "; your next message sends it to the model with the prompt"
	}
	return ""
}
