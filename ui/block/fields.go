package block

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// fields is an item's raw JSON split into its top-level members, for the
// values a panel shows that stream.Item does not decode (action, queries,
// outputs, tools, operation, result…). It is re-parsed only when the item's
// Raw changes.
//
// Invariants: m holds the members of the Raw last given to load (nil when
// that Raw was nil or not an object); src is that Raw.
type fields struct {
	src json.RawMessage
	m   map[string]json.RawMessage
}

// load re-parses raw if it is not the slice parsed last time.
func (f *fields) load(raw json.RawMessage) {
	if sameSlice(f.src, raw) {
		return
	}
	f.src, f.m = raw, nil
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &f.m) // not an object: no fields
	}
}

func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// get returns the member at a path of object keys ("action", "query").
func (f *fields) get(path ...string) json.RawMessage {
	return lookup(f.m, path...)
}

func lookup(m map[string]json.RawMessage, path ...string) json.RawMessage {
	for i, k := range path {
		v, ok := m[k]
		if !ok || isNull(v) {
			return nil
		}
		if i == len(path)-1 {
			return v
		}
		m = nil
		if json.Unmarshal(v, &m) != nil {
			return nil
		}
	}
	return nil
}

// objectOf returns a JSON object's members, nil for anything else.
func objectOf(v json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) != nil {
		return nil
	}
	return m
}

func isNull(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) == 0 || string(v) == "null"
}

// str returns a JSON string's value, or "" for anything else.
func str(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

// text returns a JSON value as text: a string's value, a number or boolean
// as written, anything else as compact JSON.
func text(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return ""
	}
	if v[0] == '"' {
		return str(v)
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}

// strs returns a JSON array of strings (other elements skipped).
func strs(v json.RawMessage) []string {
	var raw []json.RawMessage
	if json.Unmarshal(v, &raw) != nil {
		return nil
	}
	out := make([]string, 0, len(raw))
	for _, r := range raw {
		if s := str(r); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// objects returns a JSON array of objects, each as its members.
func objects(v json.RawMessage) []map[string]json.RawMessage {
	var out []map[string]json.RawMessage
	if json.Unmarshal(v, &out) != nil {
		return nil
	}
	return out
}

// count returns the length of a JSON array, and false if v is not one.
func count(v json.RawMessage) (int, bool) {
	var raw []json.RawMessage
	if json.Unmarshal(v, &raw) != nil {
		return 0, false
	}
	return len(raw), true
}

// number returns a JSON number as written ("0", "-1"), or "".
func number(v json.RawMessage) string {
	var n json.Number
	if json.Unmarshal(v, &n) != nil {
		return ""
	}
	return n.String()
}

// prettyJSON indents s if it is one complete JSON object or array; ok is
// false otherwise (still streaming, or not JSON). While arguments stream they
// are not valid JSON, so validity is also the sign that they are complete.
func prettyJSON(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') || !json.Valid([]byte(t)) {
		return s, false
	}
	var b bytes.Buffer
	if json.Indent(&b, []byte(t), "", "  ") != nil {
		return s, false
	}
	return b.String(), true
}

// errorText returns an error value as one line: a string, or an object's
// message (with its code or type in front when present), or compact JSON.
func errorText(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return ""
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) == nil {
		msg := text(obj["message"])
		kind := text(obj["code"])
		if kind == "" {
			kind = text(obj["type"])
		}
		switch {
		case msg != "" && kind != "":
			return kind + ": " + msg
		case msg != "":
			return msg
		}
	}
	return text(v)
}

// kb formats a byte count as "812 B", "14 KB", "2.3 MB".
func kb(n int) string {
	switch {
	case n < 1024:
		return strconv.Itoa(n) + " B"
	case n < 1024*1024:
		return strconv.Itoa(n/1024) + " KB"
	}
	return strconv.FormatFloat(float64(n)/(1024*1024), 'f', 1, 64) + " MB"
}
