package stream

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"runnel/stream/sharedtest"
)

// recorded returns the stream at path and its frames, decoded once for
// every rewrite of it in the package (recordings).
func recorded(t *testing.T, path string) ([]byte, frames) {
	t.Helper()
	v, _ := recordings.LoadOrStore(path, &recording{})
	r := v.(*recording)
	r.once.Do(func() {
		if r.data, r.err = os.ReadFile(path); r.err == nil {
			r.fs = decodeFrames(r.data)
		}
	})
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.data, r.fs
}

// recordings holds each stream recorded returned, read and decoded once
// for the package's sweeps, which share it (read only: rewrite hands its
// edits a copy of each object).
var recordings sync.Map // path → *recording

type recording struct {
	once sync.Once
	data []byte
	fs   frames
	err  error
}

// frames is a stream's frames, each decoded once, to rewrite the stream
// as often as a test wants: decoding the JSON is most of what a rewrite
// costs.
type frames []frame

// frame is one frame's data and, when ok, its JSON object.
type frame struct {
	data []byte
	m    map[string]any
	ok   bool
}

func decodeFrames(data []byte) frames {
	var out frames
	sc := NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := sc.Frame()
		fr := frame{data: bytes.Clone(f.Data)}
		fr.ok = f.Err == nil && json.Unmarshal(f.Data, &fr.m) == nil
		out = append(out, fr)
	}
	return out
}

// rewrite rebuilds the SSE stream, passing each event's JSON object through
// edit (which may return several payloads: a repeat, or none: a drop); a
// frame that is no JSON object stays as it is. Edit gets a
// copy of the object's own keys: it may set and delete them, never change
// a value nested in it (the next rewrite of the stream shares those).
func (fs frames) rewrite(t *testing.T, edit func(m map[string]any) []map[string]any) []byte {
	t.Helper()
	var out bytes.Buffer
	for _, f := range fs {
		if !f.ok {
			out.WriteString("data: " + string(f.data) + "\n\n")
			continue
		}
		for _, e := range edit(maps.Clone(f.m)) {
			b, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			out.WriteString("data: " + string(b) + "\n\n")
		}
	}
	return out.Bytes()
}

// everyStream lists every recorded stream with an expected summary, with
// that summary.
func everyStream(t *testing.T) map[string][]expectedResponse {
	dir := sharedtest.Dir(t)
	all := map[string][]expectedResponse{}
	for _, set := range fixtureSets {
		files, _ := filepath.Glob(filepath.Join(dir, "fixtures", set, "*", "*.sse"))
		for _, path := range files {
			rel, _ := filepath.Rel(filepath.Join(dir, "fixtures", set), path)
			if exp := readExpected(t, filepath.Join(dir, "fixtures", set, "expected", strings.TrimSuffix(rel, ".sse")+".jsonl")); exp != nil {
				all[path] = exp
			}
		}
	}
	if len(all) < 180 {
		t.Fatalf("found %d streams with expected items, want all four sets", len(all))
	}
	return all
}

// sweptStreams are the streams a rewriting sweep (a hostile order, the
// seed's event form, …) replays: every one of everyStream in the full run;
// under -short one in three, by sorted path, which TestEveryFixture's own
// sweep of them all still replays as recorded. sweptAtLeast scales a
// sweep's minimum count the same way.
func sweptStreams(t *testing.T) map[string][]expectedResponse {
	all := everyStream(t)
	if !testing.Short() {
		return all
	}
	paths := slices.Sorted(maps.Keys(all))
	for i, p := range paths {
		if i%3 != 0 {
			delete(all, p)
		}
	}
	return all
}

// sweptAtLeast is n, or a third of it under -short (sweptStreams).
func sweptAtLeast(n int) int {
	if testing.Short() {
		return n / 3
	}
	return n
}

// TestEveryFixtureRepeatsChangeNothing: a server that repeats each
// output_item.done (the copy without output_index) and its terminal event
// ends with the same items, each text once.
func TestEveryFixtureRepeatsChangeNothing(t *testing.T) {
	t.Parallel() // a sweep of every recorded stream; it shares nothing
	for path, exp := range sweptStreams(t) {
		_, fs := recorded(t, path)
		twice := fs.rewrite(t, func(m map[string]any) []map[string]any {
			switch m["type"] {
			case "response.output_item.done", "response.completed", "response.incomplete":
				// a repeat under no number (not a duplicate by number), and
				// an item repeated with no output_index (matched by identity)
				c := map[string]any{}
				for k, v := range m {
					if k != "sequence_number" && k != "output_index" {
						c[k] = v
					}
				}
				return []map[string]any{m, c}
			}
			return []map[string]any{m}
		})
		t.Run(filepath.Base(path), func(t *testing.T) {
			acc, _ := replay(t, twice)
			CompareExpected(t, acc.Responses(), exp)
			compareExtra(t, acc.Responses(), exp)
		})
	}
}

