package stream

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The lean path decodes a long event — in practice the closing events that
// each repeat a whole answer: output_text.done, content_part.done,
// output_item.done and response.completed — in one validating pass of
// jsonCursor, where encoding/json would scan it several times (checkValid,
// then the decode, then again for each json.RawMessage decoded later: the
// item, its parts, the response). It reads the few values that make an
// event long (strings, parts, items, the response's output) itself and
// hands the rest, a few short members, to encoding/json as a small object
// of their own, so every field it does not read is decoded by the same
// rules as on the general path. Anything it is not sure of (a key that
// folds to a field name or is given twice, an escaped key, text that is
// not valid UTF-8, an audio part, a value of another shape, anything
// malformed) makes it return false, and DecodeEvent decodes the whole
// event as before: both give the same Event (FuzzLeanPath, and
// TestLeanPathFixtures over every recorded stream). It stays while it pays:
// BenchmarkClosingEvents.

// leanMin is the length from which an event (or an item decoded on its
// own) takes the lean path; below it encoding/json costs microseconds.
const leanMin = 4 << 10

// jsonNames lists the keys encoding/json decodes into a struct like v: each
// exported field's tag name, else its Go name.
func jsonNames(v any) []string {
	var names []string
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	if len(names) > 64 {
		panic("stream: jsonNames: a lean struct has more than 64 fields")
	}
	return names
}

var (
	eventNames    = jsonNames(wireEvent{})
	itemNames     = jsonNames(wireItem{})
	partNames     = jsonNames(wirePart{})
	responseNames = jsonNames(Response{})
)

// leanObject reads the JSON object at p for a struct whose keys are names.
// take is offered each member whose key is one of them: it reads the value
// and says whether it did (taken) and whether the value was one it decodes
// (ok). Members not taken go to rest, an object for encoding/json to decode
// with its own rules; members that name no field are validated and left
// out, as encoding/json ignores them. An escaped key, a key that folds to a
// name without being it (encoding/json matches keys case-insensitively), a
// name given twice (the last wins there), a value take refuses and anything
// malformed make it return false. A take that does not take a value must
// leave p where it was.
func leanObject(p *jsonCursor, names []string, take func(key string, p *jsonCursor) (taken, ok bool)) (rest []byte, ok bool) {
	p.ws()
	if !p.eat('{') {
		return nil, false
	}
	rest = append(rest, '{')
	var seen uint64 // the names given so far, a bit each
	p.ws()
	if p.eat('}') {
		return append(rest, '}'), true
	}
	for {
		p.ws()
		keyAt := p.i
		key, esc, ok := p.str()
		if !ok || esc {
			return nil, false
		}
		keyEnd := p.i
		p.ws()
		if !p.eat(':') {
			return nil, false
		}
		p.ws()
		n := foldIndex(names, key)
		switch {
		case n < 0:
			if !p.skip(0) {
				return nil, false
			}
		case seen&(1<<n) != 0 || string(key) != names[n]:
			return nil, false
		default:
			seen |= 1 << n
			at := p.i
			taken, ok := take(names[n], p)
			if !ok {
				return nil, false
			}
			if !taken {
				if !p.skip(0) {
					return nil, false
				}
				if len(rest) > 1 {
					rest = append(rest, ',')
				}
				rest = append(rest, p.b[keyAt:keyEnd]...)
				rest = append(rest, ':')
				rest = append(rest, p.b[at:p.i]...)
			}
		}
		p.ws()
		if p.eat(',') {
			continue
		}
		if !p.eat('}') {
			return nil, false
		}
		return append(rest, '}'), true
	}
}

// foldIndex is the index of the name key folds to, -1 if none.
func foldIndex(names []string, key []byte) int {
	for i, name := range names {
		if len(name) == len(key) && string(key) == name {
			return i
		}
	}
	for i, name := range names {
		if bytes.EqualFold(key, []byte(name)) {
			return i
		}
	}
	return -1
}

// decodeRest decodes what leanObject left into v.
func decodeRest(rest []byte, v any) bool {
	return len(rest) == 2 || json.Unmarshal(rest, v) == nil
}

