package tools

// This file holds a listing's page (tools/list, prompts/list,
// resources/list) to its count as it streams in, before the SDK decodes
// it: one page under mcp_message_bytes can hold a hundred thousand tiny
// tools, which the SDK decodes whole (each schema into a map, about 35
// times the page) before runnel sees the first. runnel's own readers of a
// server (its stdout, mcpstdio.go; every HTTP body, listingTransport)
// follow each message's JSON byte by byte (jsonFollow) and drop the
// entries of result.tools (result.prompts, result.resources) past the
// bound, with the comma before the first of them: the SDK reads a page
// of at most the bound's entries, and the listing says in its one line
// that the server offers more (listingCuts).

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync/atomic"

	"runnel/stream"
)

// The listings whose pages are counted, by the key of their entries in
// the page's result.
const (
	listTools = iota
	listPrompts
	listResources
	listKinds
)

var listKeys = [listKinds]string{"tools", "prompts", "resources"}

// listBound is how many entries of a listing's page runnel reads: the
// table's mcp_tools, mcp_prompts or mcp_resources.
func listBound(kind int) int {
	lim := stream.Limits()
	return [listKinds]int{lim.MCPTools, lim.MCPPrompts, lim.MCPResources}[kind]
}

// listingCuts records the listings whose pages a connection's reader cut
// at their bound. A nil *listingCuts records nothing.
type listingCuts struct{ cut [listKinds]atomic.Bool }

func (c *listingCuts) set(kind int) {
	if c != nil {
		c.cut[kind].Store(true)
	}
}

// was reports whether a page of kind was cut.
func (c *listingCuts) was(kind int) bool { return c != nil && c.cut[kind].Load() }

// pending: what the value after the key just read is, when it matters.
const (
	pendNone   = 0
	pendResult = 1
	pendList   = 2 // pendList+kind: the entries of that listing
)

// jsonFollow follows the JSON text of a server's messages (one value
// after another, a batch being an array of them) one byte at a time, and
// tells which bytes to drop: those of a listing's entries past its bound.
// It reads strings, escapes and nesting, so brackets and quotes inside
// strings are text, and it matches keys as the SDK's decoder does (escapes
// undone; case folded, which only widens the match).
//
// Invariants: depth is the number of containers open (0 between
// messages); objs has bit d set when the container at depth d (d < 64) is
// an object; msgAt is the depth of the message objects (1, or 2 in a
// batch), resultAt that of the result object being read and listAt that
// of the listing array being read (0: none); drop is set only while
// listAt is; entries counts the entries of that array begun so far.
type jsonFollow struct {
	cuts *listingCuts

	depth                int
	objs                 uint64
	inStr, esc           bool
	wantKey, inKey       bool
	key                  [64]byte // the key being read, as it is written (escapes and all)
	keyLen               int      // bytes of it; past len(key): no key of interest
	msgAt, resultAt      int
	listAt, kind, bound  int
	pending              int
	entries              int
	entryNext, drop, cut bool
}

// reset forgets the message being read: a new one starts.
func (f *jsonFollow) reset() {
	*f = jsonFollow{cuts: f.cuts}
}

// between reports whether f is between messages.
func (f *jsonFollow) between() bool { return f.depth == 0 && !f.inStr }

// step follows b and reports whether to keep it: false for the bytes of
// a listing's entries past its bound and the comma before the first.
func (f *jsonFollow) step(b byte) bool {
	keep := !f.drop
	if f.inStr {
		switch {
		case f.esc:
			f.esc = false
		case b == '\\':
			f.esc = true
		case b == '"':
			f.inStr = false
			if f.inKey {
				f.inKey = false
				f.endKey()
			}
			return keep
		}
		if f.inKey {
			if f.keyLen < len(f.key) {
				f.key[f.keyLen] = b
			}
			f.keyLen++
		}
		return keep
	}
	switch b {
	case ' ', '\t', '\n', '\r', ':':
	case '"':
		if f.wantKey {
			f.wantKey, f.inKey, f.keyLen = false, true, 0
		} else {
			f.value()
		}
		f.inStr = true
	case ',':
		if f.listAt > 0 && f.depth == f.listAt {
			if !f.drop && f.entries >= f.bound {
				f.drop, keep = true, false // this comma and the entries after it
				if !f.cut {
					f.cut = true
					f.cuts.set(f.kind)
				}
			}
			f.entryNext = true
		}
		f.wantKey = f.obj(f.depth)
	case '{', '[':
		pend := f.pending
		f.value()
		f.depth++
		if f.depth < 64 {
			f.objs &^= 1 << f.depth
			if b == '{' {
				f.objs |= 1 << f.depth
			}
		}
		f.wantKey = b == '{'
		switch {
		case f.depth == 1:
			f.msgAt = 1
			if b == '[' {
				f.msgAt = 2 // a batch: its messages are one level in
			}
		case pend == pendResult && b == '{':
			f.resultAt = f.depth
		case pend >= pendList && b == '[':
			f.listAt, f.kind = f.depth, pend-pendList
			f.bound = listBound(f.kind)
			f.entries, f.entryNext, f.cut = 0, true, false
		}
	case '}', ']':
		if f.listAt > 0 && f.depth == f.listAt {
			f.listAt, f.drop, keep = 0, false, true
		}
		if f.depth == f.resultAt {
			f.resultAt = 0
		}
		f.depth--
		f.pending = pendNone
		f.wantKey = false
		if f.depth <= 0 {
			f.reset()
		}
	default:
		f.value() // a number, true, false or null
	}
	return keep
}

