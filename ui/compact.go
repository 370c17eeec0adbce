package ui

// This file is /compact and what the chat says about a full context: the
// command calls POST /responses/compact off the Update loop, and on success
// the conversation continues from the compacted window. The transcript
// above stays as it is (and searchable); a "context compacted" panel and a
// divider mark where the model's context now starts.

import (
	"errors"

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

// errCompactStopped is the cause of a /compact stopped with esc.
var errCompactStopped = errors.New("compaction stopped")

// compacted takes the answer of /compact: the conversation goes on from
// the window (true: the root shows where it starts), or from where it was
// when the call failed, with one notice.
func (ts *turns) compacted(msg compactMsg) bool {
	ts.compacting = nil
	ts.fs.post(didMsg{what: hapSettled})
	switch {
	case errors.Is(msg.err, errCompactStopped):
		ts.say(block.Info, "compaction stopped — the conversation goes on as before")
		return false
	case errors.Is(msg.err, stream.ErrCompactUnsupported):
		ts.say(block.Warning, "this server has no /responses/compact — nothing was compacted; the conversation goes on as before")
		return false
	case msg.err != nil:
		ts.say(block.Error, "compaction failed: "+stream.SanitizeLine(msg.err.Error())+" — the conversation goes on as before")
		return false
	}
	ts.conv.Compacted(msg.res)
	return true
}

// contextFull reports whether a turn's error or a failed response's error
// says the context window is full.
func contextFull(err error, info *stream.ErrorInfo) bool {
	return stream.ContextLengthExceeded(err, info)
}
