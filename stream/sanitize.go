package stream

import (
	"strings"
	"unicode/utf8"
)

// Sanitize makes untrusted text (model output, tool output, server error
// bodies) safe to print on a terminal.
//
// It removes:
//   - C0 controls except '\n' and '\t', and DEL (0x7F);
//   - C1 controls U+0080–U+009F (as runes);
//   - escape sequences whole: CSI (ESC [ … final byte), the string sequences
//     OSC (ESC ], ended by BEL or ST), DCS (ESC P), APC (ESC _), PM (ESC ^) and
//     SOS (ESC X), each ended by ST (ESC \ or U+009C), and short sequences
//     (ESC, optional intermediates 0x20–0x2F, one final byte);
//   - the same sequences opened by their 8-bit C1 introducers (U+009B CSI,
//     U+009D OSC, U+0090 DCS, U+009F APC, U+009E PM, U+0098 SOS).
//
// An unterminated string sequence is removed to the end of the input. "\r\n"
// becomes "\n" and a lone '\r' is removed (it would let later text overwrite
// earlier text on the same line). Invalid UTF-8 bytes become U+FFFD.
//
// Text that needs none of this is returned as is, without allocating. The
// result always passes that check, so Sanitize(Sanitize(s)) == Sanitize(s).
func Sanitize(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7F):
			b.WriteByte(c)
			i++
		case c == 0x1B:
			i = skipEscape(s, i+1)
		case c == '\r':
			i++ // "\r\n" keeps its '\n', which the next turn writes
		case c < 0x80:
			i++ // other C0 controls and DEL
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				b.WriteRune(utf8.RuneError)
			case r == 0x9B: // CSI
				i = skipCSI(s, i+size)
				continue
			case isC1String(r):
				i = skipString(s, i+size)
				continue
			case r >= 0x80 && r <= 0x9F:
				// other C1 controls
			default:
				b.WriteString(s[i : i+size])
			}
			i += size
		}
	}
	return b.String()
}

// SafeLen returns the length of the longest prefix of s that Sanitize leaves
// as it is. Sanitize(s) == s[:n] + Sanitize(s[n:]) for n = SafeLen(s) and for
// any shorter n at a rune boundary, so text that grows can be sanitized
// from where the last call stopped. A rune cut short at the end of s ends
// the prefix.
func SafeLen(s string) int {
	if i := firstUnsafe(s); i >= 0 {
		return i
	}
	return len(s)
}

// SanitizeLine is Sanitize for one-line summaries such as error messages:
// runs of spaces, tabs and newlines fold to a single space, and the ends are
// trimmed.
func SanitizeLine(s string) string {
	s = Sanitize(s)
	if !needsFold(s) {
		return strings.TrimSpace(s) // also trims Unicode spaces such as U+00A0
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(c)
	}
	return strings.TrimSpace(b.String())
}

// needsFold reports whether SanitizeLine has anything to fold or trim in s.
func needsFold(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\t', '\n':
			return true
		case ' ':
			if i+1 < len(s) && s[i+1] == ' ' {
				return true
			}
		}
	}
	return false
}

// firstUnsafe returns the index of the first byte Sanitize would change, or -1
// if s is already safe: valid UTF-8 with no control other than '\n' and '\t'.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7F {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || (r >= 0x80 && r <= 0x9F) {
			return i
		}
		i += size
	}
	return -1
}

// isC1String reports whether r is the 8-bit introducer of a string sequence:
// DCS, SOS, OSC, PM or APC.
func isC1String(r rune) bool {
	return r == 0x90 || r == 0x98 || r == 0x9D || r == 0x9E || r == 0x9F
}

// skipEscape skips the escape sequence whose ESC ended just before i and
// returns the index of the first byte after it.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', '_', '^', 'X':
		return skipString(s, i+1)
	}
	// nF sequences: intermediates 0x20–0x2F, then one final byte 0x30–0x7E.
	j := i
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2F {
		j++
	}
	if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7E {
		return j + 1
	}
	// Malformed: drop the ESC and its intermediates; what follows is
	// processed as ordinary input (and stripped there if it is a control).
	return j
}

// skipCSI skips a control sequence's parameter and intermediate bytes
// (0x20–0x3F) and its final byte (0x40–0x7E). A sequence broken by any other
// byte ends there, and that byte is processed as ordinary input.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3F {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7E {
		i++
	}
	return i
}

// skipString skips the body of OSC, DCS, APC, PM or SOS and its terminator:
// BEL, ST (ESC \ or U+009C as UTF-8), or the end of the input. Another ESC
// ends the string too, as it does on real terminals; the index of that ESC is
// returned so the caller skips the sequence it opens (no recursion, so hostile
// input cannot nest deeply).
func skipString(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case 0x07:
			return i + 1
		case 0x1B:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i
		case 0xC2:
			if i+1 < len(s) && s[i+1] == 0x9C {
				return i + 2
			}
		}
		i++
	}
	return i
}
