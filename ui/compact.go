package ui

// This file is /compact and what the chat says about a full context: the
// command calls POST /responses/compact off the Update loop, and on success
// the conversation continues from the compacted window. The transcript
// above stays as it is (and searchable); a "context compacted" panel and a
// divider mark where the model's context now starts.

import (
	"encoding/json"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
	"runnel/ui/block"
)

// compactMsg is the answer of a /compact call.
type compactMsg struct {
	res *stream.CompactResult
	err error
}

// contextFullNotice is the one line for a conversation that no longer fits
// the model's context window.
const contextFullNotice = "the conversation no longer fits the model's context window — /compact shrinks it (the transcript stays here), or /new starts over"

// compactDivider labels the rule under the compaction panel.
const compactDivider = "the model's context starts here · earlier turns stay above, searchable"

// errCompactStopped is the cause of a /compact stopped with esc.
var errCompactStopped = errors.New("compaction stopped")

// compacted takes the answer: the conversation goes on from the window, or
// from where it was when the call failed.
func (m *Model) compacted(msg compactMsg) tea.Cmd {
	m.compacting = nil
	m.status.State, m.status.Detail = Idle, ""
	switch {
	case errors.Is(msg.err, errCompactStopped):
		m.notice(block.Info, "compaction stopped — the conversation goes on as before")
		return nil
	case errors.Is(msg.err, stream.ErrCompactUnsupported):
		m.notice(block.Warning, "this server has no /responses/compact — nothing was compacted; the conversation goes on as before")
		return nil
	case msg.err != nil:
		m.notice(block.Error, "compaction failed: "+stream.SanitizeLine(msg.err.Error())+" — the conversation goes on as before")
		return nil
	}
	m.conv.Compacted(msg.res)
	now := m.now()
	it := compactionItem(msg.res.Output)
	e := m.addItem(it, now)
	if ib, ok := e.b.(block.ItemBlock); ok {
		ib.End(now)
	}
	if c, ok := e.b.(block.Compaction); ok && msg.res.Usage != nil {
		c.SetTokens(msg.res.Usage.InputTokens, msg.res.Usage.OutputTokens)
	}
	m.appendEntry(&plainEntry{b: block.NewDivider(compactDivider), fs: m.frame})
	m.transcript.Follow()
	return nil
}

// compactionItem is the window's newest compaction item, for its panel; a
// window without one gets a bare compaction item.
func compactionItem(window []json.RawMessage) *stream.Item {
	for i := len(window) - 1; i >= 0; i-- {
		if it, err := stream.ItemFromJSON(window[i]); err == nil && it.Type == "compaction" {
			return it
		}
	}
	return stream.StoredItem(json.RawMessage(`{"type":"compaction","status":"completed"}`))
}

// contextFull reports whether a turn's error or a failed response's error
// says the context window is full.
func contextFull(err error, info *stream.ErrorInfo) bool {
	return stream.ContextLengthExceeded(err, info)
}

// compactionMarks draws, when a saved session is shown again, the panel and
// divider of each /compact: a turn whose input holds a compaction item sent
// a compacted window. A window sent again (its first turn failed) is marked
// once.
type compactionMarks struct{ last string }

func (w *compactionMarks) mark(m *Model, input []json.RawMessage, now time.Time) {
	var it *stream.Item
	for _, raw := range input {
		if c := stream.StoredItem(raw); c != nil && c.Type == "compaction" {
			it = c
		}
	}
	if it == nil || (it.ID != "" && it.ID == w.last) {
		return
	}
	w.last = it.ID
	e := m.addItem(it, now)
	if ib, ok := e.b.(block.ItemBlock); ok {
		ib.End(now)
	}
	m.appendEntry(&plainEntry{b: block.NewDivider(compactDivider), fs: m.frame})
}
