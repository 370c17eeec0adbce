package stream

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Hostile orders of the events of every recorded stream: each must end
// with the same items, each text once, and what Apply leaves in the deltas
// (what a printer writes as they pass) must be each text once too.

// streamedText replays data and returns, per item, the text the message
// deltas said they added after Apply (Event.Delta): what a printer that
// writes deltas as they pass writes.
func streamedText(t *testing.T, data []byte, drop bool) (*Accumulator, map[*Item]string) {
	t.Helper()
	acc := &Accumulator{DropText: drop}
	got := map[*Item]string{}
	d := NewDecoder(strings.NewReader(string(data)))
	for d.Next() {
		ev := d.Event()
		it, _ := acc.Apply(ev)
		if it != nil && (ev.Kind == KindTextDelta || ev.Kind == KindRefusalDelta) {
			got[it] += ev.Delta
		}
	}
	acc.Finish()
	return acc, got
}

// printed is what the deltas added per response and item, in order.
func printed(acc *Accumulator, streamed map[*Item]string) []string {
	var out []string
	for _, s := range acc.Responses() {
		for _, it := range s.Items {
			out = append(out, streamed[it])
		}
		out = append(out, "---")
	}
	return out
}

// short is s for a failure message: its start and its length.
func short(s string) string {
	if len(s) > 60 {
		return strconv.Quote(s[:60]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
	}
	return strconv.Quote(s)
}

// TestEveryFixtureDeltaBeforeCreated: a stream whose first text delta
// comes before response.created (moved up front) has one response, not a
// phantom one with no id beside the real one, and each text once.
func TestEveryFixtureDeltaBeforeCreated(t *testing.T) {
	t.Parallel() // a sweep of every recorded stream; it shares nothing
	moved := 0
	for path, exp := range sweptStreams(t) {
		data, fs := recorded(t, path)
		var first map[string]any
		body := fs.rewrite(t, func(m map[string]any) []map[string]any {
			if first == nil && m["type"] == "response.output_text.delta" {
				first = m
				return nil
			}
			return []map[string]any{m}
		})
		if first == nil || len(exp) != 1 {
			continue
		}
		moved++
		b, _ := json.Marshal(first)
		body = append([]byte("data: "+string(b)+"\n\n"), body...)
		t.Run(filepath.Base(path), func(t *testing.T) {
			for _, drop := range []bool{false, true} {
				acc, streamed := streamedText(t, body, drop)
				if !drop {
					CompareExpected(t, acc.Responses(), exp)
				}
				for _, s := range acc.Responses() {
					if s.ID == "" {
						t.Errorf("a response with no id: %d responses", len(acc.Responses()))
					}
				}
				want := printed(streamedText(t, data, drop))
				if got := printed(acc, streamed); !slices.Equal(got, want) {
					t.Errorf("the deltas added\n%q\nwant, as in the stream in order,\n%q", got, want)
				}
			}
		})
	}
	if moved < sweptAtLeast(100) {
		t.Errorf("only %d streams had a delta to move", moved)
	}
}

// TestEveryFixtureAddedWithTextThenDeltas: a server that announces each
// message with its final text in output_item.added and content_part.added,
// then streams the same text again as deltas, ends with each text once,
// and the deltas add nothing twice.
func TestEveryFixtureAddedWithTextThenDeltas(t *testing.T) {
	t.Parallel() // a sweep of every recorded stream; it shares nothing
	checked := 0
	for path, exp := range sweptStreams(t) {
		_, fs := recorded(t, path)
		// the final texts, by item id, from the stream's own
		// output_item.done, where its deltas (at whatever content_index)
		// spell that text
		final := map[string]map[string]any{}
		spelled := map[string]string{}
		fs.rewrite(t, func(m map[string]any) []map[string]any {
			id := anyString(m["item_id"])
			switch m["type"] {
			case "response.output_text.delta":
				spelled[id] += anyString(m["delta"])
			case "response.output_item.done":
				if it, ok := m["item"].(map[string]any); ok && it["type"] == "message" {
					if c, _ := it["content"].([]any); len(c) == 1 {
						final[anyString(it["id"])] = it
					}
				}
			}
			return nil
		})
		for id, it := range final {
			c := it["content"].([]any)[0].(map[string]any)
			if spelled[id] == "" || spelled[id] != anyString(c["text"]) {
				delete(final, id)
			}
		}
		if len(final) == 0 {
			continue
		}
		body := fs.rewrite(t, func(m map[string]any) []map[string]any {
			if it, ok := m["item"].(map[string]any); ok && m["type"] == "response.output_item.added" {
				if f := final[anyString(it["id"])]; f != nil {
					c := map[string]any{}
					for k, v := range f {
						c[k] = v
					}
					c["status"] = "in_progress"
					m["item"] = c
				}
			}
			return []map[string]any{m}
		})
		checked++
		t.Run(filepath.Base(path), func(t *testing.T) {
			for _, drop := range []bool{false, true} {
				acc, streamed := streamedText(t, body, drop)
				if !drop {
					CompareExpected(t, acc.Responses(), exp)
				}
				for it, v := range streamed {
					if v != "" && final[it.ID] != nil {
						t.Errorf("item %s: the deltas added %s after the item came with its text", it.ID, short(v))
					}
				}
			}
		})
	}
	if checked < sweptAtLeast(100) {
		t.Errorf("only %d streams checked", checked)
	}
}

func anyString(v any) string { s, _ := v.(string); return s }

// TestDeltasBeforeTheResponse: the class of events before the response
// object, by hand: a delta, a whole item and argument deltas before
// response.created; deltas of a second response before its own created;
// and a stream that never says response.created at all.
func TestDeltasBeforeTheResponse(t *testing.T) {
	msg := func(id, text string) string {
		return `{"type":"message","id":"` + id + `","role":"assistant","status":"completed","content":[{"type":"output_text","text":"` + text + `"}]}`
	}
	t.Run("item events before created", func(t *testing.T) {
		acc, _ := replay(t, sse(
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"c1","name":"f","arguments":""}}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc_1","delta":"{\"a\":"}`,
			`{"type":"response.created","response":{"id":"r1","status":"in_progress","output":[]}}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc_1","delta":"1}"}`,
			`{"type":"response.output_text.delta","output_index":1,"item_id":"m1","delta":"Hi"}`,
			`{"type":"response.completed","response":{"id":"r1","status":"completed","output":[]}}`))
		rs := acc.Responses()
		if len(rs) != 1 || rs[0].ID != "r1" || len(rs[0].Items) != 2 || rs[0].Items[0].Arguments != `{"a":1}` || rs[0].Items[1].Text() != "Hi" {
			t.Fatalf("responses %d: %+v", len(rs), rs[0])
		}
	})
	t.Run("the second response's delta before its created", func(t *testing.T) {
		acc, _ := replay(t, sse(
			`{"type":"response.created","response":{"id":"r1","status":"in_progress"}}`,
			`{"type":"response.output_text.delta","output_index":0,"item_id":"m1","delta":"one"}`,
			`{"type":"response.completed","response":{"id":"r1","status":"completed","output":[`+msg("m1", "one")+`]}}`,
			`{"type":"response.output_text.delta","output_index":0,"item_id":"m2","delta":"tw"}`,
			`{"type":"response.created","response":{"id":"r2","status":"in_progress"}}`,
			`{"type":"response.output_text.delta","output_index":0,"item_id":"m2","delta":"o"}`,
			`{"type":"response.completed","response":{"id":"r2","status":"completed","output":[`+msg("m2", "two")+`]}}`))
		rs := acc.Responses()
		if len(rs) != 2 || rs[0].ID != "r1" || rs[1].ID != "r2" || len(rs[0].Items) != 1 || len(rs[1].Items) != 1 || rs[1].Items[0].Text() != "two" {
			t.Fatalf("responses %d", len(rs))
		}
	})
	t.Run("no created at all", func(t *testing.T) {
		acc, _ := replay(t, sse(
			`{"type":"response.output_text.delta","delta":"Hi"}`,
			`{"type":"response.completed","response":{"id":"r1","status":"completed","output":[`+msg("m1", "Hi")+`]}}`))
		rs := acc.Responses()
		if len(rs) != 1 || rs[0].ID != "r1" || len(rs[0].Items) != 1 || rs[0].Items[0].Text() != "Hi" {
			t.Fatalf("responses %d", len(rs))
		}
	})
	t.Run("no ids, no indexes: the delta before created is the announced item's", func(t *testing.T) {
		acc, _ := replay(t, sse(
			`{"type":"response.output_text.delta","delta":"Hello "}`,
			`{"type":"response.created","response":{"id":"r1","status":"in_progress"}}`,
			`{"type":"response.output_item.added","item":{"type":"message","id":"m1","role":"assistant","content":[]}}`,
			`{"type":"response.output_text.delta","delta":"world"}`,
			`{"type":"response.completed","response":{"id":"r1","status":"completed","output":[`+msg("m1", "Hello world")+`]}}`))
		rs := acc.Responses()
		if len(rs) != 1 || len(rs[0].Items) != 1 || rs[0].Items[0].Text() != "Hello world" {
			t.Fatalf("responses %d, items %d", len(rs), len(rs[0].Items))
		}
	})
	t.Run("a delta after the end names no item of the finished response", func(t *testing.T) {
		acc, _ := replay(t, sse(
			`{"type":"response.created","response":{"id":"r1","status":"in_progress"}}`,
			`{"type":"response.output_text.delta","output_index":0,"item_id":"m1","delta":"one"}`,
			`{"type":"response.completed","response":{"id":"r1","status":"completed","output":[`+msg("m1", "one")+`]}}`,
			`{"type":"response.output_text.delta","output_index":0,"item_id":"m1","delta":""}`))
		if rs := acc.Responses(); len(rs) != 1 || rs[0].Items[0].Text() != "one" {
			t.Fatalf("responses %d", len(rs))
		}
	})
}

