package stream

// This file is the secret set every text runnel shows or stores passes
// through: the API key, configured header values, MCP authorization values
// and the like. The client applies it to everything a server sends (error
// bodies, every event's JSON, deltas split across events); package tools
// applies it to tool output; the session journal applies it before writing.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// MinSecretLen is the shortest value a Redactor hides. Shorter values
// ("1", "true", "json") would blank out ordinary text wherever they occur,
// and hide little: no real key or token is that short.
const MinSecretLen = 8

// Redacted replaces every secret value.
const Redacted = "[redacted]"

// Redactor is a set of secret values, and replaces each occurrence of one
// in a text by Redacted: also where what Sanitize removes (a control byte,
// an escape sequence, a format character such as a zero-width space or a
// bidi mark) stands inside it, so that no cleaning of a redacted text puts a
// secret back together (see redacthidden.go). A nil *Redactor redacts
// nothing. It is safe for
// concurrent use; values are only ever added.
//
// Invariants: every value in secrets is at least MinSecretLen bytes, holds
// no leading or trailing space, and appears once; secrets is sorted longest
// first, so a secret that contains another is replaced whole.
type Redactor struct {
	mu      sync.RWMutex
	secrets []string // replaced, never changed in place: list hands it out
	quotes  bool     // a secret holds '"' or '\\': \" and \\ escapes may hide one
	chars   runeSet  // the characters the secrets hold
}

// runeSet is a set of characters: the ASCII ones a bit each, any other in
// wide.
type runeSet struct {
	ascii [2]uint64
	wide  bool
}

func (s *runeSet) add(v string) {
	for _, c := range v {
		if c < utf8.RuneSelf {
			s.ascii[c>>6] |= 1 << (c & 63)
		} else {
			s.wide = true
		}
	}
}

func (s *runeSet) has(c rune) bool {
	if c < utf8.RuneSelf {
		return s.ascii[c>>6]&(1<<(c&63)) != 0
	}
	return s.wide
}

// NewRedactor returns a set holding values (see Add).
func NewRedactor(values ...string) *Redactor {
	r := &Redactor{}
	r.Add(values...)
	return r
}

// Add puts values in the set. Values shorter than MinSecretLen (after
// trimming space) are ignored. A value that holds something Sanitize
// removes is added as Sanitize leaves it too.
func (r *Redactor) Add(values ...string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	next := r.secrets
	for _, v := range values {
		for _, v := range [2]string{strings.TrimSpace(v), strings.TrimSpace(Sanitize(v))} {
			if len(v) < MinSecretLen || slices.Contains(next, v) {
				continue
			}
			if len(next) == len(r.secrets) { // copy on write: readers may hold the old slice
				next = slices.Clone(r.secrets)
			}
			next = append(next, v)
			r.quotes = r.quotes || strings.ContainsAny(v, `"\\`)
			r.chars.add(v)
		}
	}
	if len(next) != len(r.secrets) {
		slices.SortStableFunc(next, func(a, b string) int { return len(b) - len(a) })
		r.secrets = next
	}
}

// Len is the number of secrets held.
func (r *Redactor) Len() int {
	if r == nil {
		return 0
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.secrets)
}

func (r *Redactor) list() []string {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.secrets
}

// escapes are the JSON escapes that may stand for a character of a secret,
// or for one Sanitize removes from inside a secret: \u, \/, \r, \b and \f
// always, \" and \\ only when a secret holds one. (\n and \t stand for
// characters that no secret holds and Sanitize keeps.) It also returns the
// characters the secrets hold, for hides.
func (r *Redactor) escapes() (string, runeSet) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.quotes {
		return `u/rbf"\\`, r.chars
	}
	return "u/rbf", r.chars
}

// hides reports whether the escape at e (its backslash) may stand for a
// character of a secret (in chars) or for one Sanitize removes: any in esc,
// except a \u escape of a character that no secret holds and Sanitize keeps
// (\u003c, \u00e9, \u2014 of a server that escapes HTML or all that is not
// ASCII), for the same reason as \n. A string whose escapes hide nothing
// holds a secret only as it stands, where JSON's first pass replaced it.
func hides(e []byte, esc string, chars *runeSet) bool {
	if len(e) < 2 || strings.IndexByte(esc, e[1]) < 0 {
		return false
	}
	if e[1] != 'u' || len(e) < 6 {
		return true
	}
	c := hex4(e[2:6])
	if c < 0 || utf16.IsSurrogate(c) || chars.has(c) {
		return true
	}
	var b [utf8.UTFMax]byte
	return firstUnsafe(string(utf8.AppendRune(b[:0], c))) >= 0
}

// String returns s with every secret replaced, also one with what Sanitize
// removes inside it (the whole stretch goes).
func (r *Redactor) String(s string) string {
	secrets := r.list()
	for _, v := range secrets {
		if strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, Redacted)
		}
	}
	if len(secrets) > 0 && firstUnsafe(s) >= 0 {
		s = redactHidden(s, secrets)
	}
	return s
}

