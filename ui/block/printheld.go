package block

import "runnel/stream"

// heldCalls are the function calls whose panel a Printer holds until runnel
// ran them (Printer.Ran), so that its header says how the run ended; the
// next response or Close prints those that were not run.
//
// Invariants: held lists each held call once, in the order it was held;
// ran holds every call Ran was given, and a call in it is never held.
type heldCalls struct {
	held []*stream.Item
	ran  map[*stream.Item]bool
}

// hold holds a done function call that runnel may run and did not yet, and
// reports whether it did.
func (h *heldCalls) hold(it *stream.Item) bool {
	if it.Type != "function_call" || it.CallID == "" || h.ran[it] {
		return false
	}
	h.held = append(h.held, it)
	return true
}

// release lets a held call go, and reports whether it was held.
func (h *heldCalls) release(it *stream.Item) bool {
	for i, c := range h.held {
		if c == it {
			h.held = append(h.held[:i], h.held[i+1:]...)
			return true
		}
	}
	return false
}

// releaseAll lets every held call go and returns them, in order.
func (h *heldCalls) releaseAll() []*stream.Item {
	held := h.held
	h.held = nil
	return held
}
