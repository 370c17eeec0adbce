package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// A shape check walks an untrusted JSON document and names the first
// problem by its path: `turns[3].items[1]: want an object, got a string`.
// The document was already checked to be valid JSON, so sub-values decode.

// kind names the JSON type of raw for error messages.
func kind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

type shapeError struct{ path, msg string }

func (e *shapeError) Error() string { return e.path + ": " + e.msg }

func want(path, what string, raw json.RawMessage) error {
	return &shapeError{path, fmt.Sprintf("want %s, got %s", what, kind(raw))}
}

func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// object decodes an object. A missing value is an error.
func object(path string, raw json.RawMessage) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if kind(raw) != "an object" || json.Unmarshal(raw, &m) != nil {
		return nil, want(path, "an object", raw)
	}
	return m, nil
}

// array decodes an array; missing or null is empty.
func array(path string, raw json.RawMessage) ([]json.RawMessage, error) {
	if isNull(raw) {
		return nil, nil
	}
	var a []json.RawMessage
	if kind(raw) != "an array" || json.Unmarshal(raw, &a) != nil {
		return nil, want(path, "an array", raw)
	}
	return a, nil
}

// text decodes a string; missing or null is "".
func text(path string, raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	var s string
	if kind(raw) != "a string" || json.Unmarshal(raw, &s) != nil {
		return "", want(path, "a string", raw)
	}
	return s, nil
}

// count decodes a non-negative integer; missing or null is 0.
func count(path string, raw json.RawMessage) (int, error) {
	if isNull(raw) {
		return 0, nil
	}
	var n int
	if kind(raw) != "a number" || json.Unmarshal(raw, &n) != nil || n < 0 {
		return 0, want(path, "a whole number ≥ 0", raw)
	}
	return n, nil
}

// flag decodes a boolean; missing or null is false.
func flag(path string, raw json.RawMessage) (bool, error) {
	if isNull(raw) {
		return false, nil
	}
	var b bool
	if kind(raw) != "a boolean" || json.Unmarshal(raw, &b) != nil {
		return false, want(path, "true or false", raw)
	}
	return b, nil
}

// stamp decodes an RFC 3339 time; missing, null or "" is the zero time.
func stamp(path string, raw json.RawMessage) (time.Time, error) {
	s, err := text(path, raw)
	if err != nil || s == "" {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, &shapeError{path, fmt.Sprintf("want an RFC 3339 time, got %q", cut(s, 40))}
	}
	return t, nil
}

// stringList decodes an array of strings; missing or null is empty.
func stringList(path string, raw json.RawMessage) ([]string, error) {
	a, err := array(path, raw)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(a))
	for i, e := range a {
		if out[i], err = text(fmt.Sprintf("%s[%d]", path, i), e); err != nil {
			return nil, err
		}
		if isNull(e) {
			return nil, want(fmt.Sprintf("%s[%d]", path, i), "a string", e)
		}
	}
	return out, nil
}