// Error returns err with its message redacted, or err itself when it holds
// no secret (so errors.Is and errors.As still see through it).
func (r *Redactor) Error(err error) error {
	if err == nil || r.Len() == 0 {
		return err
	}
	msg := err.Error()
	if red := r.String(msg); red != msg {
		return redactedError{msg: red, err: err}
	}
	return err
}

// redactedError is an error whose message had a secret in it. Unwrap keeps
// errors.As working for the error's type (whose own message is not
// redacted: use this one's).
type redactedError struct {
	msg string
	err error
}

func (e redactedError) Error() string { return e.msg }
func (e redactedError) Unwrap() error { return e.err }

// JSON returns data, a JSON text, with every secret replaced in its
// strings, also where the secret is written with escapes (\u0073k-…, \/):
// such a string is decoded, redacted and written back. data itself is
// returned when it holds no secret.
func (r *Redactor) JSON(data []byte) []byte {
	secrets := r.list()
	if len(secrets) == 0 {
		return data
	}
	out, replaced := data, false
	for _, v := range secrets {
		if bytes.Contains(out, []byte(v)) {
			out, replaced = bytes.ReplaceAll(out, []byte(v), []byte(Redacted)), true
		}
	}
	if hasRemovable(out) {
		// raw bytes Sanitize removes (a format character in a string; a
		// control byte or escape in a body that is not JSON)
		if red := redactHidden(string(out), secrets); red != string(out) {
			out, replaced = []byte(red), true
		}
	}
	if replaced && !json.Valid(out) && json.Valid(data) {
		// A secret stood outside a string (a number that is also a header
		// value): replace inside strings only.
		return r.literals(data, true)
	}
	if bytes.IndexByte(out, '\\') < 0 {
		return out
	}
	return r.literals(out, false)
}

// literals rewrites the JSON strings in data that hold a secret: those
// with an escape that may hide one (decoded, redacted, encoded again), and
// with all, every other string too.
func (r *Redactor) literals(data []byte, all bool) []byte {
	esc, chars := r.escapes()
	var b []byte
	last := 0
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		j, escaped := i+1, false
		for ; j < len(data) && data[j] != '"'; j++ {
			if data[j] == '\\' {
				if !escaped && hides(data[j:], esc, &chars) {
					escaped = true
				}
				j++
			}
		}
		if j >= len(data) {
			break
		}
		lit := data[i : j+1]
		var enc []byte
		switch {
		case escaped:
			if s, ok := unquote(lit); ok {
				if red := r.String(s); red != s {
					enc, _ = json.Marshal(red)
				}
			}
		case all:
			if red := r.String(string(lit)); red != string(lit) {
				enc = []byte(red)
			}
		}
		if enc != nil {
			b = append(append(b, data[last:i]...), enc...)
			last = j + 1
		}
		i = j
	}
	if b == nil {
		return data
	}
	return append(b, data[last:]...)
}

// maxHiddenHeld bounds what Sanitize removes inside a held text (see
// split): an escape sequence that never ends must not hold a stream's
// text back for ever, nor make each delta's check longer than the last.
const maxHiddenHeld = 4 << 10

// split cuts text, redacted, into what can be passed on now and what is
// held back: its longest suffix that is the start of a secret (not all of
// it), text that may become a secret with what streams next. Where text
// holds something Sanitize removes, that is skipped (see heldHidden):
// "sk-pr" + ZWSP, or "sk-pr" + an unfinished escape sequence, is held. A
// held suffix with more than maxHiddenHeld bytes of such things in it is
// held short (see collapseHeld), which shows the same and matches the same.
func (r *Redactor) split(text string) (now, held string) {
	if firstUnsafe(text) >= 0 {
		n, start := heldHidden(text, r.list())
		now, held = text[:len(text)-n], text[len(text)-n:]
		if n-len(start) > maxHiddenHeld {
			held = collapseHeld(held, start)
		}
		return now, held
	}
	n := r.heldSuffix(text)
	return text[:len(text)-n], text[len(text)-n:]
}

// heldSuffix is split's held length for text that Sanitize leaves as it
// is.
func (r *Redactor) heldSuffix(s string) int {
	longest := 0
	for _, v := range r.list() {
		// The first start of v's prefix in the last len(v)-1 bytes gives
		// the longest suffix.
		for i := max(len(s)-len(v)+1, 0); i < len(s)-longest; i++ {
			if s[i] == v[0] && strings.HasPrefix(v, s[i:]) {
				longest = len(s) - i
				break
			}
		}
	}
	return longest
}

// deltaGuard redacts streamed deltas where a secret is split across two or
// more of them: the end of a delta that could be the start of a secret is
// held back and put in front of the next delta of the same field, or let
// go before the field's .done event, the item's end, or the stream's end.
//
// Invariants: every held text is non-empty and a proper prefix of a secret
// (as the set was when it was held); keys are removed when let go.
type deltaGuard struct {
	r    *Redactor
	held map[deltaKey]string
	keys []deltaKey // held keys in the order first held, for a stable flush
}

