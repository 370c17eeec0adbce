package output

import (
	"io"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonSafeWriter escapes, in JSON text, the characters a terminal may obey or
// that hide or reorder text, which encoding/json writes raw:
//   - DEL (0x7F);
//   - the C1 controls U+0080–U+009F, which some terminals obey as controls;
//   - the Unicode format characters (category Cf: bidi embeddings,
//     overrides, isolates and marks, zero-width space, joiners, BOM, soft
//     hyphen, tag characters, …) and U+2028, U+2029.
//
// JSON structure is ASCII, so these can only occur inside strings, where the
// \uXXXX escape (a surrogate pair above U+FFFF) means the same: a parser
// reads back the very same text. encoding/json already escapes the C0
// controls. Each Write must hold whole UTF-8 sequences, as the encoder's
// writes (one value each) and a whole file do.
type jsonSafeWriter struct{ w io.Writer }

func (j jsonSafeWriter) Write(p []byte) (int, error) {
	i := firstJSONUnsafe(p)
	if i < 0 {
		return j.w.Write(p)
	}
	b := make([]byte, 0, len(p)+len(p)/8+12)
	b = append(b, p[:i]...)
	for i < len(p) {
		r, n := rune(p[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(p[i:])
		}
		if jsonEscapes(r, n) {
			if r > 0xFFFF {
				hi, lo := utf16.EncodeRune(r)
				b = appendU(appendU(b, hi), lo)
			} else {
				b = appendU(b, r)
			}
		} else {
			b = append(b, p[i:i+n]...)
		}
		i += n
	}
	if _, err := j.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// firstJSONUnsafe returns the index of the first character jsonSafeWriter
// escapes in p, or -1. ASCII other than DEL is passed over byte by byte.
func firstJSONUnsafe(p []byte) int {
	for i := 0; i < len(p); {
		c := p[i]
		if c < 0x7F {
			i++
			continue
		}
		r, n := rune(c), 1
		if c >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(p[i:])
		}
		if jsonEscapes(r, n) {
			return i
		}
		i += n
	}
	return -1
}

// jsonEscapes reports whether the rune r, n bytes long in the input, is one
// that jsonSafeWriter escapes. An invalid byte (which encoding/json never
// writes) is left as it is.
func jsonEscapes(r rune, n int) bool {
	switch {
	case r == 0x7F:
		return true
	case r == utf8.RuneError && n == 1:
		return false
	case r >= 0x80 && r <= 0x9F:
		return true
	case r < 0xAD:
		return false
	}
	return r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r)
}

// appendU appends the JSON escape \uXXXX of the UTF-16 unit u.
func appendU(b []byte, u rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[u>>12&0xF], hex[u>>8&0xF], hex[u>>4&0xF], hex[u&0xF])
}
