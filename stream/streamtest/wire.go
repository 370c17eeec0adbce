package streamtest

// This file holds what the personalities' renderers share: the input they
// render (rendering), what they give back (rendered), the SSE writer that
// frames events as a server does, the deterministic id source, and the
// splitting of text into deltas.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// rendering is one response for a personality to render.
type rendering struct {
	Model    string   // the request's model
	Previous string   // the request's previous_response_id, "" for none
	Store    bool     // the request's store (true when it sent none)
	Include  []string // the request's include
	Out      Output
	ids      *idSource
}

// includes reports whether the request asked for the include value v.
func (r *rendering) includes(v string) bool {
	for _, x := range r.Include {
		if x == v {
			return true
		}
	}
	return false
}

// nullable is s, or JSON null for "".
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// rendered is a rendered response: the bytes sent, the response id, and the
// output items as the server keeps them (its terminal response's, which may
// differ from the streamed ones).
type rendered struct {
	SSE    []byte
	ID     string
	Output []json.RawMessage
}

// obj is a JSON object under construction. Go marshals its keys sorted, as
// Ollama's Go server does; no client depends on key order.
type obj = map[string]any

// sseWriter writes events in a server's framing.
//
// Invariants: seq < 0 means no event carries a sequence_number; otherwise
// the next event carries seq, and seq grows by one per event.
type sseWriter struct {
	b     bytes.Buffer
	named bool // an "event: TYPE" line before the data line
	seq   int
}

// emit writes one event, adding its type and, when numbered, its
// sequence_number.
func (w *sseWriter) emit(typ string, ev obj) {
	ev["type"] = typ
	if w.seq >= 0 {
		ev["sequence_number"] = w.seq
		w.seq++
	}
	w.data(ev, typ)
}

// data writes one data line holding v (marshalled unless it is a string),
// after an event line when the framing names events and name is not "".
func (w *sseWriter) data(v any, name string) {
	var payload []byte
	if s, ok := v.(string); ok {
		payload = []byte(s)
	} else {
		payload = mustJSON(v)
	}
	if w.named && name != "" {
		fmt.Fprintf(&w.b, "event: %s\n", name)
	}
	w.b.WriteString("data: ")
	w.b.Write(payload)
	w.b.WriteString("\n\n")
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("streamtest: marshal: " + err.Error()) // maps of strings, numbers and slices always marshal
	}
	return b
}

// raws marshals each item.
func raws(items []obj) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	for i, it := range items {
		out[i] = mustJSON(it)
	}
	return out
}

// anys turns items into a JSON array value.
func anys(items []obj) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it
	}
	return out
}

// pieces splits text into deltas after each space, as tokens come.
func pieces(text string) []string {
	var out []string
	for _, p := range strings.SplitAfter(text, " ") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// usage is a usage block for the output.
func usage(out Output) obj {
	n := len(pieces(out.Reasoning)) + len(pieces(out.Text))
	for _, c := range out.Calls {
		n += len(pieces(c.Arguments))
	}
	return obj{"input_tokens": 20, "input_tokens_details": obj{"cached_tokens": 0}, "output_tokens": n,
		"output_tokens_details": obj{"reasoning_tokens": len(pieces(out.Reasoning))}, "total_tokens": 20 + n}
}

// idSource makes deterministic ids in each server's style.
//
// Invariants: every call advances state, so ids never repeat within one
// source (the alphabets and lengths used are large enough).
type idSource struct {
	seed  uint64
	state uint64
}

// next is a splitmix64 step.
func (g *idSource) next() uint64 {
	g.state += 0x9e3779b97f4a7c15 + g.seed
	z := g.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

const (
	hexDigits   = "0123456789abcdef"
	decDigits   = "0123456789"
	lowerAlnum  = "abcdefghijklmnopqrstuvwxyz0123456789"
	mixedAlnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	firstNonZro = "123456789"
)

// token is n characters from alphabet.
func (g *idSource) token(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.next()%uint64(len(alphabet))]
	}
	return string(b)
}

// number is a decimal of n digits with no leading zero, as Ollama's ids.
func (g *idSource) number(n int) string {
	return g.token(firstNonZro, 1) + g.token(decDigits, n-1)
}

// uuid7ish is a UUID-shaped id, as the gateway's.
func (g *idSource) uuid7ish() string {
	return "019f" + g.token(hexDigits, 4) + "-" + g.token(hexDigits, 4) + "-7" + g.token(hexDigits, 3) + "-" +
		g.token("89ab", 1) + g.token(hexDigits, 3) + "-" + g.token(hexDigits, 12)
}
