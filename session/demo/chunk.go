package demo

import (
	"unicode"
	"unicode/utf8"
)

// maxWordRunes is the longest word sent as one delta; longer words arrive in
// pieces, as tokens do.
const maxWordRunes = 9

// chunks splits text into token-sized deltas the way a model streams them: a
// word with its leading space (" street"), a run of the same punctuation
// (" **", "```"), or a run of newlines. The pieces concatenate back to text
// exactly and never split a UTF-8 sequence.
func chunks(text string) []string {
	var out []string
	for len(text) > 0 {
		n := tokenLen(text)
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

// tokenLen is the byte length of the token at the start of s (len(s) > 0).
func tokenLen(s string) int {
	i := 0
	first, _ := utf8.DecodeRuneInString(s)
	if first == ' ' && len(s) > 1 {
		next, _ := utf8.DecodeRuneInString(s[1:])
		if !unicode.IsSpace(next) {
			i = 1 // the space travels with the token after it
			first = next
		}
	}
	switch {
	case isWord(first):
		// Words up to maxWordRunes go whole; longer ones lose a 6-rune head,
		// and the rest is tokenized again ("enviro" + "nment").
		end, runes := i, 0
		for end < len(s) {
			r, n := utf8.DecodeRuneInString(s[end:])
			if !isWord(r) {
				break
			}
			end += n
			runes++
			if runes == maxWordRunes+1 {
				return i + headLen(s[i:], 6)
			}
		}
		return end
	default:
		// A run of one repeated symbol, space or newline, at most 4 long.
		runes := 0
		for i < len(s) && runes < 4 {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r != first {
				break
			}
			i += n
			runes++
		}
		return i
	}
}

// headLen is the byte length of the first n runes of s.
func headLen(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

func isWord(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '_'
}

// obfuscator makes the "obfuscation" padding real servers add to delta events
// so every delta's payload is a multiple of 16 characters long. It is a seeded
// xorshift generator: the same seed gives the same bytes.
//
// Invariants: state is never 0 (xorshift would stick there).
type obfuscator struct {
	state uint64
}

func newObfuscator(seed uint64) *obfuscator {
	return &obfuscator{state: seed*0x9E3779B97F4A7C15 | 1}
}

const obfuscationAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// pad returns the padding for a delta.
func (o *obfuscator) pad(delta string) string {
	n := 16 - utf8.RuneCountInString(delta)%16
	b := make([]byte, n)
	for i := range b {
		b[i] = obfuscationAlphabet[o.next()%uint64(len(obfuscationAlphabet))]
	}
	return string(b)
}

func (o *obfuscator) next() uint64 {
	o.state ^= o.state << 13
	o.state ^= o.state >> 7
	o.state ^= o.state << 17
	return o.state
}