// deltaKey names one streamed field: the delta's kind and where it goes.
type deltaKey struct {
	kind          Kind
	output        int
	item          string
	content, summ int
}

func keyOf(ev *Event) deltaKey {
	return deltaKey{ev.Kind, ev.OutputIndex, ev.ItemID, ev.ContentIndex, ev.SummaryIndex}
}

// doneKind is the .done kind that ends a delta kind's field.
var doneKind = map[Kind]Kind{
	KindTextDelta: KindTextDone, KindRefusalDelta: KindRefusalDone, KindReasoningDelta: KindReasoningDone,
	KindSummaryDelta: KindSummaryDone, KindArgsDelta: KindArgsDone, KindCustomInputDelta: KindCustomInputDone,
	KindMCPArgsDelta: KindMCPArgsDone, KindCodeDelta: KindCodeDone, KindShellCommandDelta: KindShellCommandDone,
	KindPatchDiffDelta: KindPatchDiffDone,
}

// filter redacts ev in place and returns the events to pass on before it:
// held text let go, as deltas. It allocates only when it lets text go.
func (g *deltaGuard) filter(ev *Event) []Event {
	if g.r.Len() == 0 {
		return nil
	}
	if ev.Kind.IsDelta() {
		if g.held == nil {
			g.held = map[deltaKey]string{}
		}
		k := keyOf(ev)
		now, held := g.r.split(g.r.String(g.held[k] + ev.Delta))
		g.release(k)
		if held != "" {
			g.held[k] = held
			g.keys = append(g.keys, k)
		}
		ev.Delta = now
		return nil
	}
	var out []Event
	for i := 0; i < len(g.keys); {
		if k := g.keys[i]; ends(k, ev) {
			out = append(out, g.letGo(k, *ev))
			continue // letGo removed keys[i]
		}
		i++
	}
	return out
}

// ends reports whether ev ends the field k: its .done event, its item's
// end, or the response's.
func ends(k deltaKey, ev *Event) bool {
	switch {
	case ev.Kind == doneKind[k.kind]:
		return ev.OutputIndex == k.output && ev.ContentIndex == k.content && ev.SummaryIndex == k.summ &&
			(ev.ItemID == "" || k.item == "" || ev.ItemID == k.item)
	case ev.Kind == KindItemDone:
		return !ev.HasIndex || ev.OutputIndex == k.output
	}
	return ev.Kind.IsTerminal() || ev.Kind == KindError || ev.Kind == KindDone
}

// letGo removes k's held text and returns it as a delta event shaped like
// the field's deltas, numbered as ev.
func (g *deltaGuard) letGo(k deltaKey, ev Event) Event {
	d := Event{
		Kind: k.kind, Type: deltaType[k.kind], OutputIndex: k.output, HasIndex: true, ItemID: k.item,
		ContentIndex: k.content, SummaryIndex: k.summ, AnnotationIndex: -1,
		Delta: g.held[k], Num: ev.Num, Offset: ev.Offset,
	}
	g.release(k)
	return d
}

// flush lets every held text go, for the end of the stream.
func (g *deltaGuard) flush() []Event {
	var out []Event
	for len(g.keys) > 0 {
		out = append(out, g.letGo(g.keys[0], Event{}))
	}
	return out
}

func (g *deltaGuard) release(k deltaKey) {
	if _, ok := g.held[k]; !ok {
		return
	}
	delete(g.held, k)
	g.keys = slices.DeleteFunc(g.keys, func(x deltaKey) bool { return x == k })
}

// deltaType is the type string of each delta kind, for a delta the guard
// lets go on its own.
var deltaType = map[Kind]string{
	KindTextDelta: "response.output_text.delta", KindRefusalDelta: "response.refusal.delta",
	KindReasoningDelta: "response.reasoning_text.delta", KindSummaryDelta: "response.reasoning_summary_text.delta",
	KindArgsDelta: "response.function_call_arguments.delta", KindCustomInputDelta: "response.custom_tool_call_input.delta",
	KindMCPArgsDelta: "response.mcp_call_arguments.delta", KindCodeDelta: "response.code_interpreter_call_code.delta",
	KindShellCommandDelta: "response.shell_call_command.delta", KindPatchDiffDelta: "response.apply_patch_call_operation_diff.delta",
}

// TextGuard redacts one text that arrives in pieces (a command's output):
// the end of a piece that could be the start of a secret is held back
// until the next piece shows whether it is one. Not safe for concurrent
// use: one guard per text.
type TextGuard struct {
	r    *Redactor
	held string
}

// Guard returns a guard for one text.
func (r *Redactor) Guard() *TextGuard { return &TextGuard{r: r} }

// Next returns what of s (after what was held) can be shown now, redacted.
func (g *TextGuard) Next(s string) string {
	if g.r.Len() == 0 {
		return s
	}
	now, held := g.r.split(g.r.String(g.held + s))
	g.held = held
	return now
}
