package stream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// flexString decodes a JSON string, or keeps any other JSON value raw.
type flexString struct {
	s   string
	raw json.RawMessage
	set bool
}

func (f *flexString) UnmarshalJSON(b []byte) error {
	f.set = true
	if len(b) > 1 && b[0] == '"' {
		if bytes.IndexByte(b, '\\') < 0 {
			f.s = string(b[1 : len(b)-1])
			return nil
		}
		return json.Unmarshal(b, &f.s)
	}
	if string(b) == "null" {
		f.set = false
		return nil
	}
	f.raw = append(json.RawMessage(nil), b...)
	return nil
}

// text returns the string, or the raw JSON text of a non-string value.
func (f *flexString) text() string {
	if f.raw != nil {
		return string(f.raw)
	}
	return f.s
}

// wireEvent is every field any event type uses, decoded in one pass.
type wireEvent struct {
	Type            string          `json:"type"`
	Event           flexString      `json:"event"` // the name where a stream writes it here instead of type (the seed format)
	Seq             *int64          `json:"sequence_number"`
	OutputIndex     *int            `json:"output_index"`
	ItemID          string          `json:"item_id"`
	ContentIndex    int             `json:"content_index"`
	SummaryIndex    int             `json:"summary_index"`
	AnnotationIndex *int            `json:"annotation_index"`
	CommandIndex    int             `json:"command_index"`
	Delta           flexString      `json:"delta"`
	Text            *string         `json:"text"`
	Transcript      *string         `json:"transcript"` // an audio transcript's .done value
	Arguments       *string         `json:"arguments"`
	Input           *string         `json:"input"`
	Code            *string         `json:"code"`
	Diff            *string         `json:"diff"`
	Command         *string         `json:"command"`
	Refusal         *string         `json:"refusal"`
	Message         *string         `json:"message"`
	Param           *string         `json:"param"`
	Item            json.RawMessage `json:"item"`
	Part            json.RawMessage `json:"part"`
	Annotation      json.RawMessage `json:"annotation"`
	Response        json.RawMessage `json:"response"`
	Error           json.RawMessage `json:"error"`
	Output          json.RawMessage `json:"output"`
	PartialImage    string          `json:"partial_image_b64"`
	ImageIndex      int             `json:"partial_image_index"`

	// Item, Part and Response as the lean path decoded them (lean.go), nil
	// where the raw field is still to be decoded.
	item     *Item
	part     *Part
	response *Response
}

// DecodeEvent decodes one event's JSON payload. The event's name is the
// JSON's type, else its event (a stream written as objects that carry
// "event": "response.created"), else name, the SSE event name. The
// returned error describes a malformed payload; the caller adds the
// position.
func DecodeEvent(name string, data []byte, ev *Event) error {
	return decodeEvent(name, data, ev, len(data) >= leanMin)
}