// leanEvent fills w from an event's JSON, decoding its item, part or
// response too, or returns false.
func leanEvent(data []byte, w *wireEvent) bool {
	p := jsonCursor{b: data}
	rest, ok := leanObject(&p, eventNames, func(key string, p *jsonCursor) (bool, bool) {
		switch key {
		case "text":
			return takeText(p, &w.Text)
		case "transcript":
			return takeText(p, &w.Transcript)
		case "arguments":
			return takeText(p, &w.Arguments)
		case "input":
			return takeText(p, &w.Input)
		case "code":
			return takeText(p, &w.Code)
		case "diff":
			return takeText(p, &w.Diff)
		case "refusal":
			return takeText(p, &w.Refusal)
		case "item":
			it, taken, ok := takeObject(p, &w.Item, leanItem)
			if taken && ok {
				w.item, it.Raw = it, w.Item
			}
			return taken, ok
		case "part":
			part, taken, ok := takeObject(p, &w.Part, leanPart)
			if taken && ok {
				w.part, part.Raw = &part, w.Part
			}
			return taken, ok
		case "response":
			r, taken, ok := takeObject(p, &w.Response, leanResponse)
			if taken && ok {
				w.response, r.Raw = r, w.Response
			}
			return taken, ok
		}
		return false, true
	})
	p.ws()
	return ok && p.i == len(data) && decodeRest(rest, w)
}

// leanItemOf decodes an item's JSON on the lean path, or returns false.
func leanItemOf(raw json.RawMessage) (*Item, bool) {
	p := jsonCursor{b: raw}
	it, ok := leanItem(&p)
	p.ws()
	if !ok || p.i != len(raw) {
		return nil, false
	}
	it.Raw = raw
	return it, true
}

// leanItem reads the item object at p; the caller sets its Raw. An item
// with an audio part is left to decodeItem, which takes its sound out.
func leanItem(p *jsonCursor) (*Item, bool) {
	var w wireItem
	var content, summary []Part
	rest, ok := leanObject(p, itemNames, func(key string, p *jsonCursor) (bool, bool) {
		switch key {
		case "type":
			return takeString(p, &w.Type)
		case "id":
			return takeString(p, &w.ID)
		case "status":
			return takeString(p, &w.Status)
		case "role":
			return takeString(p, &w.Role)
		case "arguments":
			return takeFlex(p, &w.Arguments)
		case "input":
			return takeFlex(p, &w.Input)
		case "code":
			return takeFlex(p, &w.Code)
		case "content":
			return takeParts(p, &content)
		case "summary":
			return takeParts(p, &summary)
		}
		return false, true
	})
	if !ok || !decodeRest(rest, &w) {
		return nil, false
	}
	for _, c := range content {
		if strings.Contains(c.Type, "audio") {
			return nil, false
		}
	}
	it := w.item(nil)
	it.Content, it.Summary = content, summary
	return it, true
}

// leanPart reads the part object at p; the caller sets its Raw.
func leanPart(p *jsonCursor) (Part, bool) {
	var w wirePart
	rest, ok := leanObject(p, partNames, func(key string, p *jsonCursor) (bool, bool) {
		switch key {
		case "type":
			return takeString(p, &w.Type)
		case "text":
			return takeText(p, &w.Text)
		case "refusal":
			return takeText(p, &w.Refusal)
		case "transcript":
			return takeText(p, &w.Transcript)
		case "annotations":
			return takeObjects(p, &w.Annotations)
		}
		return false, true
	})
	if !ok || !decodeRest(rest, &w) {
		return Part{}, false
	}
	return w.part(nil), true
}

// leanResponse reads the response object at p; the caller sets its Raw.
func leanResponse(p *jsonCursor) (*Response, bool) {
	r := &Response{}
	var output []json.RawMessage
	rest, ok := leanObject(p, responseNames, func(key string, p *jsonCursor) (bool, bool) {
		if key == "output" {
			return takeObjects(p, &output)
		}
		return false, true
	})
	if !ok || !decodeRest(rest, r) {
		return nil, false
	}
	if output != nil {
		r.Output = output
	}
	r.settle()
	return r, true
}