// TestRepeatedDeltas: how deltas after a whole value are read: a repeat
// adds nothing, a repeat that goes on adds what follows, anything else
// adds all it carries; arguments alike.
func TestRepeatedDeltas(t *testing.T) {
	added := func(text string) string {
		return `{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","role":"assistant","content":[{"type":"output_text","text":"` + text + `"}]}}`
	}
	for _, tt := range []struct {
		name, added string
		deltas      []string
		want        string
	}{
		{"repeated whole", "Hello world", []string{"Hello ", "world"}, "Hello world"},
		{"repeated and continued", "Hello", []string{"Hel", "lo world"}, "Hello world"},
		{"continued", "Hello", []string{" world"}, "Hello world"},
		{"no text announced", "", []string{"Hello", " world"}, "Hello world"},
		{"a repeat that turns away", "Hello", []string{"He", "y"}, "Helloy"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			evs := []string{created, added(tt.added)}
			for i, d := range tt.deltas {
				evs = append(evs, textDelta(i+2, 0, "m", d))
			}
			for _, drop := range []bool{false, true} {
				acc, streamed := streamedText(t, sse(evs...), drop)
				got := tt.added + streamed[acc.Current().Items[0]]
				if got != tt.want {
					t.Errorf("drop %v: printed %q, want %q", drop, got, tt.want)
				}
				if !drop && acc.Current().Items[0].Text() != tt.want {
					t.Errorf("held %q, want %q", acc.Current().Items[0].Text(), tt.want)
				}
			}
		})
	}
	// announced with its whole text after its first delta, before its
	// response: the deltas that repeat the rest add nothing
	for _, drop := range []bool{false, true} {
		acc, streamed := streamedText(t, sse(textDelta(1, 0, "m", "Hello "), created, added("Hello world"), textDelta(2, 0, "m", "world")), drop)
		it := acc.Current().Items[0]
		if got := streamed[it]; got != "Hello " || (!drop && it.Text() != "Hello world") || len(acc.Responses()) != 1 {
			t.Errorf("drop %v: announced late: the deltas added %q, the item holds %q", drop, got, it.Text())
		}
	}
	acc, _ := replay(t, sse(created,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"{\"a\":1}"}}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc","delta":"{\"a\""}`,
		`{"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc","delta":":1}"}`))
	if got := acc.Current().Items[0].Arguments; got != `{"a":1}` {
		t.Errorf("arguments %q", got)
	}
}

// TestEveryFixtureInTheSeedsEventForm: every recorded stream written as
// the seed document writes events, as objects that carry "event" instead
// of "type" and no SSE event: line, decodes to the same events and
// replays to the same snapshots; where both name it, type wins.
func TestEveryFixtureInTheSeedsEventForm(t *testing.T) {
	t.Parallel() // a sweep of every recorded stream; it shares nothing
	for path := range sweptStreams(t) {
		_, fs := recorded(t, path)
		plain := fs.rewrite(t, func(m map[string]any) []map[string]any { return []map[string]any{m} })
		seed := fs.rewrite(t, func(m map[string]any) []map[string]any {
			if typ, ok := m["type"]; ok {
				delete(m, "type")
				m["event"] = typ
			}
			return []map[string]any{m}
		})
		both := fs.rewrite(t, func(m map[string]any) []map[string]any {
			if _, ok := m["type"]; ok {
				m["event"] = "response.bogus"
			}
			return []map[string]any{m}
		})
		t.Run(filepath.Base(path), func(t *testing.T) {
			want := summarize(plain, false)
			if got := summarize(seed, false); got != want {
				t.Errorf("the event form replays differently:\n%s\nwant\n%s", short(got), short(want))
			}
			if got := summarize(both, false); got != want {
				t.Errorf("an event beside the type changed the replay")
			}
			a, b := NewDecoder(strings.NewReader(string(plain))), NewDecoder(strings.NewReader(string(seed)))
			for a.Next() {
				if !b.Next() || a.Event().Type != b.Event().Type || a.Event().Kind != b.Event().Kind {
					t.Fatalf("event %d: %q, in the event form %q", a.Event().Num, a.Event().Type, b.Event().Type)
				}
			}
		})
	}
}

// TestEventNameOrder: the name comes from type, else the JSON's event,
// else the SSE event: line; an event that is not a string is no name.
func TestEventNameOrder(t *testing.T) {
	for _, tt := range []struct{ name, data, want string }{
		{"response.failed", `{"type":"response.created","event":"response.queued","response":{"id":"r"}}`, "response.created"},
		{"response.failed", `{"event":"response.queued","response":{"id":"r"}}`, "response.queued"},
		{"response.failed", `{"response":{"id":"r"}}`, "response.failed"},
		{"response.failed", `{"event":{"x":1},"response":{"id":"r"}}`, "response.failed"},
	} {
		var ev Event
		if err := DecodeEvent(tt.name, []byte(tt.data), &ev); err != nil || ev.Type != tt.want {
			t.Errorf("%s: type %q (%v), want %q", tt.data, ev.Type, err, tt.want)
		}
	}
}

// TestCallWithoutIDsGetsOne: a call the client answers that came with
// neither call_id nor id gets a call_id of runnel's, the same on every
// reading of the stream, carried in its JSON, whether it came as an
// output_item.done or only in the terminal response; one with an id is
// answered by its id; a server's call_id is never replaced.
func TestCallWithoutIDsGetsOne(t *testing.T) {
	call := func(extra string) string {
		return `{` + extra + `"type":"function_call","status":"completed","name":"f","arguments":"{}"}`
	}
	for _, tt := range []struct {
		name   string
		events []string
		want   string // "" for one of runnel's
	}{
		{"done, no ids", []string{`{"type":"response.output_item.done","output_index":0,"item":` + call("") + `}`}, ""},
		{"terminal only, no ids", nil, ""},
		{"an id only", []string{`{"type":"response.output_item.done","output_index":0,"item":` + call(`"id":"fc_9",`) + `}`}, "fc_9"},
		{"the server's call_id", []string{`{"type":"response.output_item.done","output_index":0,"item":` + call(`"call_id":"c_7",`) + `}`}, "c_7"},
		{"custom tool call", []string{`{"type":"response.output_item.done","output_index":0,"item":{"type":"custom_tool_call","name":"g","input":"x"}}`}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			term := call("")
			if strings.Contains(tt.name, "custom") {
				term = `{"type":"custom_tool_call","name":"g","input":"x"}`
			}
			evs := append([]string{created}, tt.events...)
			evs = append(evs, `{"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[`+term+`]}}`)
			body := sse(evs...)
			var ids []string
			for range 2 {
				acc, probs := replay(t, body)
				s := acc.Current()
				if len(probs) > 0 || len(s.Items) != 1 {
					t.Fatalf("items %d, problems %v", len(s.Items), probs)
				}
				it := s.Items[0]
				var j struct {
					CallID string `json:"call_id"`
				}
				json.Unmarshal(it.JSON(), &j)
				if it.CallID == "" || j.CallID != it.CallID {
					t.Fatalf("call_id %q, in its JSON %q", it.CallID, j.CallID)
				}
				ids = append(ids, it.CallID)
			}
			if ids[0] != ids[1] {
				t.Errorf("call_id %q, then %q on a second reading", ids[0], ids[1])
			}
			if tt.want != "" && ids[0] != tt.want {
				t.Errorf("call_id %q, want %q", ids[0], tt.want)
			}
			if tt.want == "" && !strings.HasPrefix(ids[0], "call_runnel_") {
				t.Errorf("call_id %q, want one of runnel's", ids[0])
			}
		})
	}
	// two calls without ids in one response get two call_ids
	acc, _ := replay(t, sse(created, `{"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[`+call("")+`,`+call("")+`]}}`))
	if its := acc.Current().Items; len(its) != 2 || its[0].CallID == its[1].CallID {
		t.Errorf("two calls: %d items, call_ids alike", len(its))
	}
}