// decodeEvent is DecodeEvent, trying the lean path first when lean is set
// (FuzzLeanPath sets it for any size).
func decodeEvent(name string, data []byte, ev *Event, lean bool) error {
	var w wireEvent
	if !lean || !leanEvent(data, &w) {
		w = wireEvent{}
		if err := json.Unmarshal(data, &w); err != nil {
			return describeJSONError(err)
		}
	}
	*ev = Event{Type: w.Type, AnnotationIndex: -1}
	if ev.Type == "" && w.Event.raw == nil {
		ev.Type = w.Event.s
	}
	if ev.Type == "" {
		ev.Type = name
	}
	if ev.Type == "" {
		return bareResponse(data, ev)
	}
	ev.Kind, ev.Status = kindOf(ev.Type)
	if w.Seq != nil {
		ev.Seq, ev.HasSeq = *w.Seq, true
	}
	if w.OutputIndex != nil {
		if *w.OutputIndex < 0 {
			return fmt.Errorf("output_index %d is negative", *w.OutputIndex)
		}
		ev.OutputIndex, ev.HasIndex = *w.OutputIndex, true
	}
	ev.ItemID = w.ItemID
	ev.ContentIndex, ev.SummaryIndex = w.ContentIndex, w.SummaryIndex
	ev.AnnotationIndex, ev.CommandIndex = -1, w.CommandIndex
	if w.AnnotationIndex != nil {
		ev.AnnotationIndex = *w.AnnotationIndex
		if ev.AnnotationIndex < 0 {
			return errors.New("negative annotation_index")
		}
	}
	if ev.ContentIndex < 0 || ev.SummaryIndex < 0 || ev.CommandIndex < 0 {
		return errors.New("negative part index")
	}
	ev.Delta, ev.DeltaRaw = w.Delta.s, w.Delta.raw
	if ev.Kind.IsDelta() && w.Delta.raw != nil {
		return fmt.Errorf("%s delta is not a string", ev.Type)
	}

	switch ev.Kind {
	case KindUnknown:
		ev.Raw = append(json.RawMessage(nil), data...)
	case KindCreated, KindQueued, KindInProgress, KindCompleted, KindIncomplete, KindFailed:
		if isJSONNull(w.Response) {
			return fmt.Errorf("%s has no response object", ev.Type)
		}
		r := w.response
		if r == nil {
			var err error
			if r, err = decodeResponse(w.Response); err != nil {
				return fmt.Errorf("response: %w", describeJSONError(err))
			}
		}
		ev.Response = r
	case KindError:
		ev.Error = decodeErrorEvent(&w)
	case KindItemAdded, KindItemDone:
		if isJSONNull(w.Item) {
			return fmt.Errorf("%s has no item", ev.Type)
		}
		it := w.item
		if it == nil {
			var err error
			decode := decodeItemJSON
			if lean {
				decode = decodeItem
			}
			if it, err = decode(w.Item); err != nil {
				return fmt.Errorf("item: %w", describeJSONError(err))
			}
		}
		ev.Item = it
	case KindPartAdded, KindPartDone, KindSummaryPartAdded, KindSummaryPartDone:
		switch {
		case w.part != nil:
			ev.Part = w.part
		case !isJSONNull(w.Part):
			p, err := decodePart(w.Part)
			if err != nil {
				return fmt.Errorf("part: %w", describeJSONError(err))
			}
			ev.Part = &p
		}
	case KindAnnotationAdded:
		ev.Annotation = w.Annotation
	case KindShellOutputDelta:
		ev.DeltaRaw = w.Delta.raw
		if ev.DeltaRaw == nil && w.Delta.set {
			ev.DeltaRaw, _ = json.Marshal(w.Delta.s)
		}
	case KindShellOutputDone:
		ev.Output = w.Output
	case KindPartialImage:
		ev.PartialImage, ev.ImageIndex = w.PartialImage, w.ImageIndex
	case KindAudio:
		ev.Delta = "" // the sound is not kept
	}
	ev.setDoneText(&w)
	return nil
}

// BareResponseNote is the warning for a payload that is a whole Response
// object with no event type, which some gateways send instead of a stream.
const BareResponseNote = "the server sent a whole response object instead of events; it is taken as the final response"

// bareResponse reads a payload with no type: a whole Response object
// (`"object": "response"`), as a gateway in front of vLLM answers
// `stream: true`, is the final response, with a note; anything else is
// malformed.
func bareResponse(data []byte, ev *Event) error {
	var probe struct {
		Object string `json:"object"`
		Status string `json:"status"`
	}
	if json.Unmarshal(data, &probe) != nil || probe.Object != "response" {
		return errors.New("event has no type")
	}
	r, err := decodeResponse(append(json.RawMessage(nil), data...))
	if err != nil {
		return fmt.Errorf("response: %w", describeJSONError(err))
	}
	switch probe.Status {
	case "failed":
		ev.Type = "response.failed"
	case "incomplete":
		ev.Type = "response.incomplete"
	default:
		ev.Type = "response.completed"
	}
	ev.Kind, ev.Status = kindOf(ev.Type)
	ev.Response, ev.Note = r, BareResponseNote
	return nil
}

// setDoneText picks the field that carries a .done event's value.
func (ev *Event) setDoneText(w *wireEvent) {
	var v *string
	switch ev.Kind {
	case KindTextDone, KindReasoningDone, KindSummaryDone:
		v = w.Text
		if v == nil {
			v = w.Transcript
		}
	case KindRefusalDone:
		v = w.Refusal
	case KindArgsDone, KindMCPArgsDone:
		v = w.Arguments
	case KindCustomInputDone:
		v = w.Input
	case KindCodeDone:
		v = w.Code
	case KindPatchDiffDone:
		v = w.Diff
	case KindShellCommandAdded, KindShellCommandDone:
		v = w.Command
	}
	if v != nil {
		ev.Text, ev.HasText = *v, true
	}
}

