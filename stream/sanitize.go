package stream

import (
	"strings"
	"unicode/utf8"
)

// Sanitize makes untrusted text (model output, tool output, server error
// bodies) safe to print on a terminal and to copy to the clipboard.
//
// It removes:
//   - C0 controls except '\n' and '\t', and DEL (0x7F);
//   - C1 controls U+0080–U+009F (as runes);
//   - escape sequences whole: CSI (ESC [ … final byte), the string sequences
//     OSC (ESC ], ended by BEL or ST), DCS (ESC P), APC (ESC _), PM (ESC ^) and
//     SOS (ESC X), each ended by ST (ESC \ or U+009C), and short sequences
//     (ESC, optional intermediates 0x20–0x2F, one final byte);
//   - the same sequences opened by their 8-bit C1 introducers (U+009B CSI,
//     U+009D OSC, U+0090 DCS, U+009F APC, U+009E PM, U+0098 SOS);
//   - every Unicode format character (general category Cf), which can
//     reorder text or hide it and which terminals do not agree on the width
//     of: the bidi embeddings, overrides and isolates (U+202A–U+202E,
//     U+2066–U+2069), the marks LRM, RLM and ALM (U+200E, U+200F, U+061C),
//     zero-width space, word joiner and BOM (U+200B, U+2060, U+FEFF), the
//     invisible operators, the soft hyphen, the interlinear annotations and
//     the tag characters (U+E0000–U+E007F), among others. See invisible.
//
// Two format characters are kept where writing needs them and cannot harm:
// ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER (U+200C, U+200D) between two
// letters of a script that joins or forms conjuncts (Arabic, Syriac, N'Ko,
// the Indic scripts; see joins). Everywhere else, and in emoji sequences in
// particular, they go: an emoji ZWJ sequence such as a family shows as its
// separate emoji, because terminals that do not join it draw it several
// cells wider than one that does, and no width measure can know which
// terminal it is.
//
// It also removes what terminals and width measures disagree on, which
// would push a panel's right border out of line: the emoji and text
// presentation selectors (U+FE0E, U+FE0F: "❤️" is two columns wide by
// grapheme and one by wcwidth, which Bubble Tea's renderer uses on terminals
// without grapheme clustering such as tmux) and the skin-tone modifiers
// (U+1F3FB–U+1F3FF: "👍🏽" is two columns by grapheme, four by wcwidth), and
// a regional indicator that is not paired into a flag with the one after it
// (two columns by grapheme, one by wcwidth; a flag is two by both). It
// removes the variation selectors VS17–VS256 (U+E0100–U+E01EF) too: they are
// invisible and can carry hidden data after any character.
//
// LINE SEPARATOR and PARAGRAPH SEPARATOR (U+2028, U+2029) become '\n'.
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
			case r == 0x2028 || r == 0x2029:
				b.WriteByte('\n')
			case r == zwnj || r == zwj:
				// Kept between two joining letters: the one written last
				// and the one that follows in the input, which is written
				// as it is, so the output passes firstUnsafe's same check.
				prev, _ := utf8.DecodeLastRuneInString(b.String())
				next, _ := utf8.DecodeRuneInString(s[i+size:])
				if joins(prev) && joins(next) {
					b.WriteString(s[i : i+size])
				}
			case isRegional(r):
				// A flag is a pair; a lone indicator (which terminals and
				// width measures disagree on) is removed.
				if next, nsize := utf8.DecodeRuneInString(s[i+size:]); isRegional(next) {
					b.WriteString(s[i : i+size+nsize])
					i += nsize
				}
			case invisible(r):
				// format characters: removed
			default:
				b.WriteString(s[i : i+size])
			}
			i += size
		}
	}
	return b.String()
}

