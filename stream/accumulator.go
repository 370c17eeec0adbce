package stream

import (
	"fmt"
	"strings"
)

// Accumulator folds events into response snapshots. It is a state machine
// without I/O: feed it events in stream order with Apply, and call Finish when
// the stream ends.
//
// Memory: each response's text is counted (see limit.go) and bounded by
// Limit; with DropText, the text of messages and reasoning that arrives as
// deltas is not kept at all, for consumers that print it as it passes.
//
// Invariants:
//   - responses holds one Snapshot per response seen, in stream order; the
//     last one is the one events apply to.
//   - An event whose sequence_number its response has already delivered is a
//     duplicate and changes nothing.
//   - Every snapshot's held text is at most Limit (when Limit > 0), except
//     by the values of one non-delta event. Once a response reached Limit,
//     over is set and no event is applied any more.
type Accumulator struct {
	// Limit is the most text, in bytes, one response may hold; 0 means no
	// limit. The event that would pass it is cut to fit (Apply shortens its
	// Delta, so the event says what was kept), the response is marked
	// Truncated and CutOff, Apply returns a *LimitError, and every later
	// event is ignored: the consumer should stop reading.
	Limit int
	// DropText makes the accumulator keep no message, refusal or reasoning
	// text that arrives as deltas (whole values from .done events, items and
	// terminal responses are still kept). For consumers that print deltas as
	// they pass (Event.Delta) and need no snapshot of the text: memory then
	// does not grow with the answer.
	DropText bool

	responses []*Snapshot
	over      *LimitError // set when a response reached Limit
}

// LimitErr returns the *LimitError Apply returned, or nil while no response
// has reached Limit.
func (a *Accumulator) LimitErr() *LimitError { return a.over }

// stop marks s as cut at the limit; no event is applied after it.
func (a *Accumulator) stop(s *Snapshot) *LimitError {
	s.Truncated = true
	if !s.Terminal {
		s.CutOff = true
	}
	a.over = &LimitError{Limit: a.Limit}
	return a.over
}

// Responses returns every response seen so far, in stream order.
func (a *Accumulator) Responses() []*Snapshot { return a.responses }

// Current returns the response events currently apply to, or nil.
func (a *Accumulator) Current() *Snapshot {
	if len(a.responses) == 0 {
		return nil
	}
	return a.responses[len(a.responses)-1]
}

// Finish marks the current response as cut off if it never got a terminal
// event.
func (a *Accumulator) Finish() {
	if s := a.Current(); s != nil && !s.Terminal {
		s.CutOff = true
	}
}

func (a *Accumulator) newSnapshot() *Snapshot {
	s := &Snapshot{}
	a.responses = append(a.responses, s)
	return s
}

// target picks (or starts) the snapshot an event belongs to, and reports
// whether the event is a duplicate.
func (a *Accumulator) target(ev *Event) (s *Snapshot, dup bool) {
	cur := a.Current()
	switch {
	case cur == nil:
		return a.newSnapshot(), false
	case ev.Kind == KindCreated && cur.implicit():
		// events came before the response object: they are this
		// response's, not a response of their own
		return cur, false
	case ev.Kind == KindCreated && cur.started:
		if ev.HasSeq && cur.seen.has(ev.Seq) && ev.Response != nil && ev.Response.ID == cur.ID {
			return cur, true
		}
		return a.newSnapshot(), false
	}
	if ev.HasSeq && cur.seen.has(ev.Seq) {
		return cur, true
	}
	if cur.Terminal && (ev.Kind == KindCreated || ev.Kind == KindQueued || ev.Kind == KindInProgress || ev.Kind == KindItemAdded) {
		return a.newSnapshot(), false
	}
	if cur.Terminal && ev.Kind.IsDelta() && !cur.names(ev) {
		// text for an item the finished response does not have: the
		// next response's, arriving before its response object
		return a.newSnapshot(), false
	}
	return cur, false
}

// implicit reports whether s was started by item events that came before
// any response object: the response.created that follows is its own.
func (s *Snapshot) implicit() bool {
	return !s.Echoed && !s.Terminal && s.ID == ""
}

