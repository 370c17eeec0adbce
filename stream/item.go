package stream

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Item is one output item of a response, as accumulated from the stream.
//
// Invariants:
//   - Raw is the item as last received whole (output_item.done, else
//     output_item.added, else the terminal response), nil if the item was only
//     ever seen through deltas.
//   - dirty is set when a field below was changed by an event after Raw was
//     set; JSON then merges the accumulated fields into Raw.
//   - details, when set, was decoded from detailsOf, the Raw of the time;
//     Details decodes again when Raw is another slice.
//   - Content and Summary grow to the highest index seen; a part that was
//     never announced has an empty Type.
type Item struct {
	Index  int    // output_index
	Type   string // message, reasoning, function_call, web_search_call, …
	ID     string
	Status string // the item's own status: in_progress, completed, incomplete, failed
	Role   string
	Phase  string // commentary / final_answer, when the server marks it

	Content []Part // message text and refusals; reasoning_text parts
	Summary []Part // reasoning summary parts

	Name              string // function_call, custom_tool_call, mcp_call, mcp_approval_request
	CallID            string
	ServerLabel       string // MCP items
	ApprovalRequestID string // mcp_call after approval
	Arguments         string // function_call, mcp_call, mcp_approval_request
	Input             string // custom_tool_call
	Code              string // code_interpreter_call
	Commands          []string
	ShellOutput       []json.RawMessage // shell_call_output deltas / content
	Diff              string            // apply_patch_call operation diff
	Output            json.RawMessage   // mcp_call, shell_call_output, … as received
	Error             json.RawMessage   // mcp_call error, as received

	Progress      string // last tool progress phase: in_progress, searching, interpreting, generating, completed, failed
	PartialImages int    // partial images received
	LastImage     string // base64 of the newest partial image

	Added bool // output_item.added seen
	Done  bool // output_item.done seen

	givenCallID bool // CallID was given by runnel, not the server (settleCallIDs)

	Raw       json.RawMessage
	dirty     bool
	details   *Details            // decoded on first use; see Details
	detailsOf json.RawMessage     // the Raw details was decoded from
	sb        [4]*strings.Builder // backing stores for Arguments, Input, Code, Diff while they grow
	reps      [4]repeat           // how far their deltas repeated a value a whole copy set (textbuf.go)
	cmdSB     []*strings.Builder  // backing stores for Commands while they grow
	held      int                 // text held, as counted against the accumulator's Limit (limit.go)

	shellBytes int // the bytes of ShellOutput
}

// withoutSound is an audio part without its base64 sound (data): runnel
// keeps the transcript, never the audio.
func withoutSound(part json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(part, &m) != nil {
		return part
	}
	delete(m, "data")
	b, err := json.Marshal(m)
	if err != nil {
		return part
	}
	return b
}

// withoutSoundParts is an item's JSON with its content's parts as parts
// (their sound removed).
func withoutSoundParts(raw json.RawMessage, parts []Part) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	content := make([]json.RawMessage, len(parts))
	for i, p := range parts {
		content[i] = p.Raw
	}
	m["content"], _ = json.Marshal(content)
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}

// decodeItem decodes an item's JSON, a long one on the lean path (lean.go).
func decodeItem(raw json.RawMessage) (*Item, error) {
	if len(raw) >= leanMin {
		if it, ok := leanItemOf(raw); ok {
			return it, nil
		}
	}
	return decodeItemJSON(raw)
}

// decodeItemJSON decodes an item's JSON with encoding/json alone.
func decodeItemJSON(raw json.RawMessage) (*Item, error) {
	var w wireItem
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	it := w.item(raw)
	sound := false
	for _, c := range w.Content {
		p, err := decodePart(c)
		if err != nil {
			return nil, err
		}
		if strings.Contains(p.Type, "audio") && bytes.Contains(c, []byte(`"data"`)) {
			p.Raw, sound = withoutSound(c), true
		}
		it.Content = append(it.Content, p)
	}
	if sound {
		it.Raw = withoutSoundParts(raw, it.Content)
	}
	for _, c := range w.Summary {
		p, err := decodePart(c)
		if err != nil {
			return nil, err
		}
		it.Summary = append(it.Summary, p)
	}
	return it, nil
}