// TestEveryFixtureWithoutIndexes: every stream read as llama.cpp sends it,
// with no sequence_number and no output_index, ends with the same items,
// each text once, wherever the server gave its items ids (items are then
// matched by id, then call_id, then order).
func TestEveryFixtureWithoutIndexes(t *testing.T) {
	t.Parallel() // a sweep of every recorded stream; it shares nothing
	checked := 0
	for path, exp := range sweptStreams(t) {
		_, fs := recorded(t, path)
		idless := false
		bare := fs.rewrite(t, func(m map[string]any) []map[string]any {
			delete(m, "sequence_number")
			delete(m, "output_index")
			if it, ok := m["item"].(map[string]any); ok && it["id"] == nil && it["call_id"] == nil {
				idless = true
			}
			if m["item_id"] == "" {
				idless = true
			}
			return []map[string]any{m}
		})
		if idless {
			continue
		}
		checked++
		t.Run(filepath.Base(path), func(t *testing.T) {
			acc, _ := replay(t, bare)
			CompareExpected(t, acc.Responses(), exp)
			compareExtra(t, acc.Responses(), exp)
		})
	}
	if checked < sweptAtLeast(150) {
		t.Errorf("only %d streams checked", checked)
	}
}

// TestIdentityBadInput: ids and indexes that disagree, and a final word that
// disagrees with the stream, give one item each, with the server's last
// word as its text; nothing is lost and nothing is doubled.
func TestIdentityBadInput(t *testing.T) {
	t.Run("an index names the item whatever its id says", func(t *testing.T) {
		s, probs := one(t, created, msgAdded(0, "m1"),
			textDelta(1, 0, "m1", "Hel"), textDelta(2, 0, "other", "lo"),
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"m2","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hello"}]}}`,
			completed)
		if len(probs) > 0 || len(s.Items) != 1 || s.Items[0].Text() != "Hello" || s.Items[0].ID != "m2" {
			t.Errorf("items %d, text %q id %q, problems %v", len(s.Items), s.Items[0].Text(), s.Items[0].ID, probs)
		}
	})
	t.Run("the final word corrects the streamed text in place", func(t *testing.T) {
		s, _ := one(t, created, msgAdded(0, "m1"), textDelta(1, 0, "m1", "Helo wrld"),
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"m1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hello world"}]}}`,
			`{"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[{"type":"message","id":"m9","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Hello, world"}]}]}}`)
		if len(s.Items) != 1 || s.Items[0].Text() != "Hello, world" || s.Items[0].ID != "m9" {
			t.Errorf("items %d: %q id %q", len(s.Items), s.Items[0].Text(), s.Items[0].ID)
		}
	})
	t.Run("a copy with no text keeps what was shown", func(t *testing.T) {
		s, _ := one(t, created, msgAdded(0, "m1"), textDelta(1, 0, "m1", "Hello"),
			`{"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[{"type":"message","id":"m1","status":"completed","role":"assistant","content":[]}]}}`)
		if len(s.Items) != 1 || s.Items[0].Text() != "Hello" {
			t.Errorf("items %d: %q", len(s.Items), s.Items[0].Text())
		}
	})
	t.Run("no indexes: a call is found by its call_id, and a repeat replaces it", func(t *testing.T) {
		call := `{"type":"function_call","name":"f","call_id":"fc_1","arguments":"{}","status":"completed"}`
		s, _ := one(t, `{"type":"response.created","response":{"id":"r","object":"response","status":"in_progress"}}`,
			`{"type":"response.output_item.added","item":{"type":"function_call","name":"f","call_id":"fc_1","arguments":"","status":"in_progress"}}`,
			`{"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"{}"}`,
			`{"type":"response.output_item.done","item":`+call+`}`,
			`{"type":"response.output_item.done","item":`+call+`}`,
			`{"type":"response.completed","response":{"id":"r","object":"response","status":"completed","output":[`+call+`,`+call+`]}}`)
		// the terminal lists the call twice: the server's final word says
		// two calls, but both name call fc_1 and the stream had one
		calls := 0
		for _, it := range s.Items {
			if it.Type == "function_call" && it.CallID == "fc_1" {
				calls++
				if it.Arguments != "{}" {
					t.Errorf("arguments %q", it.Arguments)
				}
			}
		}
		if calls == 0 {
			t.Fatal("the call is lost")
		}
		if len(s.Items) > 2 {
			t.Errorf("%d items", len(s.Items))
		}
	})
	t.Run("an id-less done with no index closes the oldest open item of its type", func(t *testing.T) {
		s, _ := one(t, `{"type":"response.created","response":{"id":"r","status":"in_progress"}}`,
			`{"type":"response.output_item.added","item":{"type":"message","role":"assistant","content":[]}}`,
			`{"type":"response.output_text.delta","delta":"Hi"}`,
			`{"type":"response.output_item.done","item":{"type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Hi"}]}}`,
			`{"type":"response.completed","response":{"id":"r","status":"completed","output":[{"type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Hi"}]}]}}`)
		if len(s.Items) != 1 || s.Items[0].Text() != "Hi" {
			t.Errorf("items %d: %q", len(s.Items), s.Items[0].Text())
		}
	})
}

