package stream

import (
	"encoding/json"
	"io"
)

// ItemJSON is an item's JSON (Item.JSON) made to be written out later,
// on any goroutine: held whole (received so, or short), or as the values
// it encodes from, so that WriteTo can hand a long answer's JSON over a
// piece at a time without ever building it whole (the session store
// writes it in rows of a bounded size). Bytes builds it whole.
//
// Invariants: exactly one of raw and v is set; n is the length of the
// JSON once measured (-1 before), and a value that fails to encode is
// dropped for fallback (the item as last received whole) when measured.
// An ItemJSON is not safe for concurrent use: Len caches.
type ItemJSON struct {
	raw      json.RawMessage
	v        map[string]any
	n        int
	fallback json.RawMessage
}

// RawItemJSON is an ItemJSON that holds raw, an item's JSON, whole.
func RawItemJSON(raw json.RawMessage) *ItemJSON {
	return &ItemJSON{raw: raw, n: len(raw)}
}

// Len is the length of the JSON in bytes. It measures the JSON by
// encoding it without keeping it: its first call on a long item costs
// about what writing it does.
func (j *ItemJSON) Len() int {
	if j.n >= 0 {
		return j.n
	}
	var c counter
	if err := encodeValue(&c, j.v); err != nil {
		j.v, j.raw = nil, j.fallback
		j.n = len(j.raw)
		return j.n
	}
	j.n = int(c)
	return j.n
}

// Bytes returns the JSON whole, in a buffer of exactly its size.
func (j *ItemJSON) Bytes() json.RawMessage {
	if j.v == nil {
		return j.raw
	}
	n := j.Len() // measured once: the store measures before it writes
	if j.v == nil {
		return j.raw // the values did not encode: the fallback
	}
	b, err := encodeSized(j.v, n)
	if err != nil {
		return j.fallback
	}
	return b
}

// WriteTo writes the JSON to w, a long string a chunk of about bigString
// bytes at a time, and returns how many bytes it wrote.
func (j *ItemJSON) WriteTo(w io.Writer) (int64, error) {
	if j.Len(); j.v == nil {
		n, err := w.Write(j.raw)
		return int64(n), err
	}
	cw := &countingWriter{w: w}
	err := encodeValue(cw, j.v)
	if err == nil {
		err = cw.err
	}
	return cw.n, err
}

// Redact returns the JSON with every secret r holds hidden, as r.JSON
// hides them in the JSON's text: the values are redacted before they are
// encoded (every string, key and JSON value), so a long text is searched
// in place rather than copied with its JSON.
func (j *ItemJSON) Redact(r *Redactor) *ItemJSON {
	if r.Len() == 0 {
		return j
	}
	if j.v == nil {
		return RawItemJSON(r.JSON(j.raw))
	}
	return &ItemJSON{v: redactValue(r, j.v).(map[string]any), n: -1, fallback: r.JSON(j.fallback)}
}

// redactValue is v, one of the values Item.fields builds, with every
// secret hidden.
func redactValue(r *Redactor, v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[r.String(k)] = redactValue(r, x)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = redactValue(r, x)
		}
		return out
	case string:
		return r.String(v)
	case []string:
		out := make([]string, len(v))
		for i, x := range v {
			out[i] = r.String(x)
		}
		return out
	case json.RawMessage:
		return json.RawMessage(r.JSON(v))
	case []json.RawMessage:
		out := make([]json.RawMessage, len(v))
		for i, x := range v {
			out[i] = r.JSON(x)
		}
		return out
	}
	return v // numbers, booleans, null: a secret outside a string is not redacted (Redactor.JSON)
}

// countingWriter is the jsonWriter WriteTo encodes to: it passes what is
// written on to w, counting it, and keeps w's first error (after which it
// writes nothing).
type countingWriter struct {
	w   io.Writer
	n   int64
	err error
	one [1]byte
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

func (c *countingWriter) WriteByte(b byte) error {
	c.one[0] = b
	_, err := c.Write(c.one[:])
	return err
}
