package main

// Hostile streams, end to end: each is written here, in code, and goes
// through every replay format, -p against a fake server, and the store.
// Each text must appear once and each call run once, whatever the order
// and shape the server chose.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// hostileSSE writes events as an SSE body, each with its event: line.
func hostileSSE(events ...string) []byte {
	var b strings.Builder
	for _, e := range events {
		var m struct {
			Type string `json:"type"`
		}
		json.Unmarshal([]byte(e), &m)
		if m.Type != "" {
			b.WriteString("event: " + m.Type + "\n")
		}
		b.WriteString("data: " + e + "\n\n")
	}
	return []byte(b.String())
}

const (
	hCreated = `{"type":"response.created","response":{"id":"resp_h1","object":"response","status":"in_progress","output":[]}}`
	hMsgDone = `{"id":"msg_h1","type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":"MARKONE said once.","annotations":[]}]}`
)

func hCompleted(items ...string) string {
	return `{"type":"response.completed","response":{"id":"resp_h1","object":"response","status":"completed","output":[` + strings.Join(items, ",") + `]}}`
}

func hDelta(d string) string {
	return `{"type":"response.output_text.delta","item_id":"msg_h1","output_index":0,"content_index":0,"delta":"` + d + `"}`
}

// hostileStreams are the text streams: each says "MARKONE said once." once.
var hostileStreams = map[string][]byte{
	"a delta before response.created": hostileSSE(
		hDelta("MARKONE "),
		hCreated,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_h1","type":"message","role":"assistant","status":"in_progress","content":[]}}`,
		hDelta("said once."),
		`{"type":"response.output_item.done","output_index":0,"item":`+hMsgDone+`}`,
		hCompleted(hMsgDone)),
	"a delta before response.created, nothing else whole": hostileSSE(
		hDelta("MARKONE "),
		hCreated,
		hDelta("said once."),
		`{"type":"response.completed","response":{"id":"resp_h1","object":"response","status":"completed","output":[]}}`),
	"no ids, no indexes, a delta before response.created": hostileSSE(
		`{"type":"response.output_text.delta","delta":"MARKONE "}`,
		`{"type":"response.created","response":{"id":"resp_h1","object":"response","status":"in_progress"}}`,
		`{"type":"response.output_item.added","item":{"type":"message","id":"msg_h1","role":"assistant","content":[]}}`,
		`{"type":"response.output_text.delta","delta":"said once."}`,
		hCompleted(hMsgDone)),
	"a delta before response.created, the item announced with all its text, the rest repeated": hostileSSE(
		hDelta("MARKONE "),
		hCreated,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_h1","type":"message","role":"assistant","status":"in_progress","content":[{"type":"output_text","text":"MARKONE said once.","annotations":[]}]}}`,
		hDelta("said once."),
		`{"type":"response.completed","response":{"id":"resp_h1","object":"response","status":"completed","output":[]}}`),
	"output_item.added with the text, deltas repeat it": hostileSSE(
		hCreated,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_h1","type":"message","role":"assistant","status":"in_progress","content":[{"type":"output_text","text":"MARKONE said once.","annotations":[]}]}}`,
		hDelta("MARKONE "),
		hDelta("said once."),
		`{"type":"response.completed","response":{"id":"resp_h1","object":"response","status":"completed","output":[]}}`),
	"content_part.added with the text, deltas repeat it": hostileSSE(
		hCreated,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_h1","type":"message","role":"assistant","status":"in_progress","content":[]}}`,
		`{"type":"response.content_part.added","item_id":"msg_h1","output_index":0,"content_index":0,"part":{"type":"output_text","text":"MARKONE said once.","annotations":[]}}`,
		hDelta("MARKONE said"),
		hDelta(" once."),
		`{"type":"response.output_text.done","item_id":"msg_h1","output_index":0,"content_index":0,"text":"MARKONE said once."}`,
		hCompleted(hMsgDone)),
	"audio with its transcript": hostileSSE(
		hCreated,
		`{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_h1","type":"message","role":"assistant","status":"in_progress","content":[]}}`,
		`{"type":"response.content_part.added","item_id":"msg_h1","output_index":0,"content_index":0,"part":{"type":"output_audio","transcript":""}}`,
		`{"type":"response.audio.delta","item_id":"msg_h1","output_index":0,"content_index":0,"delta":"UklGRiQAAABXQVZF"}`,
		`{"type":"response.audio.transcript.delta","item_id":"msg_h1","output_index":0,"content_index":0,"delta":"MARKONE "}`,
		`{"type":"response.audio.delta","item_id":"msg_h1","output_index":0,"content_index":0,"delta":"Zm10IBAAAAABAAEA"}`,
		`{"type":"response.audio.transcript.delta","item_id":"msg_h1","output_index":0,"content_index":0,"delta":"said once."}`,
		`{"type":"response.audio.done","item_id":"msg_h1","output_index":0,"content_index":0}`,
		`{"type":"response.audio.transcript.done","item_id":"msg_h1","output_index":0,"content_index":0,"transcript":"MARKONE said once."}`,
		hCompleted(`{"id":"msg_h1","type":"message","role":"assistant","status":"completed","content":[{"type":"output_audio","transcript":"MARKONE said once."}]}`)),
}