// TestBareResponse: a gateway's one data: line holding a whole Response
// object, with no type, is the final response, with a note; a typeless
// payload that is not a response is still malformed.
func TestBareResponse(t *testing.T) {
	body := sse(`{"id":"resp_g","object":"response","status":"completed","output":[{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Hi"}]},{"type":"function_call","id":"fc","call_id":"c1","name":"f","arguments":"{}","status":"completed"}]}`, `[DONE]`)
	d := NewDecoder(bytes.NewReader(body))
	var acc Accumulator
	notes := 0
	for d.Next() {
		if d.Event().Note != "" {
			notes++
		}
		if _, err := acc.Apply(d.Event()); err != nil {
			t.Errorf("problem: %v", err)
		}
	}
	s := acc.Current()
	if notes != 1 || s == nil || !s.Terminal || s.Status != "completed" || len(s.Items) != 2 || s.Items[0].Text() != "Hi" || s.Items[1].CallID != "c1" {
		t.Fatalf("notes %d, snapshot %+v", notes, s)
	}
	_, probs := replay(t, sse(`{"object":"list","data":[]}`))
	if len(probs) != 1 || !strings.Contains(probs[0].Error(), "event has no type") {
		t.Errorf("problems %v", probs)
	}
}

// TestIdentityWithoutIdsOrIndexes: a server that names nothing (no ids, no
// indexes, no sequence numbers) and sends two messages and two calls, each
// item added, streamed and done, then a terminal response listing them
// again: four items, in order, each text once.
func TestIdentityWithoutIdsOrIndexes(t *testing.T) {
	msg := func(text string) string {
		return `{"type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":"` + text + `"}]}`
	}
	call := func(id, args string) string {
		return `{"type":"function_call","name":"f","call_id":"` + id + `","arguments":"` + args + `","status":"completed"}`
	}
	s, probs := one(t, `{"type":"response.created","response":{"id":"r","status":"in_progress"}}`,
		`{"type":"response.output_item.added","item":{"type":"message","role":"assistant","content":[]}}`,
		`{"type":"response.output_text.delta","delta":"one"}`,
		`{"type":"response.output_item.done","item":`+msg("one")+`}`,
		`{"type":"response.output_item.added","item":{"type":"function_call","name":"f","call_id":"c1","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","item_id":"c1","delta":"{}"}`,
		`{"type":"response.output_item.added","item":{"type":"function_call","name":"f","call_id":"c2","arguments":""}}`,
		`{"type":"response.function_call_arguments.delta","item_id":"c2","delta":"[]"}`,
		`{"type":"response.output_item.done","item":`+call("c1", "{}")+`}`,
		`{"type":"response.output_item.done","item":`+call("c2", "[]")+`}`,
		`{"type":"response.output_item.added","item":{"type":"message","role":"assistant","content":[]}}`,
		`{"type":"response.output_text.delta","delta":"two"}`,
		`{"type":"response.output_item.done","item":`+msg("two")+`}`,
		`{"type":"response.completed","response":{"id":"r","status":"completed","output":[`+msg("one")+`,`+call("c1", "{}")+`,`+call("c2", "[]")+`,`+msg("two")+`]}}`)
	if len(probs) > 0 {
		t.Errorf("problems: %v", probs)
	}
	var got []string
	for _, it := range s.Items {
		got = append(got, it.Type+":"+it.Text()+it.CallID+it.Arguments)
	}
	if want := "message:one function_call:c1{} function_call:c2[] message:two"; strings.Join(got, " ") != want {
		t.Errorf("items %q, want %q", strings.Join(got, " "), want)
	}
}