// takeObject takes an object value: read decodes it, and *raw is set to a
// copy of its JSON.
func takeObject[T any](p *jsonCursor, raw *json.RawMessage, read func(*jsonCursor) (T, bool)) (v T, taken, ok bool) {
	if p.peek() != '{' {
		return v, false, true
	}
	at := p.i
	if v, ok = read(p); ok {
		*raw = bytes.Clone(p.b[at:p.i])
	}
	return v, true, ok
}

// takeText takes a string value into *dst.
func takeText(p *jsonCursor, dst **string) (taken, ok bool) {
	if p.peek() != '"' {
		return false, true
	}
	s, ok := p.text()
	*dst = &s
	return true, ok
}

// takeString takes a string value into *dst.
func takeString(p *jsonCursor, dst *string) (taken, ok bool) {
	if p.peek() != '"' {
		return false, true
	}
	*dst, ok = p.text()
	return true, ok
}

// takeFlex takes a string value into *dst, as flexString decodes one.
func takeFlex(p *jsonCursor, dst *flexString) (taken, ok bool) {
	if p.peek() != '"' {
		return false, true
	}
	dst.s, ok = p.text()
	dst.set = true
	return true, ok
}

// takeParts takes an array of part objects, each with its JSON, into *dst.
func takeParts(p *jsonCursor, dst *[]Part) (taken, ok bool) {
	if p.peek() != '[' {
		return false, true
	}
	return true, p.array(func() bool {
		at := p.i
		if p.peek() != '{' {
			return false
		}
		part, ok := leanPart(p)
		part.Raw = bytes.Clone(p.b[at:p.i])
		*dst = append(*dst, part)
		return ok
	})
}

// takeObjects takes an array of objects into *dst, each as its JSON, as
// encoding/json decodes one into a []json.RawMessage (an empty array is an
// empty slice, not nil).
func takeObjects(p *jsonCursor, dst *[]json.RawMessage) (taken, ok bool) {
	if p.peek() != '[' {
		return false, true
	}
	*dst = []json.RawMessage{}
	return true, p.array(func() bool {
		at := p.i
		if p.peek() != '{' || !p.skip(0) {
			return false
		}
		*dst = append(*dst, bytes.Clone(p.b[at:p.i]))
		return true
	})
}

// array reads the array at p, calling elem at each element (after its
// leading space) to read it.
func (p *jsonCursor) array(elem func() bool) bool {
	if !p.eat('[') {
		return false
	}
	p.ws()
	if p.eat(']') {
		return true
	}
	for {
		p.ws()
		if !elem() {
			return false
		}
		p.ws()
		if p.eat(',') {
			continue
		}
		return p.eat(']')
	}
}

// text reads a string token as encoding/json decodes it, or returns false
// for one that is not valid UTF-8 (encoding/json replaces its bad bytes:
// left to the general path).
func (p *jsonCursor) text() (string, bool) {
	v, esc, ok := p.str()
	if !ok || !utf8.Valid(v) {
		return "", false
	}
	if !esc {
		return string(v), true
	}
	return unescape(v), true
}

// unescape decodes the escapes of a string token's contents that str has
// validated, as encoding/json does: a \u escape that is half a surrogate
// pair without its other half is U+FFFD.
func unescape(v []byte) string {
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); {
		j := bytes.IndexByte(v[i:], '\\')
		if j < 0 {
			b.Write(v[i:])
			break
		}
		b.Write(v[i : i+j])
		c := v[i+j+1]
		i += j + 2
		switch c {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r := hex4(v[i:])
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 <= len(v) && v[i] == '\\' && v[i+1] == 'u' {
					r2 = hex4(v[i+2:])
				}
				if d := utf16.DecodeRune(r, r2); d != unicode.ReplacementChar {
					r, i = d, i+6
				} else {
					r = unicode.ReplacementChar
				}
			}
			b.WriteRune(r)
		default: // '"', '\\', '/'
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unquote decodes a JSON string token as encoding/json does, false for
// one it rejects.
func unquote(tok []byte) (string, bool) {
	p := jsonCursor{b: tok}
	if s, ok := p.text(); ok && p.i == len(tok) {
		return s, true
	}
	var s string
	return s, json.Unmarshal(tok, &s) == nil
}

// hex4 is the value of four hex digits, -1 if they are not.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}