// item is the Item w's fields other than its parts decode to, raw its JSON.
func (w *wireItem) item(raw json.RawMessage) *Item {
	it := &Item{
		Type: w.Type, ID: w.ID, Status: w.Status, Role: w.Role, Phase: w.Phase,
		Name: w.Name, CallID: w.CallID, ServerLabel: w.ServerLabel,
		ApprovalRequestID: w.ApprovalRequestID, Raw: raw,
	}
	it.Arguments, it.Input, it.Code = w.Arguments.text(), w.Input.text(), w.Code.text()
	if !isJSONNull(w.Output) {
		it.Output = w.Output
	}
	if !isJSONNull(w.Error) {
		it.Error = w.Error
	}
	return it
}

// Text returns the visible text of a message: its output_text and refusal
// parts joined.
func (it *Item) Text() string {
	return joinParts(it.Content)
}

// PartsText is every part's text, a blank line between parts: input and
// output text alike, a raw part (an image, a file) as PartText says it.
// Exports and imports read a message or reasoning item's content so.
func (it *Item) PartsText() string {
	out := make([]string, 0, len(it.Content))
	for _, p := range it.Content {
		t := p.Text
		if p.Raw != nil {
			t = PartText(p.Raw)
		}
		if t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n\n")
}

// SummaryText returns the reasoning summary parts' texts.
func (it *Item) SummaryText() []string {
	out := make([]string, len(it.Summary))
	for i, p := range it.Summary {
		out[i] = p.Text
	}
	return out
}

func joinParts(ps []Part) string {
	switch len(ps) {
	case 0:
		return ""
	case 1:
		return ps[0].Text
	}
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Text)
	}
	return b.String()
}

// absorb takes in a whole item received later (added, done or terminal). The
// newer item's values win; where it is empty and the stream had already shown
// something, the streamed value stays, so nothing seen disappears.
func (it *Item) absorb(n *Item) {
	keep := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	keep(&it.Type, n.Type)
	keep(&it.ID, n.ID)
	keep(&it.Status, n.Status)
	keep(&it.Role, n.Role)
	keep(&it.Phase, n.Phase)
	keep(&it.Name, n.Name)
	keep(&it.CallID, n.CallID)
	keep(&it.ServerLabel, n.ServerLabel)
	keep(&it.ApprovalRequestID, n.ApprovalRequestID)
	// a copy without the ids the stream gave keeps them, in its JSON too
	lost := (n.ID == "" && it.ID != "") || (n.CallID == "" && it.CallID != "")
	lost = keepText(&it.Arguments, n.Arguments) || lost
	lost = keepText(&it.Input, n.Input) || lost
	lost = keepText(&it.Code, n.Code) || lost
	if n.Output != nil {
		it.Output = n.Output
	}
	if n.Error != nil {
		it.Error = n.Error
	}
	lost = absorbParts(&it.Content, n.Content) || lost
	lost = absorbParts(&it.Summary, n.Summary) || lost
	it.Raw = n.Raw
	it.dirty = lost
}

// keepText sets *dst to v unless v is empty and *dst is not; it reports
// whether the streamed value was kept over the newer one.
func keepText(dst *string, v string) bool {
	if v == "" {
		return *dst != ""
	}
	*dst = v
	return false
}

// absorbParts takes a whole item's parts in. They replace the streamed ones
// (the server's final word stands, even where it numbered the streamed
// parts differently: vLLM streams a message's only part at content_index 1
// and reasoning as one part per delta), except that a copy with no text at
// all never erases text the stream showed, nor does an empty part of a copy
// numbered as the stream was. A kept part's annotations carry
// over to the new part with the same text when it has none. It reports
// whether streamed values were kept over the newer ones.
func absorbParts(dst *[]Part, src []Part) bool {
	old := *dst
	if !partsHaveText(src) && partsHaveText(old) {
		return true // the copy lacks what was shown: keep it
	}
	if len(src) == 0 {
		return len(old) > 0
	}
	out := make([]Part, len(src))
	copy(out, src)
	lost := false
	for i := range out {
		if i < len(old) {
			out[i].rep, out[i].got = streamedSoFar(old[i], out[i].Text), old[i].got
		}
		if len(old) == len(src) && out[i].Text == "" && old[i].Text != "" {
			out[i].Text, out[i].rep, lost = old[i].Text, old[i].rep, true // numbered alike: a part the copy left empty keeps its text
		}
		if len(out[i].Annotations) > 0 {
			continue
		}
		for _, o := range old {
			if len(o.Annotations) > 0 && o.Text == out[i].Text {
				out[i].Annotations = o.Annotations
				lost = true
				break
			}
		}
	}
	*dst = out
	return lost
}

