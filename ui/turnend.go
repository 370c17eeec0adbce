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

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/block"
)

// finish tells the turn engine how turn t ended, settling its retry
// notice: the engine records it in the conversation, or answers that it
// goes again (without what the server refused, or with the history), and
// then the Cmd that sends it is returned (nil otherwise).
func (ts *turns) finish(t *turn) tea.Cmd {
	switch {
	case t.stopped:
		ts.settleRetry(t, "stopped")
	case t.err != nil:
		ts.settleRetry(t, "failed") // the failure follows, with what to do
	default:
		ts.settleRetry(t, "the retry worked")
	}
	a := ts.next(session.Event{Kind: session.Ended, Conv: ts.conv, Turn: t.sess, Responses: t.snapshots(), Err: t.err, Stopped: t.stopped})
	if a.Kind != session.Resend {
		return nil
	}
	if a.InputChanged && t.log != nil {
		t.log.SetInput(t.sess.Input)
	}
	return ts.resend(t, a.Request)
}

// endNotices says how turn t ended when it went badly (see the function
// endNotices). A dropped stream — the connection broke, or the stream
// ended, before the answer finished — also offers its next step: a line
// with the keys that continue it and ask again, and, once per
// conversation, that background mode would have resumed it. The offer
// holds until something else is shown (offerShown, offered).
func (ts *turns) endNotices(t *turn, snaps []*stream.Snapshot, carried bool) []noticeMsg {
	out, dropped := endNotices(t, snaps, carried)
	ts.drop.offer = nil
	if !dropped {
		return out
	}
	ts.drop.offer = &dropOffer{conv: ts.conv, turn: t.sess, at: -1}
	offer := `enter sends "continue" · ctrl+t retries (/retry)`
	if carried {
		offer += " · any message you send carries the partial answer"
	}
	out = append(out, noticeMsg{block.Info, offer})
	if !t.req.Background && !ts.conv.Stateless && ts.drop.hinted != ts.conv {
		ts.drop.hinted = ts.conv
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

// offerShown records the transcript's length once the end notices of a
// turn are shown.
func (ts *turns) offerShown(n int) {
	if o := ts.drop.offer; o != nil && o.at < 0 {
		o.at = n
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
