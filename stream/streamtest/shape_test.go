package streamtest

// The shape of a stream, for comparing a personality's output with a real
// server's recording: the framing, and per event its type, its top-level
// keys, its item's type and keys, and its response object's keys.

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// streamShape is what a stream looks like, text aside.
type streamShape struct {
	named  bool // every event has an event: line
	done   bool // the stream ends with data: [DONE]
	events []eventShape
	raw    []map[string]any // each event's payload, [DONE] left out
}

type eventShape struct {
	Type     string // "" when the payload has none
	Keys     string // the payload's keys, sorted, joined with ","
	ItemType string // the item's type, for item events
	ItemKeys string
	RespKeys string // the response object's keys (or the payload's own, for a bare response)
}

// shapeOf reads sse's shape. Runs of one delta type collapse into one event:
// how many tokens came is the text's business, not the shape's.
func shapeOf(sse []byte) streamShape {
	sh := streamShape{named: true}
	for _, ev := range SplitEvents(sse) {
		if len(bytes.TrimSpace(ev)) == 0 {
			continue
		}
		if !bytes.Contains(ev, []byte("event:")) {
			sh.named = false
		}
		data := eventData(ev)
		if string(bytes.TrimSpace(data)) == "[DONE]" {
			sh.done = true
			continue
		}
		var m map[string]any
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		sh.raw = append(sh.raw, m)
		s := eventShape{Keys: keysOf(m)}
		s.Type, _ = m["type"].(string)
		if it, ok := m["item"].(map[string]any); ok {
			s.ItemType, _ = it["type"].(string)
			s.ItemKeys = keysOf(it)
		}
		if r, ok := m["response"].(map[string]any); ok {
			s.RespKeys = keysOf(r)
		} else if m["object"] == "response" {
			s.RespKeys = s.Keys
		}
		if n := len(sh.events); n > 0 && strings.HasSuffix(s.Type, ".delta") && sh.events[n-1].Type == s.Type {
			continue
		}
		sh.events = append(sh.events, s)
	}
	return sh
}

func keysOf(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// types is the event type sequence, with item types in brackets.
func (sh streamShape) types() []string {
	var out []string
	for _, e := range sh.events {
		t := e.Type
		if e.ItemType != "" {
			t += "[" + e.ItemType + "]"
		}
		out = append(out, t)
	}
	return out
}

// withKey returns the payloads (at any depth) that have key.
func (sh streamShape) withKey(key string) []string {
	var out []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if k == key {
					out = append(out, path+"."+k)
				}
				walk(path+"."+k, c)
			}
		case []any:
			for _, c := range x {
				walk(path+"[]", c)
			}
		}
	}
	for _, m := range sh.raw {
		t, _ := m["type"].(string)
		walk(t, m)
	}
	return out
}

// ofType returns the payloads of that event type.
func (sh streamShape) ofType(typ string) []map[string]any {
	var out []map[string]any
	for _, m := range sh.raw {
		if m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}
