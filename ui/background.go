package ui

// This file is the chat's side of background responses (background = true):
// the reconnect and poll notices, the fallback to foreground mode, and
// cancelling a stopped response on the server.

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/ui/block"
)

// cancelTimeout bounds the cancel request esc sends for a background
// response.
const cancelTimeout = 10 * time.Second

// retryText is the countdown line of a retry notice: a retry before the
// first byte, a background stream reconnecting, or a poll of a server that
// cannot resume streams.
func retryText(r *stream.RetryInfo) string {
	switch {
	case r.Resume:
		why := retryReason(r.Err)
		switch {
		case errors.Is(r.Err, stream.ErrIdleTimeout):
			why = "the stream went quiet"
		case r.Attempt == 1:
			why = "the stream dropped"
		}
		return fmt.Sprintf("%s — reconnecting %d/%d", why, r.Attempt, r.Max)
	case r.Poll:
		return fmt.Sprintf("%s — checking %d/%d", retryReason(r.Err), r.Attempt, r.Max)
	}
	return fmt.Sprintf("%s — retry %d of %d", retryReason(r.Err), r.Attempt, r.Max)
}

// foreground records that the server refused background mode: one line,
// and the rest of the session runs in foreground mode.
func (m *Model) foreground(t *turn, r *stream.RetryInfo) {
	t.req.Background = false
	m.conv.Settings.Background = false
	m.notice(block.Warning, "the server refused background mode ("+retryReason(r.Err)+") — this session goes on in foreground mode")
}

// cancelOnServer asks the server to stop t's response when it runs in
// background mode (it would go on running otherwise); nil when it does not
// or its id is not known yet. A failure is not shown: the turn already
// stopped here.
func (m *Model) cancelOnServer(t *turn) tea.Cmd {
	c := m.opts.Client
	s := t.acc.Current()
	if c == nil || !t.req.Background || s == nil || s.ID == "" || s.Terminal {
		return nil
	}
	id := s.ID
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), cancelTimeout)
		defer cancel()
		_ = c.CancelResponse(ctx, id)
		return nil
	}
}

// reattach picks up the background response the stored last turn was
// streaming when runnel was killed (see session.Conversation.Reattachable):
// the rest of its stream continues the saved answer in place, or, from a
// server that cannot resume streams, its final object completes it. The
// turn's record in the history is continued, not repeated.
func (m *Model) reattach() tea.Cmd {
	st := m.conv.Reattachable()
	c := m.opts.Client
	if st == nil || c == nil {
		return nil
	}
	m.gen++
	h := stream.Reattach(m.ctx, c, st.Background.ID, st.Background.After)
	req := st.Request
	req.Background = true // esc cancels it on the server
	t := &turn{gen: m.gen, sess: st, handle: h, started: m.now(), changed: map[*stream.Item]bool{}, req: req, waiting: true}
	t.acc.Limit = m.opts.responseLimit()
	t.acc.Continue(st.Responses)
	t.bgID, t.bgSeq, t.attach = st.Background.ID, st.Background.After, true
	if m.journal != nil {
		t.log = m.journal.Reattach(st)
	}
	m.cur = t
	m.status.State, m.status.Started, m.status.Detail = Waiting, t.started, ""
	return tea.Batch(waitBatch(t.gen, h, time.Time{}), m.scheduleFrame(false))
}

// endReattach settles a attach turn when its stream ends: an answer the
// server finished is no longer an interrupted turn; one that could not be
// picked up (the response expired, the server is gone) stays interrupted,
// so the next message still carries its prompt and partial answer.
func (t *turn) endReattach() {
	if s := t.acc.Current(); t.attach && s != nil && s.Terminal {
		t.sess.Stored = ""
	}
}

// reattaching reports whether stored turn t is the one reattach picks up.
func (m *Model) reattaching(t *session.Turn) bool {
	return m.opts.Client != nil && m.conv.Reattachable() == t
}

// noteBackground tracks the background response a batch moved, for the
// journal: a runnel killed now reattaches after bgSeq.
func (t *turn) noteBackground(ev *stream.Event) {
	if !t.req.Background {
		return
	}
	if ev.Response != nil && ev.Response.ID != "" {
		t.bgID = ev.Response.ID
	}
	if ev.HasSeq && ev.Seq > t.bgSeq {
		t.bgSeq = ev.Seq
	}
}

// resumeOutcome words how a reconnect or poll notice settles; other retry
// notices keep outcome.
func resumeOutcome(t *turn, outcome string) string {
	if !t.reconn {
		return outcome
	}
	switch outcome {
	case "the retry worked":
		if t.polling {
			return "the response ended"
		}
		return "reconnected"
	case "that retry failed too":
		return "that attempt failed too"
	case "the retry failed — see below":
		return "could not reconnect — see below"
	}
	return outcome
}