// streamedSoFar is where deltas after a whole copy with text stand
// against it, when deltas already brought the start of it (the copy came
// late: an output_item.added after the first deltas): past what they
// brought, so that deltas repeating the rest add nothing. 0 (deltas yet to
// come may repeat it all) when none came; -1 (they add text) when what
// came is not its start.
func streamedSoFar(old Part, text string) repeat {
	switch {
	case old.got == 0:
		return 0
	case old.Text != "" && strings.HasPrefix(text, old.Text):
		return repeat(len(old.Text))
	case old.Text == "" && old.got <= len(text): // dropped (DropText): the printer checks what it wrote
		return repeat(old.got)
	}
	return -1
}

func partsHaveText(ps []Part) bool {
	for _, p := range ps {
		if p.Text != "" {
			return true
		}
	}
	return false
}

// JSON returns the item as the API defines it: Raw when nothing was streamed
// on top of it, otherwise Raw (or a skeleton) with the accumulated fields
// merged in.
func (it *Item) JSON() json.RawMessage { return it.Encoded().Bytes() }

// Encoded returns the item's JSON (what JSON returns) to be written later,
// possibly on another goroutine: for an item streamed into, the values it
// encodes from (its texts shared, since strings never change; its slices
// copied), so that a writer can take a long answer's JSON a piece at a
// time (ItemJSON.WriteTo) and never hold it whole.
func (it *Item) Encoded() *ItemJSON {
	if it.Raw != nil && !it.dirty {
		return RawItemJSON(it.Raw)
	}
	return &ItemJSON{v: it.fields(), n: -1, fallback: it.Raw}
}

// fields are the values the JSON of an item streamed into encodes from:
// Raw (or a skeleton) with the accumulated fields merged in. Nothing in
// them is shared with the item but its strings.
func (it *Item) fields() map[string]any {
	m := map[string]any{}
	if it.Raw != nil {
		var base map[string]any
		if json.Unmarshal(it.Raw, &base) == nil {
			m = base
		}
	}
	set := func(k, v string) {
		if old, ok := m[k]; ok {
			if _, isString := old.(string); !isString && old != nil {
				return // the server sent an object here; keep it
			}
		}
		if v != "" {
			m[k] = v
		}
	}
	set("type", it.Type)
	set("id", it.ID)
	set("status", it.Status)
	set("role", it.Role)
	set("name", it.Name)
	set("call_id", it.CallID)
	set("server_label", it.ServerLabel)
	set("arguments", it.Arguments)
	set("input", it.Input)
	set("code", it.Code)
	if _, ok := m["arguments"]; !ok && (it.Type == "function_call" || it.Type == "mcp_call") {
		m["arguments"] = it.Arguments
	}
	if len(it.Content) > 0 {
		m["content"] = partsJSON(it.Content)
	}
	if len(it.Summary) > 0 {
		m["summary"] = partsJSON(it.Summary)
	}
	if len(it.Commands) > 0 {
		action, _ := m["action"].(map[string]any)
		if action == nil {
			action = map[string]any{}
		}
		action["commands"] = slices.Clone(it.Commands) // a delta grows one in place
		m["action"] = action
	}
	if len(it.ShellOutput) > 0 && m["output"] == nil {
		m["output"] = slices.Clone(it.ShellOutput)
	}
	if it.Output != nil {
		m["output"] = it.Output
	}
	if it.Diff != "" {
		op, _ := m["operation"].(map[string]any)
		if op == nil {
			op = map[string]any{}
		}
		op["diff"] = it.Diff
		m["operation"] = op
	}
	return m
}