// Apply folds one event in. It returns the item the event changed (nil for
// response-level events) and a non-nil error when the event was malformed or
// out of range; such an event changes nothing and the stream goes on. When
// the response reaches Limit it returns a *LimitError (once; the item is
// returned with it) and ignores every later event.
//
// A delta event leaves Apply saying what it added: its Delta is cut to the
// text that was new (empty when it repeated text its item was announced
// with), so a printer that writes deltas as they pass writes what the
// snapshot holds, each text once.
func (a *Accumulator) Apply(ev *Event) (*Item, error) {
	switch ev.Kind {
	case KindInvalid:
		return nil, ev.Err
	case KindDone, KindAudio:
		return nil, nil // audio: the sound is not kept (its transcript is text)
	}
	if a.over != nil {
		return nil, nil // reading stopped at the limit
	}
	s, dup := a.target(ev)
	if dup {
		return nil, nil
	}
	var limitErr *LimitError
	add := a.deltaSize(ev)
	if a.Limit > 0 && add > 0 && s.held+add > a.Limit {
		fitDelta(ev, a.Limit-s.held)
		add = a.deltaSize(ev)
		limitErr = a.stop(s)
	}
	if ev.HasSeq {
		s.seen.add(ev.Seq)
	}
	if ev.Kind != KindCreated {
		s.started = true
	}
	room := 0 // the text the response may still hold: a long text's store is made that big (grow)
	if a.Limit > 0 {
		room = max(a.Limit-s.held, 1)
	}
	it, err := s.apply(ev, a.DropText, room)
	if err != nil {
		if limitErr != nil {
			return nil, limitErr
		}
		return nil, &PositionError{Num: ev.Num, Offset: ev.Offset, Err: err}
	}
	if ev.Kind.IsDelta() {
		add = min(add, a.deltaSize(ev)) // less what repeated text already held (repeat)
	}
	switch {
	case ev.Kind.IsDelta() || ev.Kind == KindShellOutputDelta:
		if it != nil { // a delta adds to the count, never recounts (that would be quadratic)
			it.held += add
			s.held += add
		}
	case ev.Kind.IsTerminal():
		s.recountAll()
	case it != nil:
		s.recount(it)
	}
	if limitErr == nil && a.Limit > 0 && s.held > a.Limit && !ev.Kind.IsTerminal() {
		limitErr = a.stop(s)
	}
	if limitErr != nil {
		return it, limitErr
	}
	return it, nil
}

func (s *Snapshot) apply(ev *Event, drop bool, room int) (*Item, error) {
	switch ev.Kind {
	case KindCreated, KindQueued, KindInProgress:
		s.takeResponse(ev.Response)
		return nil, nil
	case KindCompleted, KindIncomplete, KindFailed:
		s.takeResponse(ev.Response)
		if s.Status == "" || s.Status == "in_progress" || s.Status == "queued" {
			s.Status = strings.TrimPrefix(ev.Type, "response.")
		}
		s.Terminal, s.CutOff = true, false
		err := s.mergeTerminal(ev.Response.Output)
		for _, it := range s.Items {
			it.Done = true // nothing more streams into a finished response
			s.settleCallID(it)
		}
		return nil, err
	case KindError:
		s.ErrorEvent = true
		if s.Error == nil {
			s.Error = ev.Error
		}
		return nil, nil
	case KindUnknown:
		if len(s.Unknown) < maxUnknownKept {
			s.Unknown = append(s.Unknown, ev.Raw)
			s.unknownHeld += len(ev.Raw)
			s.held += len(ev.Raw)
		}
		return nil, nil
	}
	it, err := s.itemFor(ev, placeholderType(ev))
	if err != nil {
		return nil, err
	}
	err = it.apply(ev, drop, room)
	if ev.Kind == KindItemDone || ev.Kind == KindItemAdded {
		s.settleCallID(it)
	}
	return it, err
}