// removable reports whether Sanitize, reading s at i in its ordinary state
// (not inside an escape sequence) after writing prev (-1: nothing), removes
// what starts there, and returns the index just after it: a control byte, an
// escape sequence whole (to the end of s when unterminated), a C1 control
// or sequence, a format character, a joiner that does not stand between
// two joining letters, a lone regional indicator. With open, s may go on
// (a text still arriving): a rune cut short at its end counts as removed,
// since its rest may make it a format character. It mirrors Sanitize's
// cases; TestRemovableMirrorsSanitize checks that it does.
func removable(s string, i int, prev rune, open bool) (end int, ok bool) {
	c := s[i]
	switch {
	case c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7F):
		return i, false
	case c == 0x1B:
		return skipEscape(s, i+1), true
	case c < 0x80:
		return i + 1, true // '\r', other C0 controls and DEL
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return len(s), open && !utf8.FullRuneInString(s[i:])
	case r == 0x9B:
		return skipCSI(s, i+size), true
	case isC1String(r):
		return skipString(s, i+size), true
	case r >= 0x80 && r <= 0x9F:
		return i + size, true
	case r == zwnj || r == zwj:
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		return i + size, !joins(prev) || !joins(next)
	case isRegional(r):
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		return i + size, !isRegional(next)
	}
	return i + size, invisible(r)
}

// SafeLen returns the length of a prefix of s that Sanitize leaves as it is:
// the longest, short of a trailing word of joining letters. Sanitize(s) ==
// s[:n] + Sanitize(s[n:]) for n = SafeLen(s) and for any shorter n at a rune
// boundary that is not inside a flag (two regional indicators) nor inside or
// just after a word of joining letters (see joins), so text that grows can be sanitized from
// where the last call stopped. A rune cut short at the end of s ends the
// prefix, and the prefix never ends with a joining letter or a joiner:
// whether a joiner stays depends on what comes after it.
func SafeLen(s string) int {
	n := firstUnsafe(s)
	if n < 0 {
		n = len(s)
	}
	// A word of joining letters and joiners just before n stays in the rest
	// whole: a joiner may follow it, now, once s grows, or once what
	// Sanitize removes is gone, and whether a joiner stays depends on both
	// of its neighbours.
	for n > 0 && s[n-1] >= utf8.RuneSelf {
		last, size := utf8.DecodeLastRuneInString(s[:n])
		if !joins(last) && last != zwnj && last != zwj {
			break
		}
		n -= size
	}
	return n
}

// SettledLen returns the length of a prefix of s, a text still growing,
// whose Sanitize does not change with what comes after s: it leaves out a
// rune cut short at the end, a lone regional indicator at the end (the next
// may make a flag), and a trailing run of joining letters and joiners (see
// joins: whether a joiner stays depends on the letters on both sides). Writers that print a growing text in
// pieces sanitize s[:n], then continue from n; at the end of the text they
// sanitize the rest whole.
func SettledLen(s string) int {
	n := len(s)
	k := n - 1 // the start of the last rune, if s ends in one cut short
	for k > 0 && k > n-utf8.UTFMax && !utf8.RuneStart(s[k]) {
		k--
	}
	if k >= 0 && !utf8.FullRuneInString(s[k:]) {
		n = k
	}
	r, size := utf8.DecodeLastRuneInString(s[:n])
	switch {
	case isRegional(r):
		run := 0
		for k := n; k > 0; k -= size {
			if r, size = utf8.DecodeLastRuneInString(s[:k]); !isRegional(r) {
				break
			}
			run++
		}
		if run%2 == 1 {
			n -= 4 // regional indicators are four bytes
		}
	case r == zwnj || r == zwj || joins(r):
		// the whole trailing word of joining letters and joiners
		for r == zwnj || r == zwj || joins(r) {
			n -= size
			r, size = utf8.DecodeLastRuneInString(s[:n])
		}
	}
	return n
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
// if s is already safe: valid UTF-8 with no control other than '\n' and '\t'
// and no format character other than a joiner between joining letters.

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
		if r < 0x10000 {
			if quietBlocks[r>>10]&(1<<(r>>4&63)) == 0 {
				i += size // a block of 16 with nothing to check: most text
				continue
			}
		} else if r < 0x110BD || (r > 0x1D17A && r < 0x1F1E6) || (r > 0x1F1FF && r < 0x1F3FB) || (r > 0x1F3FF && r < 0xE0000) {
			i += size // most emoji and other astral runes
			continue
		}
		switch {
		case r < 0xA0: // C1 controls, and invalid bytes (RuneError is above)
			return i
		case r == utf8.RuneError && size == 1:
			return i
		case r == zwnj || r == zwj:
			prev, _ := utf8.DecodeLastRuneInString(s[:i])
			next, _ := utf8.DecodeRuneInString(s[i+size:])
			if !joins(prev) || !joins(next) {
				return i
			}
		case isRegional(r):
			next, nsize := utf8.DecodeRuneInString(s[i+size:])
			if !isRegional(next) {
				return i
			}
			size += nsize // a flag: a pair of regional indicators
		case r == 0x2028 || r == 0x2029 || invisible(r):
			return i
		}
		i += size
	}
	return -1
}