func partsJSON(ps []Part) []any {
	out := make([]any, len(ps))
	for i, p := range ps {
		m := map[string]any{}
		if p.Raw != nil {
			_ = json.Unmarshal(p.Raw, &m)
		}
		typ := p.Type
		if typ == "" {
			typ = "output_text"
		}
		m["type"] = typ
		switch {
		case typ == "refusal":
			m["refusal"] = p.Text
		case strings.Contains(typ, "audio"):
			m["transcript"] = p.Text
		default:
			m["text"] = p.Text
		}
		if typ == "output_text" {
			ann := slices.Clone(p.Annotations) // an annotation is set in place
			if ann == nil {
				ann = []json.RawMessage{}
			}
			m["annotations"] = ann
		}
		out[i] = m
	}
	return out
}

// ItemFromJSON decodes a whole output item, as stored or received in a
// terminal response. The item counts as added and done.
func ItemFromJSON(raw json.RawMessage) (*Item, error) {
	it, err := decodeItem(raw)
	if err != nil {
		return nil, describeJSONError(err)
	}
	it.Added, it.Done = true, true
	return it, nil
}

// StoredItem decodes an item as stored or sent as input, leniently: an input
// message may leave out its type (it is then a message) and give its content
// as one string; a member of an unexpected JSON type reads as empty, and an
// argument, input or code that is not a string keeps its JSON text. It
// returns nil when raw is not a JSON object. The item counts as added and
// done.
func StoredItem(raw json.RawMessage) *Item {
	m := object(raw)
	if m == nil {
		return nil
	}
	s := func(k string) string { return JSONString(m[k]) }
	loose := func(k string) string {
		if t, ok := stringOf(m[k]); ok {
			return t
		}
		return JSONText(m[k])
	}
	it := &Item{
		Type: s("type"), ID: s("id"), Status: s("status"), Role: s("role"), Phase: s("phase"),
		Name: s("name"), CallID: s("call_id"), ServerLabel: s("server_label"),
		ApprovalRequestID: s("approval_request_id"),
		Arguments:         loose("arguments"), Input: loose("input"), Code: loose("code"),
		Content: looseParts(m["content"]), Summary: looseParts(m["summary"]),
		Raw: raw, Added: true, Done: true,
	}
	if it.Type == "" && m["role"] != nil {
		it.Type = "message"
	}
	if !isJSONNull(m["output"]) {
		it.Output = m["output"]
	}
	if !isJSONNull(m["error"]) {
		it.Error = m["error"]
	}
	return it
}

// looseParts reads content or summary parts: one string is one part; parts
// that are not objects are skipped.
func looseParts(raw json.RawMessage) []Part {
	if t, ok := stringOf(raw); ok {
		return []Part{{Type: "input_text", Text: t}}
	}
	var elems []loosePart
	if json.Unmarshal(raw, &elems) != nil {
		return nil
	}
	var out []Part
	for _, e := range elems {
		if e.fields == nil {
			continue
		}
		p := Part{Type: e.fields["type"].str, Text: e.fields["text"].str, Raw: e.raw}
		if p.Text == "" {
			p.Text = e.fields["refusal"].str
		}
		_ = json.Unmarshal(e.fields["annotations"].raw, &p.Annotations) // citations, for the exports; none when not an array
		out = append(out, p)
	}
	return out
}

// loosePart is one element of a content or summary array as looseParts
// reads it: its JSON (the part's Raw) and, when it is an object, its
// members (fields is nil otherwise). It holds the part's text once as JSON
// and once as a string, not a third time as a member's JSON: a stored
// answer can be as long as the response limit.
type loosePart struct {
	raw    json.RawMessage
	fields map[string]looseValue
}

func (p *loosePart) UnmarshalJSON(b []byte) error {
	p.raw = bytes.Clone(b)
	if json.Unmarshal(b, &p.fields) != nil {
		p.fields = nil
	}
	return nil
}

// looseValue is an object member as looseParts reads it: a string's value
// (what JSONString returns, "" for any other JSON type) and, for any other
// type, its JSON.
type looseValue struct {
	str string
	raw json.RawMessage
}

func (v *looseValue) UnmarshalJSON(b []byte) error {
	if s, ok := stringOf(b); ok {
		v.str = s
		return nil
	}
	v.raw = bytes.Clone(b)
	return nil
}