// placeholderType guesses an item's type from an event that arrives before
// the item does.
func placeholderType(ev *Event) string {
	switch ev.Kind {
	case KindItemAdded, KindItemDone:
		return ev.Item.Type
	case KindTextDelta, KindTextDone, KindAnnotationAdded, KindRefusalDelta, KindRefusalDone:
		return "message"
	case KindPartAdded, KindPartDone:
		if ev.Part != nil && ev.Part.Type == "reasoning_text" {
			return "reasoning"
		}
		return "message"
	case KindReasoningDelta, KindReasoningDone, KindSummaryPartAdded, KindSummaryPartDone, KindSummaryDelta, KindSummaryDone:
		return "reasoning"
	case KindArgsDelta, KindArgsDone:
		return "function_call"
	case KindCustomInputDelta, KindCustomInputDone:
		return "custom_tool_call"
	case KindMCPArgsDelta, KindMCPArgsDone:
		return "mcp_call"
	case KindCodeDelta, KindCodeDone:
		return "code_interpreter_call"
	case KindPartialImage:
		return "image_generation_call"
	case KindShellCommandAdded, KindShellCommandDelta, KindShellCommandDone:
		return "shell_call"
	case KindShellOutputDelta, KindShellOutputDone:
		return "shell_call_output"
	case KindPatchDiffDelta, KindPatchDiffDone:
		return "apply_patch_call"
	case KindToolProgress:
		t := strings.TrimPrefix(ev.Type, "response.")
		return t[:strings.LastIndexByte(t, '.')]
	}
	return ""
}

// apply folds an item-level event into the item. With drop, message and
// reasoning deltas only make sure their part exists. room is the text the
// response may still hold, 0 when it is not limited (grow).
func (it *Item) apply(ev *Event, drop bool, room int) error {
	switch ev.Kind {
	case KindItemAdded:
		it.absorb(ev.Item)
		it.Added = true
		return nil
	case KindItemDone:
		it.absorb(ev.Item)
		it.Added, it.Done = true, true
		if it.Status == "" {
			it.Status = "completed"
		}
		return nil
	case KindToolProgress:
		it.Progress = ev.Status
		switch ev.Status {
		case "completed", "failed", "incomplete":
			it.Status = ev.Status
		default:
			if it.Status == "" {
				it.Status = "in_progress"
			}
		}
		return nil
	case KindPartialImage:
		it.PartialImages++
		it.LastImage = ev.PartialImage
		return nil
	}
	it.dirty = true
	switch ev.Kind {
	case KindPartAdded, KindPartDone:
		return it.applyPart(&it.Content, ev.ContentIndex, ev)
	case KindSummaryPartAdded, KindSummaryPartDone:
		return it.applyPart(&it.Summary, ev.SummaryIndex, ev)
	case KindTextDelta, KindRefusalDelta, KindReasoningDelta:
		p, err := partAt(&it.Content, ev.ContentIndex, partType(ev.Kind))
		if err != nil {
			return err
		}
		if q := announced(it.Content, p); q != nil {
			// the text came in another part than the deltas go to (vLLM
			// numbers a message's only part 1): they may repeat it there
			ev.Delta = q.rep.fresh(q.Text, ev.Delta)
		}
		ev.Delta = p.rep.fresh(p.Text, ev.Delta)
		p.got += len(ev.Delta)
		if !drop {
			grow(&p.Text, &p.sb, ev.Delta, room)
		}
	case KindTextDone, KindRefusalDone, KindReasoningDone:
		p, err := partAt(&it.Content, ev.ContentIndex, partType(ev.Kind))
		if err != nil {
			return err
		}
		setDone(&p.Text, ev)
	case KindSummaryDelta:
		p, err := partAt(&it.Summary, ev.SummaryIndex, "summary_text")
		if err != nil {
			return err
		}
		ev.Delta = p.rep.fresh(p.Text, ev.Delta)
		p.got += len(ev.Delta)
		if !drop {
			grow(&p.Text, &p.sb, ev.Delta, room)
		}
	case KindSummaryDone:
		p, err := partAt(&it.Summary, ev.SummaryIndex, "summary_text")
		if err != nil {
			return err
		}
		setDone(&p.Text, ev)
	case KindAnnotationAdded:
		p, err := partAt(&it.Content, ev.ContentIndex, "output_text")
		if err != nil {
			return err
		}
		switch i := ev.AnnotationIndex; {
		case i < 0:
			p.Annotations = append(p.Annotations, ev.Annotation)
		case i > maxPartIndex:
			return fmt.Errorf("annotation_index %d is out of range", i)
		default:
			for len(p.Annotations) <= i {
				p.Annotations = append(p.Annotations, nil)
			}
			p.Annotations[i] = ev.Annotation
		}
	case KindArgsDelta, KindMCPArgsDelta:
		ev.Delta = it.reps[0].fresh(it.Arguments, ev.Delta)
		grow(&it.Arguments, &it.sb[0], ev.Delta, room)
	case KindArgsDone, KindMCPArgsDone:
		setDone(&it.Arguments, ev)
	case KindCustomInputDelta:
		ev.Delta = it.reps[1].fresh(it.Input, ev.Delta)
		grow(&it.Input, &it.sb[1], ev.Delta, room)
	case KindCustomInputDone:
		setDone(&it.Input, ev)
	case KindCodeDelta:
		ev.Delta = it.reps[2].fresh(it.Code, ev.Delta)
		grow(&it.Code, &it.sb[2], ev.Delta, room)
	case KindCodeDone:
		setDone(&it.Code, ev)
	case KindPatchDiffDelta:
		ev.Delta = it.reps[3].fresh(it.Diff, ev.Delta)
		grow(&it.Diff, &it.sb[3], ev.Delta, room)
	case KindPatchDiffDone:
		setDone(&it.Diff, ev)
	case KindShellCommandAdded, KindShellCommandDelta, KindShellCommandDone:
		i := ev.CommandIndex
		if i > maxPartIndex {
			return fmt.Errorf("command_index %d is out of range", i)
		}
		for len(it.Commands) <= i {
			it.Commands = append(it.Commands, "")
			it.cmdSB = append(it.cmdSB, nil)
		}
		if ev.Kind == KindShellCommandDelta {
			grow(&it.Commands[i], &it.cmdSB[i], ev.Delta, room)
		} else {
			setDone(&it.Commands[i], ev)
		}
	case KindShellOutputDelta:
		if len(ev.DeltaRaw) > 0 {
			it.ShellOutput = append(it.ShellOutput, ev.DeltaRaw)
			it.shellBytes += len(ev.DeltaRaw)
		}
	case KindShellOutputDone:
		if ev.Output != nil {
			it.Output = ev.Output
		}
	}
	return nil
}

