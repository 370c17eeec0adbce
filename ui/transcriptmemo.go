package ui

// This file is the transcript's memo of its last View: a View after a
// message that changed nothing the transcript shows (a spinner's frame, a
// pacer tick that found nothing, a save's result) returns the string it
// returned last, without walking the entries on screen or joining their
// lines again.

// viewMemo is the transcript's last View and the key it was drawn at.
//
// It is one pointer shared by every copy of a Transcript (Update returns
// copies; a dialog's overlay draws a copy at another height): ver counts
// the changes to what the entries draw, made through any copy, so no copy
// returns a screen another copy's change made stale.
//
// Invariants: ver is bumped (bump) by every Transcript mutator that
// changes the entries' lines or how they are drawn: Append (and the
// releases it makes), Invalidate, InvalidateAll, a new width, new styles.
// Everything else View reads is a field of the Transcript, and is in the
// key (keyOf). A slot's lines change only when it is read, and it is read
// only when stale or at another width, which a bump precedes. So while
// valid and key equals the key of the transcript now, out is what View
// would draw. A nil memo keeps nothing: every View draws.
type viewMemo struct {
	ver   uint64
	valid bool
	key   viewKey
	out   string
}

// viewKey is everything Transcript.View reads besides the entries' lines,
// which ver stands for.
type viewKey struct {
	ver                                   uint64
	width, height                         int
	follow                                bool
	anchor, offset, unseen, navAt, nSlots int
	mark                                  markRange
}

// keyOf is the key of the view t draws now.
func (v *viewMemo) keyOf(t *Transcript) viewKey {
	k := viewKey{width: t.width, height: t.height, follow: t.follow, anchor: t.anchor, offset: t.offset,
		unseen: t.unseen, navAt: t.navAt, nSlots: len(t.slots), mark: t.mark}
	if v != nil {
		k.ver = v.ver
	}
	return k
}

// get is the view drawn at k, if it is the one kept.
func (v *viewMemo) get(k viewKey) (string, bool) {
	if v == nil || !v.valid || v.key != k {
		return "", false
	}
	return v.out, true
}

// put keeps out as the view drawn at k, and returns it.
func (v *viewMemo) put(k viewKey, out string) string {
	if v != nil {
		v.key, v.out, v.valid = k, out, true
	}
	return out
}

// bump records that what the entries draw changed: the next View draws
// again.
func (v *viewMemo) bump() {
	if v != nil {
		v.ver++
	}
}
