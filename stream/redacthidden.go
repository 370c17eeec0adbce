package stream

// This file finds secrets that are hidden from a plain search by what
// Sanitize removes: a key with a zero-width space, an SGR escape, a BEL, a
// C1 control, a soft hyphen or a bidi mark inside it is not the key, but
// becomes the key once the text is cleaned for the terminal. The Redactor
// matches each secret over the text as Sanitize will leave it (what it
// removes is skipped between the secret's bytes) and replaces the whole
// stretch of the original text, so that no cleaning of a redacted text can
// put a secret back together.

import (
	"strings"
	"unicode/utf8"
)

// matchHidden matches v against s from i, skipping what Sanitize removes
// (see removable) between v's bytes; s[i] must be v[0]. It returns where the
// match stopped in s and how many bytes of v it matched: all of them (a
// secret that ends at end), or fewer because s differs at end or, when
// end == len(s), because s ended first (with open, a text still arriving
// may end inside what Sanitize removes).
func matchHidden(s string, i int, v string, open bool) (end, k int) {
	j := i
	for k < len(v) && j < len(s) {
		if s[j] == v[k] {
			j++
			k++
			continue
		}
		if k == 0 {
			break
		}
		prev, _ := utf8.DecodeLastRuneInString(v[:k]) // the last rune Sanitize wrote
		next, ok := removable(s, j, prev, open)
		if !ok {
			break
		}
		j = next
	}
	return j, k
}

// redactHidden replaces each secret (longest first) that s holds once what
// Sanitize removes is skipped, with what was removed inside it. A match may
// also be found where Sanitize would not show it (inside an escape
// sequence's text): it is replaced too, which hides more, never less.
func redactHidden(s string, secrets []string) string {
	for _, v := range secrets {
		var b strings.Builder
		last := 0
		for i := 0; i < len(s); {
			n := strings.IndexByte(s[i:], v[0])
			if n < 0 {
				break
			}
			start := i + n
			end, k := matchHidden(s, start, v, false)
			if k < len(v) {
				i = start + 1
				continue
			}
			b.WriteString(s[last:start])
			b.WriteString(Redacted)
			last, i = end, end
		}
		if last > 0 {
			b.WriteString(s[last:])
			s = b.String()
		}
	}
	return s
}

// heldHidden is split's held suffix for text with something Sanitize
// removes in it: the length n of the longest suffix of s that, with what
// Sanitize removes skipped, is the start of a secret (not all of it), or 0;
// and that start of the secret.
func heldHidden(s string, secrets []string) (int, string) {
	longest, prefix := 0, ""
	for _, v := range secrets {
		for i := 0; i < len(s)-longest; {
			n := strings.IndexByte(s[i:len(s)-longest], v[0])
			if n < 0 {
				break
			}
			start := i + n
			if end, k := matchHidden(s, start, v, true); end == len(s) && k > 0 && k < len(v) {
				longest, prefix = len(s)-start, v[:k]
				break
			}
			i = start + 1
		}
	}
	return longest, prefix
}

// collapseHeld is held, a suffix that heldHidden matched as prefix (the
// start of a secret) with what Sanitize removes between and after its
// bytes, made short: prefix alone, and when held ends inside an escape
// sequence that the text to come continues, that sequence's introducer, so
// that what comes is read as it would have been. Sanitize shows the two
// alike.
func collapseHeld(held, prefix string) string {
	j, k, last := 0, 0, -1
	for j < len(held) {
		if k < len(prefix) && held[j] == prefix[k] {
			j, k, last = j+1, k+1, -1
			continue
		}
		prev, _ := utf8.DecodeLastRuneInString(prefix[:k])
		end, _ := removable(held, j, prev, true)
		last, j = j, max(end, j+1)
	}
	if last < 0 {
		return prefix
	}
	tail := held[last:]
	if !utf8.FullRuneInString(tail) {
		return prefix + tail // a rune cut short
	}
	if end, ok := removable(tail+"x", 0, -1, false); ok && end > len(tail) {
		return prefix + tail[:min(2, len(tail))] // ESC and its kind, or a C1 introducer
	}
	return prefix
}

// hasRemovable reports whether data may hold something Sanitize removes:
// a control byte or DEL, or any byte of a multibyte rune (checked closer by
// firstUnsafe). Plain ASCII text, most JSON, is passed over in one loop.
func hasRemovable(data []byte) bool {
	for _, c := range data {
		if c >= 0x7F || (c < 0x20 && c != '\n' && c != '\t') {
			return firstUnsafe(string(data)) >= 0
		}
	}
	return false
}
