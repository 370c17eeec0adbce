package stream

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"unicode/utf8"
)

// marshalOnce encodes the values Item.JSON builds (maps, slices and JSON
// values) exactly as json.Marshal does, byte for byte, into one buffer of
// exactly the result's size: json.Marshal holds a text as long as the
// response limit in a buffer that grows by doubling and then copies it
// out, three or four copies of the text at once where this holds one.
// It measures the result first and then writes it; a string is escaped
// straight to the buffer (a long one a chunk of bigString at a time), so
// no step holds a second copy of it.
func marshalOnce(v any) ([]byte, error) {
	var n counter
	if err := encodeValue(&n, v); err != nil {
		return nil, err
	}
	return encodeSized(v, int(n))
}

// encodeSized encodes v, whose JSON is n bytes long, into one buffer of
// that size.
func encodeSized(v any, n int) ([]byte, error) {
	b := bytes.NewBuffer(make([]byte, 0, n))
	if err := encodeValue(b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// bigString is the size of the chunks a long string is escaped in.
const bigString = 64 << 10

// jsonWriter is where encodeValue writes: a bytes.Buffer, or a counter
// that only measures.
type jsonWriter interface {
	Write(p []byte) (int, error)
	WriteByte(c byte) error
}

// counter counts what is written to it.
type counter int

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }
func (c *counter) WriteByte(byte) error        { *c++; return nil }

// encodeValue writes v as json.Marshal would: the maps and slices Item.JSON
// builds member by member (keys sorted, as json.Marshal sorts them), a long
// string in chunks (encodeString), anything else through json.Marshal.
func encodeValue(w jsonWriter, v any) error {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			break
		}
		w.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(v)) {
			if i > 0 {
				w.WriteByte(',')
			}
			if err := encodeValue(w, k); err != nil {
				return err
			}
			w.WriteByte(':')
			if err := encodeValue(w, v[k]); err != nil {
				return err
			}
		}
		return w.WriteByte('}')
	case []any:
		if v == nil {
			break
		}
		w.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				w.WriteByte(',')
			}
			if err := encodeValue(w, e); err != nil {
				return err
			}
		}
		return w.WriteByte(']')
	case string:
		// straight to w, never a copy: an item's text is measured and
		// written again at every save of a streaming answer
		return encodeString(w, v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// encodeString writes s as a JSON string, json.Marshal's escaping of it
// written a chunk of about bigString bytes at a time straight to w (so no
// step holds a second copy of s), each chunk ending where a rune ends
// (chunkEnd).
func encodeString(w jsonWriter, s string) error {
	w.WriteByte('"')
	enc := json.NewEncoder(unquoted{w})
	for s != "" {
		n := chunkEnd(s, bigString)
		if err := enc.Encode(s[:n]); err != nil {
			return err
		}
		s = s[n:]
	}
	return w.WriteByte('"')
}

// chunkEnd is where a chunk of s of about n bytes ends: at n, or a few
// bytes before it when a valid rune spans n. json.Marshal reads s a rune
// at a time, an invalid byte alone, so every such place is where one of
// its steps ends, and the chunks escape to what s escapes to.
func chunkEnd(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	for i := n; i > n-utf8.UTFMax; i-- {
		if !utf8.RuneStart(s[i]) {
			continue
		}
		if _, size := utf8.DecodeRuneInString(s[i:]); i < n && i+size > n {
			return i
		}
		return n
	}
	return n
}

// unquoted passes on what a json.Encoder writes of one string without its
// quotes and the newline after it.
type unquoted struct{ w jsonWriter }

func (u unquoted) Write(p []byte) (int, error) {
	if len(p) >= 3 {
		u.w.Write(p[1 : len(p)-2])
	}
	return len(p), nil
}