// decodeErrorEvent reads both shapes seen in the wild: the Open Responses
// top-level code/message/param, and OpenAI's nested `error` object.
func decodeErrorEvent(w *wireEvent) *ErrorInfo {
	e := &ErrorInfo{}
	if !isJSONNull(w.Error) {
		if json.Unmarshal(w.Error, e) != nil {
			var s string
			if json.Unmarshal(w.Error, &s) == nil {
				e.Message = s
			}
		}
	}
	if w.Code != nil && e.Code == "" {
		e.Code = *w.Code
	}
	if w.Message != nil && e.Message == "" {
		e.Message = *w.Message
	}
	if w.Param != nil && e.Param == "" {
		e.Param = *w.Param
	}
	return e
}

func describeJSONError(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at offset %d: %v", se.Offset, se)
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "value"
		}
		return fmt.Errorf("wrong shape: %s is a JSON %s, want %s", field, te.Value, te.Type)
	}
	return err
}

// Decoder reads typed events from a server-sent event stream. It is shaped
// like bufio.Scanner: Next advances, Event reads the current event, Err holds
// the sticky read error. Malformed events are not errors of the Decoder: they
// come out as KindInvalid events carrying their position, and decoding goes on.
type Decoder struct {
	sc         *Scanner
	ev         Event
	lastItemID string    // reused by the fast path so a repeated id is not allocated again
	secrets    *Redactor // applied to every event's JSON before it is decoded
	audioSaid  bool      // the first audio event carried AudioSkippedNote
}

// AudioSkippedNote is said once per stream that carries sound: runnel
// shows the transcript as text and keeps none of the audio.
const AudioSkippedNote = "the answer came with audio, which runnel does not play: its transcript is shown as text and the sound was skipped"

// SetRedactor makes the decoder replace every secret in r in each event's
// JSON before decoding it, so no decoded field holds one. (A secret split
// across two deltas is the reader's to catch: see deltaGuard.)
func (d *Decoder) SetRedactor(r *Redactor) { d.secrets = r }

// NewDecoder returns a Decoder reading SSE from r.
func NewDecoder(r io.Reader) *Decoder { return &Decoder{sc: NewScanner(r)} }

// Next advances to the next event, returning false at the end of the stream
// or on a read error.
func (d *Decoder) Next() bool {
	if !d.sc.Scan() {
		return false
	}
	f := d.sc.Frame()
	if d.secrets != nil && f.Err == nil {
		f.Data = d.secrets.JSON(f.Data)
	}
	switch {
	case f.Err != nil:
		d.ev = Event{Kind: KindInvalid, Type: f.Name, Err: f.Err}
	case string(f.Data) == "[DONE]":
		d.ev = Event{Kind: KindDone, Type: "[DONE]"}
	case fastDecode(f.Data, &d.ev, d.lastItemID):
		d.lastItemID = d.ev.ItemID
	default:
		if err := DecodeEvent(f.Name, f.Data, &d.ev); err != nil {
			raw := f.Data
			if len(raw) > 512 {
				raw = raw[:512]
			}
			d.ev = Event{Kind: KindInvalid, Type: f.Name, Err: err, Raw: append(json.RawMessage(nil), raw...)}
		}
	}
	d.ev.Num, d.ev.Offset = f.Num, f.Offset
	if d.ev.Kind == KindAudio && !d.audioSaid {
		d.audioSaid, d.ev.Note = true, AudioSkippedNote
	}
	if d.ev.Err != nil {
		d.ev.Err = &PositionError{Num: f.Num, Offset: f.Offset, Err: d.ev.Err}
	}
	return true
}

// Event returns the current event. It stays valid until the next call to Next.
func (d *Decoder) Event() *Event { return &d.ev }

// Err returns the first read error, nil at a clean end of input.
func (d *Decoder) Err() error { return d.sc.Err() }

// PositionError is a malformed event's problem with where it happened.
type PositionError struct {
	Num    int
	Offset int64
	Err    error
}

func (e *PositionError) Error() string {
	return fmt.Sprintf("event %d at byte %d: %v — skipped", e.Num, e.Offset, e.Err)
}

func (e *PositionError) Unwrap() error { return e.Err }
