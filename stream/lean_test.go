package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"runnel/stream/costtest"
	"runnel/stream/sharedtest"
)

// closingKinds are the events that repeat an answer's text at its end.
var closingKinds = []Kind{KindTextDone, KindPartDone, KindItemDone, KindCompleted}

// sameDecode decodes data on the lean path and on encoding/json's alone and
// fails when they differ in anything: the event, or the error. It reports
// whether the lean path took the whole event.
func sameDecode(t testing.TB, name string, data []byte) (lean bool) {
	t.Helper()
	var fast, slow Event
	errFast := decodeEvent(name, data, &fast, true)
	errSlow := decodeEvent(name, data, &slow, false)
	if fmt.Sprint(errFast) != fmt.Sprint(errSlow) {
		t.Fatalf("lean path error %v, encoding/json's %v: %q", errFast, errSlow, data)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("lean path and encoding/json differ on %q:\nlean %+v\njson %+v", data, fast, slow)
	}
	var w wireEvent
	return leanEvent(data, &w)
}

// sameItem decodes an item's JSON both ways and fails when they differ.
func sameItem(t testing.TB, raw []byte) {
	t.Helper()
	fast, ok := leanItemOf(raw)
	if !ok {
		return
	}
	slow, err := decodeItemJSON(raw)
	if err != nil {
		t.Fatalf("lean path took an item encoding/json rejects (%v): %q", err, raw)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("lean path and encoding/json differ on item %q:\nlean %+v\njson %+v", raw, fast, slow)
	}
}

// eachFixtureEvent calls f with every event of every recorded stream under
// fixtures (every set), by file.
func eachFixtureEvent(t *testing.T, f func(path string, fr *Frame)) {
	dir := filepath.Join(sharedtest.Dir(t), "fixtures")
	var files []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".sse") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) < 100 {
		t.Fatalf("found %d recorded streams under %s, want them all", len(files), dir)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if fr := sc.Frame(); fr.Err == nil && string(fr.Data) != "[DONE]" {
				f(path, fr)
			}
		}
	}
}

// TestLeanPathFixtures: on every event of every recorded stream, the lean
// path decodes what encoding/json decodes, field for field (Text, Item and
// its Raw and parts, Part, Response and its Raw and output, errors), and it
// takes all but a few of the closing events.
func TestLeanPathFixtures(t *testing.T) {
	t.Parallel() // a sweep of every recorded stream; it shares nothing
	closing, taken := map[Kind]int{}, map[Kind]int{}
	events, items := 0, 0
	eachFixtureEvent(t, func(path string, fr *Frame) {
		events++
		lean := sameDecode(t, fr.Name, fr.Data)
		var ev Event
		if DecodeEvent(fr.Name, fr.Data, &ev) != nil {
			return
		}
		for _, k := range closingKinds {
			if ev.Kind == k {
				closing[k]++
				if lean {
					taken[k]++
				}
			}
		}
		if ev.Item != nil {
			sameItem(t, ev.Item.Raw)
			items++
		}
		if ev.Response != nil {
			for _, raw := range ev.Response.Output {
				sameItem(t, raw)
				items++
			}
		}
	})
	for _, k := range closingKinds {
		t.Logf("%s: %d of %d taken by the lean path", k, taken[k], closing[k])
		if closing[k] == 0 || taken[k]*10 < closing[k]*9 {
			t.Errorf("%s: the lean path took %d of %d, want at least 90%%", k, taken[k], closing[k])
		}
	}
	t.Logf("%d events, %d items compared", events, items)
}

// TestLeanPathShapes: the shapes the lean path must leave to encoding/json,
// or read exactly as it does.
func TestLeanPathShapes(t *testing.T) {
	for _, c := range leanSeeds {
		if lean := sameDecode(t, "", []byte(c.data)); lean != c.lean {
			t.Errorf("lean path took %v, want %v: %s", lean, c.lean, c.data)
		}
	}
}