// TestAudioTranscriptIsText: an answer spoken as audio is its transcript,
// as a message's text; the sound is neither kept nor unknown, and the
// first audio event (only) carries the note that it was skipped.
func TestAudioTranscriptIsText(t *testing.T) {
	sound := strings.Repeat("QUFBQUFB", 1000)
	body := sse(created,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"m","type":"message","role":"assistant","content":[{"type":"output_audio","transcript":""}]}}`,
		`{"type":"response.audio.delta","item_id":"m","output_index":0,"content_index":0,"delta":"`+sound+`"}`,
		`{"type":"response.audio.transcript.delta","item_id":"m","output_index":0,"content_index":0,"delta":"Hello "}`,
		`{"type":"response.audio.delta","item_id":"m","output_index":0,"content_index":0,"delta":"`+sound+`"}`,
		`{"type":"response.audio.transcript.delta","item_id":"m","output_index":0,"content_index":0,"delta":"there."}`,
		`{"type":"response.audio.done","item_id":"m","output_index":0,"content_index":0}`,
		`{"type":"response.audio.transcript.done","item_id":"m","output_index":0,"content_index":0,"transcript":"Hello there."}`)
	var acc Accumulator
	notes := 0
	d := NewDecoder(strings.NewReader(string(body)))
	for d.Next() {
		ev := d.Event()
		if ev.Note != "" {
			notes++
			if ev.Note != AudioSkippedNote {
				t.Errorf("note %q", ev.Note)
			}
		}
		if ev.Kind == KindAudio && ev.Delta != "" {
			t.Errorf("an audio event keeps its sound (%d bytes)", len(ev.Delta))
		}
		if _, err := acc.Apply(ev); err != nil {
			t.Errorf("problem: %v", err)
		}
	}
	s := acc.Current()
	if notes != 1 || len(s.Unknown) != 0 || len(s.Items) != 1 || s.Items[0].Text() != "Hello there." {
		t.Fatalf("notes %d, unknown %d, items %d, text %q", notes, len(s.Unknown), len(s.Items), s.Items[0].Text())
	}
	if strings.Contains(string(s.Items[0].JSON()), "QUFB") || !strings.Contains(string(s.Items[0].JSON()), `"transcript":"Hello there."`) {
		t.Errorf("item JSON %s", s.Items[0].JSON())
	}
	if s.held > 100 {
		t.Errorf("the response holds %d bytes for 12 of text", s.held)
	}
	// a whole item that carries its sound keeps only the transcript
	acc2, _ := replay(t, sse(created, `{"type":"response.output_item.done","output_index":0,"item":{"id":"m","type":"message","role":"assistant","status":"completed","content":[{"type":"output_audio","data":"`+sound+`","transcript":"Hi."}]}}`))
	it := acc2.Current().Items[0]
	if it.Text() != "Hi." || strings.Contains(string(it.Raw), "QUFB") || strings.Contains(string(it.JSON()), "QUFB") {
		t.Errorf("item keeps its sound: %s", it.JSON()[:min(len(it.JSON()), 200)])
	}
}
