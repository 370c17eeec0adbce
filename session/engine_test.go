package session

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// mapRecorder is a Recorder in memory.
type mapRecorder map[string]ProviderRecord

func (m mapRecorder) Load(key string, now time.Time) ProviderRecord {
	if r, ok := m[key]; ok {
		return r
	}
	return ProviderRecord{Key: key}
}

func (m mapRecorder) Save(r ProviderRecord) error { m[r.Key] = r; return nil }

// sendOnce streams req to the end: its responses and the error that ended it.
func sendOnce(t *testing.T, c *stream.Client, req stream.Request) ([]*stream.Snapshot, error) {
	t.Helper()
	h := stream.Start(context.Background(), c, req)
	var acc stream.Accumulator
	var err error
	for b := range h.Chan() {
		for i := range b.Events {
			acc.Apply(&b.Events[i])
		}
		if b.Final {
			err = b.Err
		}
	}
	acc.Finish()
	return acc.Responses(), err
}

// runTurn is a blocking front end: it sends turn and does what the engine
// answers until the turn is over; it returns the last action and how
// many requests went out.
func runTurn(t *testing.T, e *Engine, c *stream.Client, conv *Conversation, turn *Turn) (Action, []Notice, int) {
	t.Helper()
	now := time.Date(2026, 11, 29, 7, 0, 0, 0, time.UTC)
	a := e.Next(Event{Kind: Sent, Conv: conv, Turn: turn, Now: now})
	var notices []Notice
	sends := 0
	for a.Kind == Send || a.Kind == Resend {
		if sends++; sends > 2*len(optionals)+4 {
			t.Fatalf("the turn loops: %d requests", sends)
		}
		rs, err := sendOnce(t, c, a.Request)
		a = e.Next(Event{Kind: Ended, Responses: rs, Err: err, Now: now})
		notices = append(notices, a.Notices...)
	}
	if e.Phase() != PhaseIdle {
		t.Errorf("phase %v after the turn", e.Phase())
	}
	return a, notices, sends
}