var leanSeeds = []struct {
	data string
	lean bool
}{
	{`{"type":"response.output_text.done","sequence_number":5,"output_index":0,"content_index":0,"item_id":"m","text":"a \"b\" \u003cc\u003e\ttab é \ud83d\ude00 \ud83d x \udc00 \/"}`, true},
	{`{"type":"response.output_text.done","text":null}`, true},
	{`{"type":"response.output_text.done","text":5}`, false},
	{`{"type":"response.output_text.done","Text":"a"}`, false},
	{`{"type":"response.output_text.done","text":"a","text":"b"}`, false},
	{`{"type":"response.output_text.done","t\u0065xt":"a"}`, false},
	{`{"type":"response.output_text.done","text":"a` + "\xff" + `"}`, false},
	{`{"type":"response.output_text.done","text":"a"} x`, false},
	{`{"type":"response.output_text.done","text":"a",}`, false},
	{`{"type":"response.output_text.done","sequence_number":-1,"text":"a","logprobs":[{"t":1e5}]}`, true},
	{`{"type":"response.output_text.done","sequence_number":1.5,"text":"a"}`, false},
	{`{"type":"response.content_part.done","content_index":1,"part":{"type":"output_text","text":"hi","annotations":[]}}`, true},
	{`{"type":"response.content_part.done","part":{"type":"output_text","text":"hi","annotations":[{"type":"url_citation","url":"u"}],"logprobs":[]}}`, true},
	{`{"type":"response.content_part.done","part":{"type":"refusal","refusal":"no"}}`, true},
	{`{"type":"response.content_part.done","part":{"type":"output_text","text":null,"refusal":"no"}}`, true},
	{`{"type":"response.content_part.done","part":{"type":"output_text","annotations":[null]}}`, false},
	{`{"type":"response.content_part.done","part":null}`, true},
	{`{"type":"response.content_part.done","part":"x"}`, true}, // left as JSON, for the part decoder to refuse
	{`{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"m","status":"completed","role":"assistant","content":[{"type":"output_text","text":"hi","annotations":[]}]}}`, true},
	{`{"type":"response.output_item.done","item":{"type":"message","content":[]}}`, true},
	{`{"type":"response.output_item.done","item":{"type":"message","content":null,"phase":"final_answer"}}`, true},
	{`{"type":"response.output_item.done","item":{"type":"message","content":["x"]}}`, false},
	{`{"type":"response.output_item.done","item":{"type":"message","content":[{"type":"output_audio","transcript":"hi","data":"AAAA"}]}}`, false},
	{`{"type":"response.output_item.done","item":{"type":"reasoning","summary":[{"type":"summary_text","text":"s"}],"content":[{"type":"reasoning_text","text":"r"}],"encrypted_content":"e"}}`, true},
	{`{"type":"response.output_item.done","item":{"type":"function_call","name":"f","call_id":"c","arguments":"{\"a\":1}"}}`, true},
	{`{"type":"response.output_item.done","item":{"type":"tool_search_call","arguments":{"q":"x"}}}`, true},
	{`{"type":"response.output_item.done","item":{"type":"mcp_call","output":"o","error":null}}`, true},
	{`{"type":"response.output_item.done","item":{"type":5}}`, false},
	{`{"type":"response.output_item.done","item":null}`, true},
	{`{"type":"response.completed","response":{"id":"r","status":"completed","output":[{"type":"message","content":[]}],"usage":{"input_tokens":1,"output_tokens":2,"total_tokens":3},"previous_response_id":null,"store":false,"incomplete_details":null,"instructions":"long"}}`, true},
	{`{"type":"response.completed","response":{"id":"r","output":[],"previous_response_id":7,"error":{"code":"x","message":"m"}}}`, true},
	{`{"type":"response.completed","response":{"id":"r","output":null}}`, true},
	{`{"type":"response.completed","response":{"id":"r","output":[1]}}`, false},
	{`{"type":"response.completed","response":{"id":"r","Output":[]}}`, false},
	{`{"type":"response.completed","response":{"id":"r","usage":{"input_tokens":"x"}}}`, false},
	{`{"event":"response.completed","response":{"id":"r","output":[]}}`, true},
	{`{"object":"response","status":"completed","output":[]}`, true},
	{`{}`, true},
	{`[]`, false},
	{`{"type":"response.function_call_arguments.done","arguments":"{\"path\":\"a\\\\b\"}"}`, true},
}