// replayAll replays body in every format and returns each one's stdout.
func replayAll(t *testing.T, body []byte) map[string]string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "h.sse")
	if err := os.WriteFile(f, body, 0o600); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, format := range formats {
		o, errOut, code := runnel(t, "", "replay", f, "--format", format, "--width", "100")
		if code != exitOK {
			t.Errorf("replay --format %s: exit %d, stderr %q", format, code, errOut)
		}
		out[format] = o
	}
	return out
}

// TestHostileStreamsShowEachTextOnce: every replay format, -p and the
// store hold the text once, and no response without an id.
func TestHostileStreamsShowEachTextOnce(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	for name, body := range hostileStreams {
		t.Run(name, func(t *testing.T) {
			for format, o := range replayAll(t, body) {
				if format == formatEvents {
					if strings.Contains(o, `"id":""`) {
						t.Errorf("events: a response with no id:\n%s", o)
					}
					continue
				}
				if n := strings.Count(o, "MARKONE"); n != 1 {
					t.Errorf("replay --format %s: the text %d times:\n%s", format, n, o)
				}
				if format == formatJSON && (strings.Count(o, "\n") != 1 || strings.Contains(o, `"id":""`)) {
					t.Errorf("replay --format json: want one response with its id:\n%s", o)
				}
			}
			data := t.TempDir()
			setDataHome(t, data)
			srv := streamtest.New(t)
			srv.Enqueue(streamtest.Reply{SSE: body})
			o, errOut, code := runnel(t, "", "-p", "hi", "--base-url", srv.URL, "--format", "text")
			if code != exitOK || strings.Count(o, "MARKONE") != 1 {
				t.Errorf("-p: exit %d, the text %d times:\n%s\nstderr %q", code, strings.Count(o, "MARKONE"), o, errOut)
			}
			sess := latestSession(t, data)
			for _, tu := range sess.Turns {
				n := 0
				for _, r := range tu.Responses {
					if r.ID == "" {
						t.Errorf("the store keeps a response with no id (%d responses)", len(tu.Responses))
					}
					for _, it := range r.Items {
						n += strings.Count(string(it.Raw), "MARKONE")
					}
				}
				if n != 1 {
					t.Errorf("the store holds the text %d times", n)
				}
			}
		})
	}
}

// TestHostileCallWithoutIDsRunsOnce: a function call with neither call_id
// nor id (and one with only an id) runs once under -p, the next request
// answers it by the call_id runnel gave it, and the answer prints once.
func TestHostileCallWithoutIDsRunsOnce(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	for name, id := range map[string]string{"no ids": "", "an id, no call_id": `"id":"fc_only",`} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			log := filepath.Join(home, "probe.log")
			cfg := writeConfig(t, `[[functions]]
name = "probe"
description = "Records that it ran"
parameters = { type = "object", properties = { word = { type = "string" } } }
command = ["sh", "-c", "cat >> '`+log+`'; echo >> '`+log+`'; echo probe-printed-this"]
approval = "never"
`)
			call := `{` + id + `"type":"function_call","status":"completed","name":"probe","arguments":"{\"word\":\"kiwi\"}"}`
			body := hostileSSE(
				`{"type":"response.created","response":{"id":"resp_c1","object":"response","status":"in_progress","output":[]}}`,
				`{"type":"response.output_item.added","output_index":0,"item":{`+id+`"type":"function_call","status":"in_progress","name":"probe","arguments":""}}`,
				`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"word\":\"kiwi\"}"}`,
				`{"type":"response.output_item.done","output_index":0,"item":`+call+`}`,
				`{"type":"response.completed","response":{"id":"resp_c1","object":"response","status":"completed","output":[`+call+`]}}`)
			srv := streamtest.New(t)
			srv.Enqueue(streamtest.Reply{SSE: body}, streamtest.Reply{SSE: streamtest.Text("resp_c2", "MARKTWO ", "the probe ran.")})
			data := t.TempDir()
			setDataHome(t, data)
			o, errOut, code := runnel(t, "", "-p", "run the probe", "--base-url", srv.URL, "--config", cfg, "--format", "text")
			ran, _ := os.ReadFile(log)
			if code != exitOK || strings.Count(o, "MARKTWO") != 1 || strings.Count(string(ran), "kiwi") != 1 {
				t.Fatalf("exit %d, probe ran %d times; stdout:\n%s\nstderr %q", code, strings.Count(string(ran), "kiwi"), o, errOut)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			var in struct {
				Input []struct {
					Type   string `json:"type"`
					CallID string `json:"call_id"`
					Output any    `json:"output"`
				} `json:"input"`
			}
			json.Unmarshal(reqs[1].Body, &in)
			var outputs []string
			for _, x := range in.Input {
				if x.Type == "function_call_output" {
					outputs = append(outputs, x.CallID)
				}
			}
			if len(outputs) != 1 || outputs[0] == "" || !strings.Contains(string(reqs[1].Body), "probe-printed-this") {
				t.Fatalf("the second request answers %q; want one output with the call's call_id:\n%s", outputs, reqs[1].Body)
			}
			if id != "" && outputs[0] != "fc_only" {
				t.Errorf("a call with only an id is answered as %q, want its id", outputs[0])
			}
			stored := 0
			for _, tu := range latestSession(t, data).Turns {
				for _, r := range tu.Responses {
					for _, it := range r.Items {
						if strings.Contains(string(it.Raw), `"call_id":"`+outputs[0]+`"`) {
							stored++
						}
					}
				}
			}
			if stored != 1 {
				t.Errorf("the store holds the call with its call_id %d times, want 1", stored)
			}
		})
	}
}

