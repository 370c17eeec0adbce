package stream

import (
	"errors"
	"unicode/utf8"

	"runnel/stream/httppolicy"
)

// This file is the accumulator's memory bound: how much text a response
// holds, and what happens when it would pass Accumulator.Limit.
//
// What counts is the text an item holds as values: message, refusal and
// reasoning parts, reasoning summaries, tool arguments and inputs, code,
// diffs, shell commands and output, tool output and errors, the newest
// partial image. Raw JSON copies of the same values (Item.Raw, Part.Raw,
// Snapshot.Raw) are not counted, so memory stays a small multiple of Limit
// (each event is bounded by the scanner's DefaultMaxEventSize besides).

// ErrLimit is what every *LimitError matches with errors.Is.
var ErrLimit = errors.New("response too large")

// LimitError says that a response's text reached the accumulator's Limit:
// the text up to the limit is kept, the response is marked Truncated and
// CutOff, and no later event is applied. A consumer should stop reading
// (cancel the stream) when Apply returns it.
type LimitError struct {
	Limit int // the limit, in bytes
}

func (e *LimitError) Error() string {
	return "the response passed " + FormatBytes(e.Limit) + " of text, the most runnel keeps of one response — reading stopped there"
}

// Is makes errors.Is(err, ErrLimit) true.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// FormatBytes writes n bytes for people: "512 bytes", "64 KiB", "32 MiB",
// "1.5 GiB" (httppolicy.FormatBytes).
func FormatBytes(n int) string { return httppolicy.FormatBytes(int64(n)) }

// deltaSize is how many bytes of held text a delta event adds (0 for other
// events, and for text the accumulator drops).
func (a *Accumulator) deltaSize(ev *Event) int {
	switch ev.Kind {
	case KindTextDelta, KindRefusalDelta, KindReasoningDelta, KindSummaryDelta:
		if a.DropText {
			return 0
		}
		return len(ev.Delta)
	case KindArgsDelta, KindMCPArgsDelta, KindCustomInputDelta, KindCodeDelta,
		KindPatchDiffDelta, KindShellCommandDelta:
		return len(ev.Delta)
	case KindShellOutputDelta:
		return len(ev.DeltaRaw)
	}
	return 0
}

// fitDelta shortens a delta event to room bytes, at a rune boundary; a
// delta that cannot be cut (raw JSON) is emptied.
func fitDelta(ev *Event, room int) {
	room = max(room, 0)
	if ev.DeltaRaw != nil {
		ev.DeltaRaw = nil
		return
	}
	if room >= len(ev.Delta) {
		return
	}
	for room > 0 && !utf8.RuneStart(ev.Delta[room]) {
		room--
	}
	ev.Delta = ev.Delta[:room]
}

// size is the text the item holds, as counted against the limit.
func (it *Item) size() int {
	n := len(it.Arguments) + len(it.Input) + len(it.Code) + len(it.Diff) +
		len(it.Output) + len(it.Error) + len(it.LastImage)
	for _, p := range it.Content {
		n += len(p.Text)
	}
	for _, p := range it.Summary {
		n += len(p.Text)
	}
	for _, c := range it.Commands {
		n += len(c)
	}
	return n + it.shellBytes
}

// recount sets the item's counted size and moves the snapshot's total by the
// difference.
func (s *Snapshot) recount(it *Item) {
	n := it.size()
	s.held += n - it.held
	it.held = n
}

// recountAll counts every item again (after a terminal merge replaced some).
func (s *Snapshot) recountAll() {
	s.held = s.unknownHeld
	for _, it := range s.Items {
		it.held = it.size()
		s.held += it.held
	}
}

// Held returns the bytes of text the item holds, as counted against the
// accumulator's Limit.
func (it *Item) Held() int { return it.held }