// announced returns the part of ps, other than p, whose text a whole copy
// set and no delta has gone to yet, while p has no text: the deltas for p
// may repeat that text. nil when there is none.
func announced(ps []Part, p *Part) *Part {
	if p.Text != "" || p.rep != 0 {
		return nil
	}
	for i := range ps {
		if q := &ps[i]; q != p && q.Text != "" && q.rep >= 0 && q.rep < repeat(len(q.Text)) {
			return q
		}
	}
	return nil
}

// setDone applies a .done value: authoritative, except that an empty value
// never erases text already shown.
func setDone(dst *string, ev *Event) {
	if ev.HasText && (ev.Text != "" || *dst == "") {
		*dst = ev.Text
	}
}

func partType(k Kind) string {
	switch k {
	case KindRefusalDelta, KindRefusalDone:
		return "refusal"
	case KindReasoningDelta, KindReasoningDone:
		return "reasoning_text"
	}
	return "output_text"
}

func partAt(ps *[]Part, i int, typ string) (*Part, error) {
	if i > maxPartIndex {
		return nil, fmt.Errorf("part index %d is out of range", i)
	}
	for len(*ps) <= i {
		*ps = append(*ps, Part{})
	}
	p := &(*ps)[i]
	if p.Type == "" {
		p.Type = typ
	}
	return p, nil
}

func (it *Item) applyPart(ps *[]Part, i int, ev *Event) error {
	typ := "output_text"
	if ev.Kind == KindSummaryPartAdded || ev.Kind == KindSummaryPartDone {
		typ = "summary_text"
	}
	if ev.Part != nil && ev.Part.Type != "" {
		typ = ev.Part.Type
	}
	p, err := partAt(ps, i, typ)
	if err != nil {
		return err
	}
	if ev.Part == nil {
		return nil
	}
	p.Type = typ
	if ev.Part.Raw != nil {
		p.Raw = ev.Part.Raw
	}
	done := ev.Kind == KindPartDone || ev.Kind == KindSummaryPartDone
	if ev.Part.Text != "" && (done || p.Text == "") {
		p.Text = ev.Part.Text
	}
	if len(ev.Part.Annotations) > 0 {
		p.Annotations = ev.Part.Annotations
	}
	return nil
}