// seedForm rewrites an SSE stream as the seed document writes events:
// each JSON object carries "event" instead of "type", and there is no
// event: line.
func seedForm(t *testing.T, body []byte) []byte {
	t.Helper()
	var out strings.Builder
	for _, block := range strings.Split(strings.ReplaceAll(string(body), "\r\n", "\n"), "\n\n") {
		for _, line := range strings.Split(block, "\n") {
			data, ok := strings.CutPrefix(line, "data:")
			if !ok {
				continue
			}
			var m map[string]any
			if json.Unmarshal([]byte(data), &m) != nil {
				out.WriteString("data:" + data + "\n\n")
				continue
			}
			if typ, ok := m["type"]; ok {
				delete(m, "type")
				m["event"] = typ
			}
			b, _ := json.Marshal(m)
			out.WriteString("data: " + string(b) + "\n\n")
		}
	}
	return []byte(out.String())
}

// tookRE matches the time a panel says its call took ("0.1s").
var tookRE = regexp.MustCompile(`\b\d+(\.\d+)?s\b`)

// withoutOffsets drops the byte offsets from the events format, which
// differ between two spellings of one stream.
func withoutOffsets(events string) string {
	var out []string
	for _, l := range strings.Split(events, "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) != nil {
			out = append(out, l)
			continue
		}
		delete(m, "offset")
		b, _ := json.Marshal(m)
		out = append(out, string(b))
	}
	return strings.Join(out, "\n")
}

// TestSeedEventFormReplaysAlike: recorded streams (a llama.cpp answer, a
// responses.js call, OpenAI's calls and reasoning) written in the seed's
// "event" form replay exactly as written with "type", in every format.
func TestSeedEventFormReplaysAlike(t *testing.T) {
	for _, rel := range []string{
		"live/ggml-org__llama.cpp/qwen2.5--01-plain.sse",
		"live/huggingface__responses.js/03-tool-required.sse",
		"real/vercel__ai/openai-mcp-tool-two-calls.sse",
	} {
		t.Run(rel, func(t *testing.T) {
			body, err := os.ReadFile(sharedtest.Path(t, append([]string{"fixtures"}, strings.Split(rel, "/")...)...))
			if err != nil {
				t.Fatal(err)
			}
			// the plain form goes through the same rewrite, less the renaming
			plain := strings.ReplaceAll(string(seedForm(t, body)), `"event":`, `"type":`)
			want, got := replayAll(t, []byte(plain)), replayAll(t, seedForm(t, body))
			for _, format := range formats {
				w, g := want[format], got[format]
				switch format {
				case formatEvents:
					w, g = withoutOffsets(w), withoutOffsets(g)
				case formatANSI: // a panel says how long its call took, by the clock
					w, g = tookRE.ReplaceAllString(w, "Ts"), tookRE.ReplaceAllString(g, "Ts")
				}
				if w != g || (format == formatJSON && w == "") {
					t.Errorf("--format %s differs:\n%s\nwant\n%s", format, g, w)
				}
			}
		})
	}
}
