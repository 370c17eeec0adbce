package stream

import (
	"strings"
	"unsafe"
)

// grow appends d to *dst in amortised O(len(d)). *b is the backing store that
// *dst was last built from; when *dst was replaced by other means (a .done
// value), a new store is started from it. Strings handed out earlier stay
// valid: a strings.Builder never rewrites bytes it has written. room is
// the text the response may still hold, d included (0: no limit): a text
// past bigText that fills its store moves, once, to a store that holds
// all it can grow to (see bigText).
func grow(dst *string, b **strings.Builder, d string, room int) {
	if d == "" {
		return
	}
	full := *b != nil && (*b).Cap()-(*b).Len() < len(d)
	if *b == nil || (*b).Len() != len(*dst) || unsafe.StringData((*b).String()) != unsafe.StringData(*dst) ||
		full && room >= len(d) && len(*dst) >= bigText {
		n := len(*dst) + len(d) + 64
		if room >= len(d) && len(*dst) >= bigText {
			n = len(*dst) + room
		}
		nb := &strings.Builder{}
		nb.Grow(n)
		nb.WriteString(*dst)
		*b = nb
	}
	(*b).WriteString(d)
	*dst = (*b).String()
}

// bigText is the length past which a text that fills its store moves to
// one as big as the response limit lets it grow, rather than one a quarter
// bigger (append's step). Each move copies the text, and holds the old
// store and the new one at once; by quarters, a text as long as the limit
// moves about ten times past bigText, the last at 26 MiB, when the two
// stores hold the text twice over. The new store's tail that no text has
// reached is never written, and a page never written is not resident:
// the room costs address space, not memory.
const bigText = 1 << 20

// repeat is how far the deltas of one value have repeated the text a whole
// copy put there before any delta came: some servers announce an item with
// its text (output_item.added, content_part.added) and then stream the
// same text again as deltas. 0: no delta yet; n > 0: the deltas so far
// repeated the first n bytes; -1: deltas add text.
type repeat int

// fresh returns the part of delta d that is new to *dst, the value
// deltas grow, and moves e on. A delta that repeats the text at e adds
// nothing; one that repeats the rest of it and goes on adds what follows;
// any other ends the repeat, and it and every later delta add all they
// carry.
func (e *repeat) fresh(dst, d string) string {
	if *e < 0 || d == "" {
		return d
	}
	rest := dst[min(int(*e), len(dst)):]
	switch {
	case rest != "" && strings.HasPrefix(rest, d):
		*e += repeat(len(d))
		return ""
	case strings.HasPrefix(d, rest):
		*e = -1
		return d[len(rest):]
	}
	*e = -1
	return d
}