// value notes that a value starts (or goes on) at the current depth: in a
// listing's array, after its '[' or a comma, it is the next entry.
func (f *jsonFollow) value() {
	f.pending = pendNone
	if f.entryNext && f.depth == f.listAt {
		f.entryNext = false
		f.entries++
	}
}

func (f *jsonFollow) obj(depth int) bool {
	return depth > 0 && depth < 64 && f.objs&(1<<depth) != 0
}

// endKey notes which key was read, where it matters: "result" in a
// message, a listing's key in its result.
func (f *jsonFollow) endKey() {
	f.pending = pendNone
	switch {
	case f.depth == f.msgAt:
		if f.keyIs("result") {
			f.pending = pendResult
		}
	case f.resultAt > 0 && f.depth == f.resultAt:
		for kind, k := range listKeys {
			if f.keyIs(k) {
				f.pending = pendList + kind
			}
		}
	}
}

// keyIs reports whether the key just read is name, escapes undone and
// case folded. A key of interest written with every letter escaped
// (\u0072…) is at most 54 bytes; a longer one is none of them.
func (f *jsonFollow) keyIs(name string) bool {
	if f.keyLen > len(f.key) {
		return false
	}
	raw := f.key[:f.keyLen]
	if !strings.ContainsRune(string(raw), '\\') {
		return strings.EqualFold(string(raw), name)
	}
	var s string
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	return json.Unmarshal(q, &s) == nil && strings.EqualFold(s, name)
}

// filter follows p through f, moves the bytes to keep to its front and
// returns how many there are.
func (f *jsonFollow) filter(p []byte) int {
	w := 0
	for _, b := range p {
		if f.step(b) {
			p[w] = b
			w++
		}
	}
	return w
}

// listingTransport reads every response body of an MCP server through a
// listingBody: a listing's page over streamable HTTP (a JSON body, or an
// event of a stream) or SSE is cut at its bound before the SDK reads it.
// It wraps the HTTP policy's client transport, so the policy's bounds
// count the bytes the server sent.
type listingTransport struct {
	base http.RoundTripper
	cuts *listingCuts
}

func (t listingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	// an application/json body is one message; anything else the SDK
	// reads as an event stream, if it reads it (the SSE transport's
	// stream does not look at its content type)
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	b := &listingBody{rc: resp.Body, f: jsonFollow{cuts: t.cuts}, events: mt != "application/json", onlyCR: true}
	resp.Body, resp.ContentLength = b, -1
	return resp, nil
}

// listingBody is a response body read through a jsonFollow: the whole
// body, or the data lines of each event of an event stream (framed as
// the SDK frames them: lines end at "\n", a line empty but for "\r" ends
// an event, a field is named up to its first ':').
//
// Invariants: field holds the line's field name until its first ':'
// (value is set after it), data is set in a data line's value; onlyCR is
// set while the line holds nothing but "\r".
type listingBody struct {
	rc     io.ReadCloser
	f      jsonFollow
	events bool

	value, data, onlyCR bool
	field               [5]byte
	fieldLen            int
}

func (b *listingBody) Read(p []byte) (int, error) {
	for {
		n, err := b.rc.Read(p)
		w := 0
		if !b.events {
			w = b.f.filter(p[:n])
		} else {
			for _, c := range p[:n] {
				if b.eventByte(c) {
					p[w] = c
					w++
				}
			}
		}
		if w > 0 || n == 0 || err != nil {
			return w, err // a read whose bytes were all dropped reads on
		}
	}
}

// eventByte follows one byte of an event stream and reports whether to
// keep it.
func (b *listingBody) eventByte(c byte) bool {
	if c == '\n' {
		if b.onlyCR {
			b.f.reset() // a blank line: the event ended
		}
		b.value, b.data, b.onlyCR, b.fieldLen = false, false, true, 0
		return true
	}
	if c != '\r' {
		b.onlyCR = false
	}
	switch {
	case b.data:
		return b.f.step(c)
	case b.value:
	case c == ':':
		b.value = true
		b.data = b.fieldLen == 4 && string(b.field[:4]) == "data"
	default:
		if b.fieldLen < len(b.field) {
			b.field[b.fieldLen] = c
		}
		b.fieldLen++
	}
	return true
}

func (b *listingBody) Close() error { return b.rc.Close() }
