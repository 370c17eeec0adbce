package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
)

// Snapshot is one response as accumulated from the stream so far.
//
// Invariants:
//   - Items hold every item the stream mentioned, in the order the response
//     defines (output_index while streaming; the terminal response's order
//     once it arrives, with streamed-only items kept at their place).
//   - One Item per item the server produced, each text once: an item is
//     keyed by output_index when the server sends it, else by its id, then
//     its call_id, then order of appearance (itemFor, mergeTerminal). A
//     whole copy of it (output_item.done, the terminal response's item)
//     replaces its fields and parts, never lands beside it, and its ids and
//     call_id are kept (vLLM expects the terminal's back); only a copy with
//     no text leaves the streamed text standing. Tested on every recorded
//     stream (TestEveryFixture…).
//   - Once an item is in Items it is never removed: its pointer stays valid
//     for the life of the snapshot, so a consumer may key views on it.
//   - Terminal and CutOff are never both true.
type Snapshot struct {
	ID                 string
	Model              string
	Status             string // queued, in_progress, completed, incomplete, failed
	PreviousResponseID string
	Items              []*Item
	Usage              *Usage
	Error              *ErrorInfo      // from response.failed or an `error` event
	ErrorEvent         bool            // an `error` event arrived
	IncompleteDetails  json.RawMessage // as received
	Terminal           bool            // completed, incomplete or failed arrived
	CutOff             bool            // the stream ended before a terminal event
	Truncated          bool            // its text reached the accumulator's Limit; no event was applied after that (CutOff is set too, unless it was Terminal)
	Unknown            []json.RawMessage

	// What the server echoed of the request's state (session.ChainIgnored):
	// Echoed once a lifecycle event brought a response object, EchoedPrevious
	// once one carried previous_response_id (null included), EchoedStore the
	// last store it gave (nil: none did).
	Echoed         bool
	EchoedPrevious bool
	EchoedStore    *bool
	// ServiceTier is the last service_tier a response object gave: the
	// tier the server processed the response on, once it is terminal.
	ServiceTier string

	started     bool // an event other than response.created was applied
	seen        seqSet
	held        int // bytes of text held, counted against the accumulator's Limit (limit.go)
	unknownHeld int // of which the kept unknown events
}

// CutOffNote is how runnel describes a response whose stream ended before a
// terminal event (Snapshot.CutOff): the chat, one-shot output, the store and
// both exports say the same words.
const CutOffNote = "the stream ended before the response finished"

const (
	maxOutputIndex = 1 << 16 // larger output_index values are rejected as malformed
	maxPartIndex   = 1 << 12
	maxUnknownKept = 1000
)

// find returns the item with output_index idx, or nil.
func (s *Snapshot) find(idx int) *Item {
	for i := len(s.Items) - 1; i >= 0; i-- {
		if s.Items[i].Index == idx {
			return s.Items[i]
		}
	}
	return nil
}

// insert adds it keeping Items ordered by Index.
func (s *Snapshot) insert(it *Item) {
	i := len(s.Items)
	for i > 0 && s.Items[i-1].Index > it.Index {
		i--
	}
	s.Items = append(s.Items, nil)
	copy(s.Items[i+1:], s.Items[i:])
	s.Items[i] = it
}

// itemFor resolves the item an event is about, creating a placeholder when the
// event arrives before its output_item.added. Items are keyed by output_index
// when the event has one; otherwise by identity (the item's id, then its
// call_id: see byIdentity), then by order of appearance: an
// output_item.done that names no known item closes the oldest open item of
// its type, and any other event the newest open item of its type.
func (s *Snapshot) itemFor(ev *Event, typ string) (*Item, error) {
	if ev.HasIndex {
		if ev.OutputIndex > maxOutputIndex {
			return nil, fmt.Errorf("output_index %d is out of range", ev.OutputIndex)
		}
		if it := s.find(ev.OutputIndex); it != nil {
			return it, nil
		}
		it := &Item{Index: ev.OutputIndex, Type: typ, ID: ev.ItemID}
		s.insert(it)
		return it, nil
	}
	if it := s.byIdentity(ev); it != nil {
		return it, nil
	}
	if ev.Kind == KindItemDone {
		for _, it := range s.Items {
			if !it.Done && it.Type == typ {
				return it, nil
			}
		}
	}
	if n := len(s.Items); n > 0 && !s.Items[n-1].Done && (typ == "" || s.Items[n-1].Type == typ) && ev.Kind != KindItemAdded {
		return s.Items[n-1], nil
	}
	if n := len(s.Items); n > 0 && ev.Kind == KindItemAdded {
		// events that came before their item was announced, naming
		// nothing, made a placeholder: the item announced now is it
		if last := s.Items[n-1]; !last.Done && !last.Added && last.ID == "" && last.CallID == "" && last.Type == typ {
			return last, nil
		}
	}
	next := 0
	if n := len(s.Items); n > 0 {
		next = s.Items[n-1].Index + 1
	}
	it := &Item{Index: next, Type: typ, ID: ev.ItemID}
	s.Items = append(s.Items, it)
	return it, nil
}