// quietBlocks has a bit clear for each block of 16 code points of the BMP
// (bit r>>4&63 of word r>>10) that holds no rune firstUnsafe looks at
// closer: no C1 control, format character, joiner, line separator,
// presentation selector or U+FFFD.
var quietBlocks = func() (t [64]uint64) {
	for _, rg := range [][2]rune{
		{0x80, 0xAD}, {0x600, 0x605}, {0x61C, 0x61C}, {0x6DD, 0x6DD}, {0x70F, 0x70F},
		{0x890, 0x891}, {0x8E2, 0x8E2}, {0x180E, 0x180E}, {0x200B, 0x200F},
		{0x2028, 0x202E}, {0x2060, 0x206F}, {0xFE0E, 0xFE0F}, {0xFEFF, 0xFEFF},
		{0xFFF9, 0xFFFB}, {utf8.RuneError, utf8.RuneError},
	} {
		for r := rg[0]; r <= rg[1]; r++ {
			t[r>>10] |= 1 << (r >> 4 & 63)
		}
	}
	return t
}()

// isRegional reports whether r is a regional indicator symbol (U+1F1E6–
// U+1F1FF), two of which make a flag.
func isRegional(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

const (
	zwnj = '\u200C' // ZERO WIDTH NON-JOINER
	zwj  = '\u200D' // ZERO WIDTH JOINER
)

// invisible reports whether Sanitize removes r as a Unicode format character
// (category Cf), a presentation or late variation selector or a skin-tone
// modifier (see Sanitize). The ranges below cover every Cf character of
// Unicode 15 and the unassigned code points beside them; the test checks
// them against unicode.Cf. Text in most scripts stays below U+2000 or between
// U+2070 and U+FE0D, where the check is one or two comparisons.
func invisible(r rune) bool {
	switch {
	case r < 0xAD:
		return false
	case r < 0x2000:
		return r == 0xAD || // SOFT HYPHEN
			(r >= 0x600 && r <= 0x605) || r == 0x61C || r == 0x6DD || r == 0x70F ||
			r == 0x890 || r == 0x891 || r == 0x8E2 || r == 0x180E
	case r <= 0x206F:
		return (r >= 0x200B && r <= 0x200F) || (r >= 0x202A && r <= 0x202E) || r >= 0x2060
	case r < 0xFE0E:
		return false
	case r < 0x10000:
		return r == 0xFE0E || r == 0xFE0F || r == 0xFEFF || (r >= 0xFFF9 && r <= 0xFFFB)
	}
	return r == 0x110BD || r == 0x110CD ||
		(r >= 0x1F3FB && r <= 0x1F3FF) || // skin-tone modifiers
		(r >= 0xE0100 && r <= 0xE01EF) || // VS17–VS256
		(r >= 0x13430 && r <= 0x1343F) ||
		(r >= 0x1BCA0 && r <= 0x1BCA3) ||
		(r >= 0x1D173 && r <= 0x1D17A) ||
		(r >= 0xE0000 && r <= 0xE007F)
}

// joins reports whether r belongs to a script whose writing uses ZWNJ and
// ZWJ between letters to choose joined or separate forms: Arabic (Persian
// writes ZWNJ in ordinary words), Syriac, N'Ko, Mongolian and the Brahmic
// scripts of India and Sri Lanka (conjuncts and half forms). Between two such
// runes the joiners are zero width however a terminal measures, and they can
// neither reorder nor hide anything.
func joins(r rune) bool {
	switch {
	case invisible(r):
		return false
	case r < 0x600:
		return false
	case r <= 0x08FF: // Arabic, Syriac, Arabic Supplement, Thaana, N'Ko, …
		return true
	case r <= 0x0DFF: // Devanagari … Sinhala
		return true
	case r >= 0x1800 && r <= 0x18AF: // Mongolian
		return true
	case r >= 0xA8E0 && r <= 0xA8FF: // Devanagari Extended
		return true
	case r >= 0xFB50 && r <= 0xFDFF, r >= 0xFE70 && r <= 0xFEFE: // Arabic presentation forms
		return true
	}
	return false
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