// liveError is one file of fixtures/live/errors.
type liveError struct {
	Server  string            `json:"server"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	Refused string            `json:"refused"`
}

// carries reports whether a recorded request carries what was refused.
func carries(req map[string]any, refused string) bool {
	switch refused {
	case ParamChain:
		return req["previous_response_id"] != nil
	case ParamStore:
		return req["store"] == true
	case ParamReasoningItems:
		items, _ := req["input"].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok && m["type"] == "reasoning" {
				return true
			}
		}
		return false
	case ParamReasoningSummary:
		r, _ := req["reasoning"].(map[string]any)
		return r != nil && r["summary"] != nil
	case KnobVerbosity:
		r, _ := req["text"].(map[string]any)
		return r != nil && r["verbosity"] != nil
	}
	return req[refused] != nil
}

// reasoningAnswer is a completed response with a reasoning item that can
// be sent back (responses.js's answers in front of a reasoning model).
func reasoningAnswer(id string) []byte {
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	return streamtest.Events(
		js(map[string]any{"type": "response.created", "response": map[string]any{"id": id, "object": "response", "status": "in_progress"}}),
		js(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": map[string]any{"type": "reasoning", "id": "rs_1", "summary": []any{}, "content": []any{map[string]any{"type": "reasoning_text", "text": "thinking"}}}}),
		js(map[string]any{"type": "response.output_item.done", "output_index": 1, "item": map[string]any{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": []any{map[string]any{"type": "output_text", "text": "Hello"}}}}),
		js(map[string]any{"type": "response.completed", "response": map[string]any{"id": id, "object": "response", "status": "completed"}}),
	)
}

// TestEngineNegotiatesEveryLiveRefusal: every refusal body in
// fixtures/live/errors, served as the server sent it, leads to exactly one
// resend that drops what was refused; the next turn never sends it, and
// neither does a new conversation with the same server (the record).
func TestEngineNegotiatesEveryLiveRefusal(t *testing.T) {
	dir := sharedtest.Path(t, "fixtures", "live", "errors")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) < 7 {
		t.Fatalf("only %d refusal bodies", len(files))
	}
	// what each server's conversation sends, so that its first request
	// carries what the body refuses; and what that is
	setups := map[string]struct {
		settings Settings
		first    []byte // the first turn's answer
		refused  string
	}{
		"llamacpp-previous-response-id-400.json":       {Settings{Model: "tiny", Store: true}, nil, ParamChain},
		"vllm-response-not-found-404.json":             {Settings{Model: "m", Store: true}, nil, ParamChain},
		"openrouter-store-true-400.json":               {Settings{Model: "openai/gpt-5-mini", Store: true}, nil, ParamStore},
		"openai-reasoning-summary-400.json":            {Settings{Model: "gpt-5.3-codex-spark", Store: true, ReasoningEffort: "medium", ReasoningSummary: "auto"}, nil, ParamReasoningSummary},
		"groq-style-include-400.json":                  {Settings{Model: "openai/gpt-oss-20b"}, nil, ParamInclude},
		"pydantic-422.json":                            {Settings{Model: "m", Store: true, Verbosity: "low"}, nil, KnobVerbosity},
		"responsesjs-reasoning-item-in-input-400.json": {Settings{Model: "tiny", Store: true}, reasoningAnswer("resp_r1"), ParamReasoningItems},
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var le liveError
			if err := json.Unmarshal(data, &le); err != nil {
				t.Fatal(err)
			}
			setup, ok := setups[name]
			if !ok {
				t.Fatalf("no setup for %s (refuses %s)", name, le.Refused)
			}
			if !strings.HasPrefix(le.Refused, strings.SplitN(setup.refused, " ", 2)[0]) && setup.refused != ParamReasoningItems {
				t.Fatalf("the file says it refuses %q, the test %q", le.Refused, setup.refused)
			}
			header := http.Header{}
			for k, v := range le.Headers {
				if k != "Connection" {
					header.Set(k, v)
				}
			}
			refusal := streamtest.Reply{Status: le.Status, Header: header, Body: []byte(le.Body)}
			chained := setup.refused == ParamChain || setup.refused == ParamReasoningItems // refused at turn 2
			srv := streamtest.New(t)
			if chained {
				first := streamtest.Reply{SSE: streamtest.Text("resp_1", "first")}
				if setup.first != nil {
					first = streamtest.Reply{SSE: setup.first}
				}
				srv.Enqueue(first)
			}
			srv.Enqueue(refusal,
				streamtest.Reply{SSE: streamtest.Text("resp_2", "second")},
				streamtest.Reply{SSE: streamtest.Text("resp_3", "third")},
				streamtest.Reply{SSE: streamtest.Text("resp_4", "fourth")})
			client := &stream.Client{BaseURL: srv.URL, MaxRetries: -1}
			mem := mapRecorder{}
			e := NewEngine(srv.URL, mem)
			conv := &Conversation{Settings: setup.settings}
			if setup.refused == ParamReasoningItems {
				conv.Stateless = true // responses.js drops the chain: the history goes
			}
			if chained {
				if a, _, n := runTurn(t, e, client, conv, conv.Say("one")); a.Kind != Done || n != 1 {
					t.Fatalf("turn 1: %+v after %d requests", a, n)
				}
			}
			before := len(srv.Requests())
			a, notices, n := runTurn(t, e, client, conv, conv.Say("two"))
			if a.Kind != Done || n != 2 {
				t.Fatalf("want one resend: %+v after %d requests", a, n)
			}
			if len(notices) != 1 || strings.Contains(notices[0].Text, "cannot remember") {
				t.Errorf("notices %+v; want one line", notices)
			}
			reqs := srv.Requests()[before:]
			if !carries(reqs[0].JSON(), setup.refused) {
				t.Fatalf("the refused request did not carry %s: %s", setup.refused, reqs[0].Body)
			}
			if carries(reqs[1].JSON(), setup.refused) {
				t.Errorf("the resend still carries %s: %s", setup.refused, reqs[1].Body)
			}
			if in, _ := json.Marshal(reqs[1].JSON()["input"]); setup.refused == ParamChain && (!strings.Contains(string(in), "one") || !strings.Contains(string(in), "first")) {
				t.Errorf("the resend lost turn 1: %s", in)
			}
			a, notices, n = runTurn(t, e, client, conv, conv.Say("three"))
			if a.Kind != Done || n != 1 || len(notices) != 0 || carries(srv.Requests()[len(srv.Requests())-1].JSON(), setup.refused) {
				t.Errorf("the next turn: %+v, %d requests, notices %+v", a, n, notices)
			}
			// a new conversation with the same server, in a later run
			fresh := &Conversation{Settings: setup.settings}
			if setup.refused == ParamReasoningItems {
				fresh.Turns = conv.Turns // the history that held reasoning
				fresh.Stateless = true
			}
			later := NewEngine(srv.URL, mem)
			if a, _, n := runTurn(t, later, client, fresh, fresh.Say("four")); a.Kind != Done || n != 1 || carries(srv.Requests()[len(srv.Requests())-1].JSON(), setup.refused) {
				t.Errorf("a later conversation: %+v, %d requests: %s", a, n, srv.Requests()[len(srv.Requests())-1].Body)
			}
			if s := later.Record(time.Now()).Summary(); s == "" {
				t.Errorf("nothing remembered of the server")
			}
		})
	}
}

// refusalServer answers every request with the same error.
func refusalServer(t *testing.T, status int, contentType, body string, n int) (*streamtest.Server, *stream.Client) {
	srv := streamtest.New(t)
	for range n {
		srv.Enqueue(streamtest.Reply{Status: status, Header: http.Header{"Content-Type": {contentType}}, Body: []byte(body)})
	}
	return srv, &stream.Client{BaseURL: srv.URL, MaxRetries: -1}
}

// TestEngineBadRefusals: a refusal of what a request cannot do without, a
// server that refuses everything, an HTML or plain-text body, an error
// that names a parameter never sent: no loop, one clear line, nothing
// lost (the turn is recorded with its error).
func TestEngineBadRefusals(t *testing.T) {
	everything := Settings{Model: "m", Store: true, ServiceTier: "flex", Verbosity: "low", PromptCacheKey: "k", ReasoningEffort: "low", ReasoningSummary: "auto", Truncation: "auto"}
	cases := []struct {
		name, ctype, body string
		status            int
		settings          Settings
		sends             int
		line              string // the fail line holds this
	}{
		{"required model", "application/json", `{"error":{"message":"you must provide a model parameter","type":"invalid_request_error","param":"model"}}`, 400, Settings{Model: "m", Store: true}, 1, "you must provide a model parameter"},
		{"required input (llama.cpp)", "application/json", `{"error":{"code":400,"message":"'input' is required","type":"invalid_request_error"}}`, 400, Settings{Model: "m", Store: true}, 1, "'input' is required"},
		{"reasoning.effort (responses.js)", "application/json", `{"success":false,"error":[{"received":"minimal","code":"invalid_enum_value","options":["low","medium","high"],"path":["reasoning","effort"],"message":"Invalid enum value. Expected 'low' | 'medium' | 'high', received 'minimal'"}]}`, 400, Settings{Model: "m", Store: true, ReasoningEffort: "minimal"}, 1, "reasoning.effort: Invalid enum value"},
		{"never sent", "application/json", `{"error":{"message":"Unsupported parameter: 'logprobs'.","param":"logprobs","code":"unsupported_parameter"}}`, 400, Settings{Model: "m", Store: true}, 1, "logprobs"},
		{"html", "text/html", `<!DOCTYPE html><html><head><title>Error</title></head><body><pre>SyntaxError: Unexpected end of JSON input<br> &nbsp;at JSON.parse</pre></body></html>`, 400, Settings{Model: "m", Store: true, ServiceTier: "flex"}, 1, "400 Bad Request"},
		{"plain text naming a field sent", "text/plain", `service_tier is not supported here`, 400, Settings{Model: "m", Store: true, ServiceTier: "flex"}, 2, "service_tier"},
		{"refuses everything it is sent", "application/json", `{"error":{"message":"Unsupported parameter: 'service_tier'.","param":"service_tier"}}`, 400, everything, 2, "service_tier"},
		{"a 500 naming a field", "application/json", `{"error":{"message":"service_tier broke","type":"server_error"}}`, 500, Settings{Model: "m", Store: true, ServiceTier: "flex"}, 1, "service_tier broke"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, client := refusalServer(t, c.status, c.ctype, c.body, 30)
			conv := &Conversation{Settings: c.settings}
			e := NewEngine(client.BaseURL, mapRecorder{})
			turn := conv.Say("hi")
			a, _, n := runTurn(t, e, client, conv, turn)
			if a.Kind != Fail || n != c.sends || !strings.Contains(a.Line, c.line) || stream.SanitizeLine(a.Line) != a.Line {
				t.Errorf("%d requests, %+v; want %d and a line with %q", n, a, c.sends, c.line)
			}
			if len(conv.Turns) != 1 || turn.Err == nil {
				t.Errorf("the turn is not recorded with its error")
			}
		})
	}

	// a server whose every answer names another parameter sent: each is
	// dropped once, and the turn ends
	srv := streamtest.New(t)
	for _, p := range []string{"service_tier", "prompt_cache_key", "text.verbosity", "reasoning.summary", "truncation", "store", "include", "service_tier"} {
		srv.Enqueue(streamtest.Refuses(p))
	}
	client := &stream.Client{BaseURL: srv.URL, MaxRetries: -1}
	conv := &Conversation{Settings: everything}
	a, notices, n := runTurn(t, NewEngine(srv.URL, nil), client, conv, conv.Say("hi"))
	if a.Kind != Fail || n != 8 || len(notices) != 7 {
		t.Errorf("refuses each in turn: %d requests, %d notices, %+v", n, len(notices), a)
	}
	last := srv.Requests()[n-1].JSON()
	for _, p := range []string{"service_tier", "prompt_cache_key", "text", "truncation", "include"} {
		if last[p] != nil {
			t.Errorf("the last request still carries %s", p)
		}
	}
	if last["store"] != false || last["reasoning"].(map[string]any)["summary"] != nil {
		t.Errorf("the last request: %s", srv.Requests()[n-1].Body)
	}
}

// TestEngineOverStatefulRecordings: no recorded stream of a server that
// keeps state (fixtures/real*) makes the engine resend or remember
// anything, chained or not; a chain the recordings of llama.cpp's live
// server would have ignored does.
func TestEngineOverStatefulRecordings(t *testing.T) {
	dir := sharedtest.Dir(t)
	n := 0
	for _, set := range []string{"real", "real2", "real3"} {
		files, _ := filepath.Glob(filepath.Join(dir, "fixtures", set, "*", "*.sse"))
		for _, f := range files {
			sse, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			first := firstEchoOnly(t, sse)
			if first == nil {
				continue
			}
			n++
			f2 := firstEchoOnly(t, echoChain(t, sse, "resp_chain"))
			conv := &Conversation{Settings: Settings{Model: "m", Store: first.EchoedStore == nil || *first.EchoedStore}}
			t1 := conv.Say("one")
			conv.Finish(t1, []*stream.Snapshot{snap("resp_chain", "completed")}, nil, false)
			mem := mapRecorder{}
			e := NewEngine("http://x/v1", mem)
			e.Next(Event{Kind: Sent, Conv: conv, Turn: conv.Say("two")})
			if a := e.Next(Event{Kind: Created, Snapshot: f2}); a.Kind != Continue || len(a.Notices) > 0 || conv.Stateless || len(mem) > 0 {
				t.Errorf("%s: %+v", f, a)
			}
			if a := e.Next(Event{Kind: Ended, Responses: []*stream.Snapshot{f2}}); a.Kind != Done {
				t.Errorf("%s: ended %+v", f, a)
			}
		}
	}
	if n < 150 {
		t.Errorf("only %d recordings", n)
	}
	for _, name := range []string{"huggingface__responses.js/05-previous-response-id.sse", "huggingface__responses.js/01-plain.sse"} {
		sse, err := os.ReadFile(sharedtest.Path(t, "fixtures", "live", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		first, _ := firstEcho(t, sse)
		conv := &Conversation{Settings: Settings{Model: "tiny", Store: true}}
		t1 := conv.Say("one")
		conv.Finish(t1, []*stream.Snapshot{snap("resp_1", "completed")}, nil, false)
		e := NewEngine("http://x/v1", mapRecorder{})
		e.Next(Event{Kind: Sent, Conv: conv, Turn: conv.Say("two")})
		a := e.Next(Event{Kind: Created, Snapshot: first})
		if a.Kind != Resend || !a.Cancel || a.Request.PreviousResponseID != "" || len(a.Request.Input) != 2 {
			t.Errorf("%s: the dropped chain is not resent with the history: %+v", name, a)
		}
	}
}

// TestEnginePhase: the phases a turn goes through.
func TestEnginePhase(t *testing.T) {
	conv := &Conversation{Settings: Settings{Model: "m", Store: true}}
	e := NewEngine("", nil)
	var got []string
	step := func(ev Event) { e.Next(ev); got = append(got, e.Phase().String()) }
	step(Event{Kind: Sent, Conv: conv, Turn: conv.Say("hi")})
	step(Event{Kind: Streamed})
	step(Event{Kind: Ended, Responses: []*stream.Snapshot{snap("resp_1", "completed")}})
	step(Event{Kind: ToolsRun})
	step(Event{Kind: Asking})
	step(Event{Kind: ToolsDone})
	step(Event{Kind: Began}) // a replay, /compact
	step(Event{Kind: Settled})
	step(Event{Kind: Sent, Conv: conv, Turn: conv.Say("again")})
	step(Event{Kind: Settled}) // a tool's status while a turn streams: the turn decides
	step(Event{Kind: Ended, Err: &stream.APIError{Status: 500}})
	if want := "waiting streaming idle running tools awaiting approval idle waiting idle waiting waiting idle"; strings.Join(got, " ") != want {
		t.Errorf("phases %q", strings.Join(got, " "))
	}
}

// TestEngineExpiredChain: OpenAI's 400 for a response that expired (a
// stored turn of an earlier run) is resent once with the history, and the
// server is not taken for one that keeps no state.
func TestEngineExpiredChain(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.PreviousResponseNotFound("resp_old"), streamtest.Reply{SSE: streamtest.Text("resp_2", "again")})
	client := &stream.Client{BaseURL: srv.URL, MaxRetries: -1}
	conv := &Conversation{Settings: Settings{Model: "m", Store: true}}
	old := conv.Say("one")
	conv.Finish(old, []*stream.Snapshot{snap("resp_old", "completed")}, nil, false)
	old.Stored = "completed"
	mem := mapRecorder{}
	a, notices, n := runTurn(t, NewEngine(srv.URL, mem), client, conv, conv.Say("two"))
	if a.Kind != Done || n != 2 || len(notices) != 1 || !strings.Contains(notices[0].Text, "no longer has the previous response") {
		t.Fatalf("%d requests, %+v, notices %+v", n, a, notices)
	}
	if conv.Stateless || len(mem) != 0 || srv.Requests()[1].PreviousResponseID() != "" {
		t.Errorf("an expired response made the server stateless, or the resend chained")
	}
}

// TestStoreRefusedEndsBackgroundMode: background mode sends store: true
// (stream.Open); once the server refused store, it is not asked for.
func TestStoreRefusedEndsBackgroundMode(t *testing.T) {
	conv := &Conversation{Settings: Settings{Model: "m", Store: true, Background: true}}
	if !conv.Say("one").Request.Background {
		t.Fatal("background mode is off from the start")
	}
	conv.Refuse(ParamStore)
	if r := conv.Say("two").Request; r.Background || *r.Store {
		t.Errorf("store refused, yet background %v store %v", r.Background, *r.Store)
	}
}