// settleCallID gives a finished call the client must answer, that came
// with neither call_id nor id, a call_id of its own (callIDFor), so that it
// runs once and its output names it; a call with an id but no call_id is
// answered by its id. It runs after each whole copy of the item, which
// keeps the given call_id (absorb) but not the mark that the item's JSON
// must carry it.
func (s *Snapshot) settleCallID(it *Item) {
	if !it.Done || !KindFor(it.Type).Answered {
		return
	}
	if it.CallID == "" {
		it.CallID, it.givenCallID = callIDFor(s.ID, it), true
	}
	if it.givenCallID {
		it.dirty = true // JSON merges the call_id in
	}
}

// callIDFor is the call_id runnel gives a call the server named none:
// its item id, else one made from the response id, its place and what it
// calls, the same every time the same stream is read.
func callIDFor(respID string, it *Item) string {
	if it.ID != "" {
		return it.ID
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00%s\x00%s", respID, it.Index, it.Type, it.Name, it.Arguments)
	return fmt.Sprintf("call_runnel_%016x", h.Sum64())
}

// names reports whether ev is about an item s already has (by
// output_index, else by identity), without creating one.
func (s *Snapshot) names(ev *Event) bool {
	if ev.HasIndex {
		return s.find(ev.OutputIndex) != nil
	}
	return s.byIdentity(ev) != nil
}

// byIdentity finds the item an event without output_index names: one whose
// id or call_id is the event's item_id, or the carried item's id or
// call_id (llama.cpp streams a call's deltas under item_id = its call_id,
// and sends the call with no id). An open item is preferred; a repeated
// output_item.added of a finished item is a new item whose id repeats, while
// any other event naming a finished item is about that item (a repeated
// output_item.done replaces it, never adds beside it).
func (s *Snapshot) byIdentity(ev *Event) *Item {
	var keys [3]string
	keys[0] = ev.ItemID
	if ev.Item != nil {
		keys[1], keys[2] = ev.Item.ID, ev.Item.CallID
	}
	names := func(it *Item) bool {
		for _, k := range keys {
			if k != "" && (it.ID == k || it.CallID == k) {
				return true
			}
		}
		return false
	}
	var done *Item
	for i := len(s.Items) - 1; i >= 0; i-- {
		it := s.Items[i]
		if !names(it) {
			continue
		}
		if !it.Done {
			return it
		}
		if done == nil {
			done = it
		}
	}
	if ev.Kind == KindItemAdded {
		return nil
	}
	return done
}

// takeResponse copies a lifecycle event's response fields in.
func (s *Snapshot) takeResponse(r *Response) {
	s.Echoed = true
	s.EchoedPrevious = s.EchoedPrevious || r.Previous.Set
	if r.Store != nil {
		s.EchoedStore = r.Store
	}
	if r.ID != "" {
		s.ID = r.ID
	}
	if r.Model != "" {
		s.Model = r.Model
	}
	if r.Status != "" {
		s.Status = r.Status
	}
	if r.PreviousResponseID != "" {
		s.PreviousResponseID = r.PreviousResponseID
	}
	if r.Usage != nil {
		s.Usage = r.Usage
	}
	if r.ServiceTier != "" {
		s.ServiceTier = r.ServiceTier
	}
	if r.Error != nil && (r.Error.Message != "" || r.Error.Code != "") {
		s.Error = r.Error
	}
	if r.IncompleteDetails != nil {
		s.IncompleteDetails = r.IncompleteDetails
	}
}

// mergeTerminal folds the terminal response's output into the streamed items.
// Terminal items are matched to streamed ones by id, else by call_id, else
// in order by type;
// matched items take the terminal values (keeping streamed text the terminal
// copy lacks), unmatched terminal items are added, and streamed items the
// terminal output omits stay where they were.
func (s *Snapshot) mergeTerminal(out []json.RawMessage) error {
	var firstErr error
	terms := make([]*Item, 0, len(out))
	same := map[*Item]bool{}                     // terminal items that are streamed ones, unchanged
	raws := make([]json.RawMessage, 0, len(out)) // each term's JSON
	for i, raw := range out {
		if it := s.unchanged(raw, same); it != nil {
			// the terminal copy is byte for byte what output_item.done
			// brought: decoding it again (a long answer's whole text) and
			// absorbing it would change nothing
			same[it] = true
			terms, raws = append(terms, it), append(raws, raw)
			continue
		}
		it, err := decodeItem(raw)
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("terminal response output[%d]: %w", i, describeJSONError(err))
			}
			continue
		}
		terms, raws = append(terms, it), append(raws, raw)
	}
	if len(terms) == 0 {
		return firstErr
	}
	st := s.Items
	used := make([]bool, len(st))
	match := make([]int, len(terms))
	for ti, t := range terms {
		match[ti] = -1
		if t.ID == "" {
			continue
		}
		for j, it := range st {
			if !used[j] && it.ID == t.ID {
				match[ti], used[j] = j, true
				break
			}
		}
	}
	for ti, t := range terms {
		if same[t] && (match[ti] < 0 || st[match[ti]] != t) {
			// paired with another item (ids repeat in the output): it
			// must be a copy of its own after all
			if match[ti] >= 0 {
				used[match[ti]], match[ti] = false, -1
			}
			if it, err := decodeItem(raws[ti]); err == nil {
				terms[ti] = it
				for j, x := range st {
					if !used[j] && x.ID == it.ID {
						match[ti], used[j] = j, true
						break
					}
				}
			}
		}
	}
	for ti, t := range terms {
		if match[ti] >= 0 || t.CallID == "" {
			continue
		}
		for j, it := range st {
			if !used[j] && it.Type == t.Type && (it.CallID == t.CallID || it.ID == t.CallID) {
				match[ti], used[j] = j, true
				break
			}
		}
	}
	next := 0
	for ti, t := range terms {
		if match[ti] >= 0 {
			next = match[ti] + 1
			continue
		}
		for j := next; j < len(st); j++ {
			if !used[j] && st[j].Type == t.Type {
				match[ti], used[j] = j, true
				next = j + 1
				break
			}
		}
	}
	merged := make([]*Item, 0, len(st)+len(terms))
	emitted := make([]bool, len(st))
	maxIdx := -1
	for _, it := range st {
		maxIdx = max(maxIdx, it.Index)
	}
	for ti, t := range terms {
		j := match[ti]
		if j < 0 {
			maxIdx++
			t.Index, t.Done = maxIdx, true
			merged = append(merged, t)
			continue
		}
		for k := 0; k < j; k++ {
			if !used[k] && !emitted[k] {
				merged, emitted[k] = append(merged, st[k]), true
			}
		}
		if t != st[j] {
			st[j].absorb(t)
		}
		st[j].Done = true
		merged, emitted[j] = append(merged, st[j]), true
	}
	for k := range st {
		if !emitted[k] {
			merged = append(merged, st[k])
		}
	}
	s.Items = merged
	return firstErr
}

// unchanged returns the streamed item whose raw JSON (from its
// output_item.done) is byte for byte raw, when exactly one item has its id
// and it is not taken yet (in taken); nil otherwise. Matching by id then
// pairs the terminal item with that same item, so it can stand for it.
func (s *Snapshot) unchanged(raw json.RawMessage, taken map[*Item]bool) *Item {
	var found *Item
	for _, it := range s.Items {
		if it.Done && !it.dirty && it.ID != "" && len(it.Raw) == len(raw) && !taken[it] && bytes.Equal(it.Raw, raw) {
			found = it
			break
		}
	}
	if found == nil {
		return nil
	}
	for _, it := range s.Items {
		if it != found && it.ID == found.ID {
			return nil // ids repeat: leave the pairing to the general path
		}
	}
	return found
}
