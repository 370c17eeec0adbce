package stream

import (
	"bytes"
	"unicode/utf8"
)

// The fast path decodes the events that make up most of a stream's bytes —
// flat delta events — without reflection. It validates what it reads and
// returns false for anything it is not sure about, and DecodeEvent then takes
// the general path, so both give the same result (FuzzFastPath checks this).
// It stays only while it is at least twice as fast as DecodeEvent on the
// delta events of the real fixtures: BenchmarkFastPath reports general/fast
// (3.6–3.8 on a 2-core EPYC, 95% of deltas taken by the fast path).

// kindEntry is a type string's Kind and its canonical spelling, so that the
// fast path need not allocate the type.
type kindEntry struct {
	kind Kind
	name string
}

var fastKinds = func() map[string]kindEntry {
	m := map[string]kindEntry{}
	for name, k := range kindByType {
		if k.IsDelta() {
			m[name] = kindEntry{k, name}
		}
	}
	return m
}()

// fastDecode fills ev from a flat delta event, or returns false.
func fastDecode(data []byte, ev *Event, lastItemID string) bool {
	p := jsonCursor{b: data}
	p.ws()
	if !p.eat('{') {
		return false
	}
	*ev = Event{AnnotationIndex: -1}
	var typ []byte
	var delta []byte
	deltaEscaped, haveDelta := false, false
	p.ws()
	if p.eat('}') {
		return false
	}
	for {
		p.ws()
		key, esc, ok := p.str()
		if !ok || esc {
			return false
		}
		p.ws()
		if !p.eat(':') {
			return false
		}
		p.ws()
		switch string(key) {
		case "type":
			v, esc, ok := p.str()
			if !ok || esc {
				return false
			}
			typ = v
		case "delta":
			if p.peek() != '"' {
				return false
			}
			v, esc, ok := p.str()
			if !ok {
				return false
			}
			delta, deltaEscaped, haveDelta = v, esc, true
		case "item_id":
			v, esc, ok := p.str()
			if !ok || esc || !utf8.Valid(v) {
				return false
			}
			if string(v) == lastItemID {
				ev.ItemID = lastItemID
			} else {
				ev.ItemID = string(v)
			}
		case "sequence_number":
			n, ok := p.uint()
			if !ok {
				return false
			}
			ev.Seq, ev.HasSeq = n, true
		case "output_index":
			n, ok := p.uint()
			if !ok || n > 1<<31 {
				return false
			}
			ev.OutputIndex, ev.HasIndex = int(n), true
		case "content_index", "summary_index", "command_index":
			n, ok := p.uint()
			if !ok || n > 1<<31 {
				return false
			}
			switch key[0] {
			case 'c':
				if key[1] == 'o' && key[2] == 'n' {
					ev.ContentIndex = int(n)
				} else {
					ev.CommandIndex = int(n)
				}
			default:
				ev.SummaryIndex = int(n)
			}
		default:
			// encoding/json matches keys case-insensitively: leave any key
			// that folds to a field name to the general path.
			for _, name := range eventNames {
				if bytes.EqualFold(key, []byte(name)) {
					return false
				}
			}
			if !p.skip(0) {
				return false
			}
		}
		p.ws()
		if p.eat(',') {
			continue
		}
		if !p.eat('}') {
			return false
		}
		break
	}
	p.ws()
	if p.i != len(p.b) || !haveDelta {
		return false
	}
	e, ok := fastKinds[string(typ)]
	if !ok {
		return false
	}
	ev.Kind, ev.Type = e.kind, e.name
	if deltaEscaped || !utf8.Valid(delta) {
		return false
	}
	ev.Delta = string(delta)
	return true
}

// jsonCursor is a minimal validating JSON reader over a byte slice.
type jsonCursor struct {
	b []byte
	i int
}

func (p *jsonCursor) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonCursor) peek() byte {
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

func (p *jsonCursor) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string token and returns its raw contents and whether it had
// escapes. It validates escapes and rejects control characters.
func (p *jsonCursor) str() (v []byte, escaped, ok bool) {
	if !p.eat('"') {
		return nil, false, false
	}
	start, b := p.i, p.b
	for i := p.i; i < len(b); {
		c := b[i]
		if !strStop[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			p.i = i + 1
			return b[start:i], escaped, true
		case c < 0x20:
			return nil, false, false
		}
		// a backslash
		escaped = true
		if i+1 >= len(b) {
			return nil, false, false
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if i+6 > len(b) || hex4(b[i+2:i+6]) < 0 {
				return nil, false, false
			}
			i += 6
		default:
			return nil, false, false
		}
	}
	return nil, false, false
}

// strStop marks the bytes that end a run of plain string contents: the
// quote, the backslash and the control characters.
var strStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// uint reads a non-negative integer without sign, fraction or exponent.
func (p *jsonCursor) uint() (int64, bool) {
	start := p.i
	var n int64
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		if n > 1<<53 {
			return 0, false
		}
		n = n*10 + int64(p.b[p.i]-'0')
		p.i++
	}
	if p.i == start || (p.b[start] == '0' && p.i-start > 1) {
		return 0, false
	}
	if c := p.peek(); c == '.' || c == 'e' || c == 'E' {
		return 0, false
	}
	return n, true
}

// skip validates and passes over one JSON value.
func (p *jsonCursor) skip(depth int) bool {
	if depth > 64 {
		return false
	}
	p.ws()
	switch c := p.peek(); {
	case c == '"':
		_, _, ok := p.str()
		return ok
	case c == '{' || c == '[':
		close := byte('}')
		if c == '[' {
			close = ']'
		}
		p.i++
		p.ws()
		if p.eat(close) {
			return true
		}
		for {
			if c == '{' {
				p.ws()
				if _, _, ok := p.str(); !ok {
					return false
				}
				p.ws()
				if !p.eat(':') {
					return false
				}
			}
			if !p.skip(depth + 1) {
				return false
			}
			p.ws()
			if p.eat(',') {
				continue
			}
			return p.eat(close)
		}
	case c == 't':
		return p.lit("true")
	case c == 'f':
		return p.lit("false")
	case c == 'n':
		return p.lit("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return false
}

func (p *jsonCursor) lit(s string) bool {
	if bytes.HasPrefix(p.b[p.i:], []byte(s)) {
		p.i += len(s)
		return true
	}
	return false
}

func (p *jsonCursor) number() bool {
	p.eat('-')
	digits := func() int {
		s := p.i
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
		}
		return p.i - s
	}
	start := p.i
	n := digits()
	if n == 0 || (n > 1 && p.b[start] == '0') {
		return false
	}
	if p.eat('.') && digits() == 0 {
		return false
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.i++
		if c := p.peek(); c == '+' || c == '-' {
			p.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}