// FuzzLeanPath: whatever the input, the lean path decodes an event (and an
// item) exactly as encoding/json does, or leaves it to encoding/json.
// Seeded with the closing events of the recorded streams.
func FuzzLeanPath(f *testing.F) {
	for _, c := range leanSeeds {
		f.Add([]byte(c.data))
	}
	_, closing, _ := bigAnswerSSE(600)
	for _, line := range bytes.Split(closing, []byte("\n\n")) {
		if d, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
			f.Add(d)
		}
	}
	if seeds, err := fixtureSeeds(); err == nil {
		for _, s := range seeds {
			sc := NewScanner(bytes.NewReader(s))
			for sc.Scan() {
				var probe struct{ Type string }
				fr := sc.Frame()
				if json.Unmarshal(fr.Data, &probe) == nil && (strings.HasSuffix(probe.Type, ".done") || strings.HasSuffix(probe.Type, ".completed")) {
					f.Add(bytes.Clone(fr.Data))
				}
			}
		}
	}
	f.Add([]byte(`"a\u00e9\ud83d\ude00\ud800 \"q\" \/"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameDecode(t, "", data)
		sameItem(t, data)
		var want string
		err := json.Unmarshal(data, &want)
		if got, ok := unquote(data); ok != (err == nil) || got != want {
			t.Fatalf("unquote(%q) = %q, %v; encoding/json: %q, %v", data, got, ok, want, err)
		}
	})
}

// TestLeanPathCost: the lean path decodes the closing events of a 40 KB
// answer in at most a third of encoding/json's time (it pays, or goes), and
// no shape costs it more than a small multiple of encoding/json's time on
// the same bytes (nothing in it grows faster than the event).
func TestLeanPathCost(t *testing.T) {
	costtest.SkipIfRace(t)
	_, closing, _ := bigAnswerSSE(40 << 10)
	var frames [][]byte
	sc := NewScanner(bytes.NewReader(closing))
	for sc.Scan() {
		if d := sc.Frame().Data; string(d) != "[DONE]" {
			frames = append(frames, bytes.Clone(d))
		}
	}
	decodeAll := func(frames [][]byte, lean bool) costtest.Work {
		return costtest.Func(func() {
			var ev Event
			for _, f := range frames {
				if err := decodeEvent("", f, &ev, lean); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	costtest.AtMost(t, "the closing events of a 40 KB answer, lean against encoding/json", decodeAll(frames, false), decodeAll(frames, true), 1.0/3)

	many := func(n int, one func(i int) string) string {
		s := make([]string, n)
		for i := range s {
			s[i] = one(i)
		}
		return strings.Join(s, ",")
	}
	for _, c := range []struct{ what, data string }{
		{"an item of 20,000 parts", `{"type":"response.output_item.done","item":{"type":"message","content":[` +
			many(20000, func(int) string { return `{"type":"output_text","text":"x\n\u00e9","annotations":[]}` }) + `]}}`},
		{"an event of 20,000 keys", `{"type":"response.output_text.done",` +
			many(20000, func(i int) string { return fmt.Sprintf(`"k%d":[1,{"a":"b"}]`, i) }) + `,"text":"x"}`},
		{"a response of 5,000 items", `{"type":"response.completed","response":{"id":"r","output":[` +
			many(5000, func(i int) string { return fmt.Sprintf(`{"type":"message","id":"m%d","content":[]}`, i) }) + `]}}`},
		{"a text of 100,000 escapes", `{"type":"response.output_text.done","text":"` + strings.Repeat(`\ud83d\u00e9\n`, 100000/3) + `"}`},
		{"an item 64 objects deep", `{"type":"response.output_item.done","item":{"type":"message","x":` + strings.Repeat(`{"a":`, 60) + `1` + strings.Repeat(`}`, 60) + `,"content":[{"type":"output_text","text":"` + strings.Repeat("y", 200000) + `"}]}}`},
	} {
		frame := [][]byte{[]byte(c.data)}
		sameDecode(t, "", frame[0])
		costtest.AtMost(t, c.what+", lean against encoding/json", decodeAll(frame, false), decodeAll(frame, true), 2)
	}
}
