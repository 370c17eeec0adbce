package streamtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
)

// serve posts body to a server playing p whose model answers out, and
// returns the bytes served and the exchange.
func serve(t *testing.T, p Personality, out Output, body string) ([]byte, Exchange) {
	t.Helper()
	s := NewAs(t, p, func([]json.RawMessage) Output { return out })
	resp := post(t, t.Context(), s, body)
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	ex := s.Exchanges()
	if len(ex) != 1 {
		t.Fatalf("%d exchanges", len(ex))
	}
	return got, ex[0]
}

var (
	textOut = Output{Reasoning: "The user says hi.", Text: "Hello! How can I help?"}
	callOut = Output{Reasoning: "Need the weather tool.", Calls: []Call{{Name: "get_weather", Arguments: `{"city":"Paris"}`}}}
)

// TestPersonalityShapesMatchFixtures: each personality's stream, for a text
// answer and for a tool call, has the event sequence of its server's real
// stream, and (where the fixture is the server's own bytes) the same keys on
// every event, item and response object.
func TestPersonalityShapesMatchFixtures(t *testing.T) {
	const asked = `{"model":"m","input":"hi","include":["reasoning.encrypted_content"]}`
	cases := []struct {
		p       Personality
		fixture string // under ../shared/fixtures
		out     Output
		keys    bool // compare keys too
	}{
		{OpenAI(), "real2/charmbracelet__fantasy/openai-o4-mini-thinking-2.sse", textOut, true},
		{OpenAI(), "real2/charmbracelet__fantasy/openai-gpt-5-thinking-1.sse", callOut, true},
		{Ollama(), "servers/ollama__ollama/ollama-text.sse", Output{Text: "Hello, world!"}, true},
		{Ollama(), "servers/ollama__ollama-live/01-plain.sse", Output{Text: "Hello, world!"}, true},
		{Ollama(), "servers/ollama__ollama/ollama-thinking-toolcall.sse", callOut, true},
		{Ollama(), "servers/ollama__ollama-live/06-forced-function-call.sse", Output{Calls: callOut.Calls}, true},
		// from vLLM's code, at a version whose objects held fewer fields
		{VLLM(), "servers/vllm-project__vllm/vllm-harmony-content-index-carryover.sse", textOut, false},
		{VLLM(), "servers/vllm-project__agentic-api/vllm-gpt-oss-20b-toolcall-turn1.sse", callOut, true},
		{LlamaCpp(), "servers/ggml-org__llama.cpp/llamacpp-text.sse", Output{Text: "The capital of France is Paris."}, true},
		{LlamaCpp(), "servers/ggml-org__llama.cpp/llamacpp-toolcall.sse", callOut, true},
		{LMStudio(), "real/vercel__ai/lmstudio-basic-markdown.sse", Output{Text: "## A festival"}, true},
		{LMStudio(), "real/vercel__ai/lmstudio-tool-call-reasoning-text.sse",
			Output{Reasoning: "The user asks.", Text: "I'll get it.", Calls: []Call{{Name: "weather", Arguments: `{"location":"SF"}`}}}, true},
		// the one recording holds reasoning, text and a call; a text answer is the same object with fewer items
		{Gateway(), "servers/vllm-project__agentic-api/agentic-gateway-qwen3.6-function-call-turn1.sse",
			Output{Reasoning: "Plan.", Text: "\n\n", Calls: []Call{{Name: "agentic_plain_echo", Arguments: `{"text": "plain fixture"}`}}}, true},
		{Gateway(), "servers/vllm-project__agentic-api/agentic-gateway-qwen3.6-function-call-turn1.sse", Output{Text: "Hello."}, true},
	}
	for _, c := range cases {
		t.Run(c.p.Name+"/"+c.fixture[strings.LastIndex(c.fixture, "/")+1:], func(t *testing.T) {
			want, err := os.ReadFile(sharedtest.Path(t, append([]string{"fixtures"}, strings.Split(c.fixture, "/")...)...))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := serve(t, c.p, c.out, asked)
			ws, gs := shapeOf(want), shapeOf(got)
			if ws.named != gs.named || ws.done != gs.done {
				t.Errorf("framing: event lines %v, [DONE] %v; the server sends %v, %v", gs.named, gs.done, ws.named, ws.done)
			}
			if len(c.out.Calls) == 0 && c.p.Name == "gateway" {
				return // the fixture's item list is not this answer's; the framing and object are checked below
			}
			if !slices.Equal(gs.types(), ws.types()) {
				t.Fatalf("event sequence:\n got  %s\n want %s", strings.Join(gs.types(), " "), strings.Join(ws.types(), " "))
			}
			if !c.keys {
				return
			}
			for i, w := range ws.events {
				g := gs.events[i]
				if g.Keys != w.Keys || g.ItemKeys != w.ItemKeys || g.RespKeys != w.RespKeys {
					t.Errorf("event %d (%s %s):\n got  keys %s | item %s | response %s\n want keys %s | item %s | response %s",
						i, w.Type, w.ItemType, g.Keys, g.ItemKeys, g.RespKeys, w.Keys, w.ItemKeys, w.RespKeys)
				}
			}
		})
	}
}

// TestGatewayTextIsOneBareObject: a text answer through the gateway is one
// data line with the complete Response object, no type, then [DONE].
func TestGatewayTextIsOneBareObject(t *testing.T) {
	got, ex := serve(t, Gateway(), Output{Text: "Hello."}, `{"model":"m","input":"hi"}`)
	sh := shapeOf(got)
	if len(sh.raw) != 1 || !sh.done || sh.named || sh.raw[0]["type"] != nil || sh.raw[0]["object"] != "response" || sh.raw[0]["status"] != "completed" {
		t.Fatalf("stream:\n%s", got)
	}
	if want := "data: {"; !strings.HasPrefix(string(got), want) || !strings.HasSuffix(string(got), "\n\ndata: [DONE]\n\n") {
		t.Errorf("framing:\n%s", got)
	}
	if len(ex.Output) != 1 || !strings.Contains(string(ex.Output[0]), `"text":"Hello."`) {
		t.Errorf("kept output %s", ex.Output)
	}
}

// TestPersonalityQuirks checks, per personality, the fields that set its
// server apart (SOURCES.md's list), on a chained request that asks to store.
func TestPersonalityQuirks(t *testing.T) {
	const chained = `{"model":"m","input":"again","store":true,"previous_response_id":"%s"}`
	full := Output{Reasoning: "Think first.", Text: "An answer.", Calls: []Call{{Name: "probe", Arguments: `{"word":"kiwi"}`}}}
	// chainTo is a served response id the chained request can name.
	chainTo := func(t *testing.T, p Personality) ([]byte, Exchange) {
		s := NewAs(t, p, func([]json.RawMessage) Output { return full })
		io.ReadAll(post(t, t.Context(), s, `{"model":"m","input":"hi"}`).Body)
		first := s.Exchanges()[0].ResponseID
		got, _ := io.ReadAll(post(t, t.Context(), s, fmt.Sprintf(chained, first)).Body)
		ex := s.Exchanges()
		return got, ex[len(ex)-1]
	}

	t.Run("openai", func(t *testing.T) {
		got, ex := chainTo(t, OpenAI())
		sh := shapeOf(got)
		for i, m := range sh.raw {
			if _, ok := m["sequence_number"]; !ok {
				t.Errorf("event %d has no sequence_number", i)
			}
		}
		if len(sh.withKey("output_index")) == 0 || len(sh.withKey("content_index")) == 0 {
			t.Errorf("no output_index or content_index")
		}
		created := sh.ofType("response.created")[0]["response"].(map[string]any)
		if created["previous_response_id"] != ex.Chained || created["store"] != true || ex.Chained == "" {
			t.Errorf("created echoes previous_response_id %v store %v; chained %q", created["previous_response_id"], created["store"], ex.Chained)
		}
	})

	t.Run("ollama", func(t *testing.T) {
		got, ex := chainTo(t, Ollama())
		sh := shapeOf(got)
		if !sh.named || sh.done {
			t.Errorf("framing: event lines %v, [DONE] %v", sh.named, sh.done)
		}
		if !regexp.MustCompile(`^resp_[1-9][0-9]{5}$`).MatchString(ex.ResponseID) {
			t.Errorf("response id %q is not Ollama's short id", ex.ResponseID)
		}
		for _, typ := range []string{"response.created", "response.in_progress", "response.completed"} {
			r := sh.ofType(typ)[0]["response"].(map[string]any)
			if r["created_at"] == nil || r["store"] != false || r["previous_response_id"] != nil {
				t.Errorf("%s: created_at %v store %v previous_response_id %v", typ, r["created_at"], r["store"], r["previous_response_id"])
			}
		}
		if len(sh.ofType("response.reasoning_summary_text.delta")) == 0 || len(sh.ofType("response.reasoning_summary_part.added")) != 0 {
			t.Errorf("reasoning: %s", strings.Join(sh.types(), " "))
		}
		for _, m := range sh.ofType("response.output_item.done") {
			if it := m["item"].(map[string]any); it["type"] == "reasoning" && it["encrypted_content"] != full.Reasoning {
				t.Errorf("encrypted_content %v, want the plain thinking", it["encrypted_content"])
			}
		}
		if ex.Chained != "" || len(ex.Seen) != 1 {
			t.Errorf("the model saw %d items (chained %q); Ollama ignores the chain", len(ex.Seen), ex.Chained)
		}
	})

	t.Run("vllm", func(t *testing.T) {
		got, ex := chainTo(t, VLLM())
		sh := shapeOf(got)
		if len(sh.ofType("response.reasoning_part.added")) != 1 || len(sh.ofType("response.reasoning_part.done")) != 1 {
			t.Errorf("no reasoning_part events: %s", strings.Join(sh.types(), " "))
		}
		if ci := sh.ofType("response.content_part.added")[0]["content_index"]; ci != 1.0 {
			t.Errorf("the message part is at content_index %v, want 1 after the reasoning item", ci)
		}
		streamed := map[string]bool{}
		for _, m := range sh.ofType("response.output_item.added") {
			it := m["item"].(map[string]any)
			streamed[fmt.Sprint(it["id"])], streamed[fmt.Sprint(it["call_id"])] = true, true
		}
		for _, m := range sh.ofType("response.output_item.done") {
			if it := m["item"].(map[string]any); it["type"] == "function_call" && (it["id"] != nil || it["item_id"] == nil || it["sequence_number"] != -1.0) {
				t.Errorf("done function_call %v", it)
			}
		}
		for _, raw := range ex.Output {
			var it struct {
				ID     string `json:"id"`
				CallID string `json:"call_id"`
			}
			json.Unmarshal(raw, &it)
			if streamed[it.ID] || (it.CallID != "" && streamed[it.CallID]) {
				t.Errorf("terminal item %s keeps a streamed id", raw)
			}
		}
		created := sh.ofType("response.created")[0]["response"].(map[string]any)
		if _, has := created["store"]; has || created["previous_response_id"] != ex.Chained || ex.Chained == "" {
			t.Errorf("created: store %v, previous_response_id %v; chained %q", created["store"], created["previous_response_id"], ex.Chained)
		}
	})

	t.Run("llamacpp", func(t *testing.T) {
		got, ex := chainTo(t, LlamaCpp())
		sh := shapeOf(got)
		for _, key := range []string{"sequence_number", "output_index", "content_index", "previous_response_id"} {
			if at := sh.withKey(key); len(at) > 0 {
				t.Errorf("%s at %v", key, at)
			}
		}
		if k := keysOf(sh.ofType("response.created")[0]["response"].(map[string]any)); k != "id,object,status" {
			t.Errorf("response.created holds %s", k)
		}
		for _, m := range sh.ofType("response.output_item.added") {
			if it := m["item"].(map[string]any); it["type"] == "function_call" {
				if _, has := it["id"]; has || !strings.HasPrefix(it["call_id"].(string), "fc_") {
					t.Errorf("function call item %v", it)
				}
			}
		}
		if r := sh.ofType("response.completed")[0]["response"].(map[string]any); r["status"] != "completed" {
			t.Errorf("status %v", r["status"])
		}
		if ex.Chained != "" || len(ex.Seen) != 1 {
			t.Errorf("the model saw %d items (chained %q); llama.cpp keeps no state", len(ex.Seen), ex.Chained)
		}
	})

	t.Run("lmstudio", func(t *testing.T) {
		got, ex := chainTo(t, LMStudio())
		sh := shapeOf(got)
		if sh.named || sh.done {
			t.Errorf("framing: event lines %v, [DONE] %v", sh.named, sh.done)
		}
		parts := sh.ofType("response.content_part.added")
		if len(parts) == 0 || parts[0]["part"].(map[string]any)["type"] != "reasoning_text" || len(sh.ofType("response.reasoning_text.delta")) == 0 {
			t.Errorf("reasoning is not a reasoning_text part: %s", strings.Join(sh.types(), " "))
		}
		if created := sh.ofType("response.created")[0]["response"].(map[string]any); created["previous_response_id"] != ex.Chained || ex.Chained == "" {
			t.Errorf("created echoes %v; chained %q", created["previous_response_id"], ex.Chained)
		}
	})

	t.Run("gateway", func(t *testing.T) {
		got, ex := chainTo(t, Gateway())
		sh := shapeOf(got)
		if len(sh.raw) != 1 || !sh.done || sh.raw[0]["type"] != nil || sh.raw[0]["previous_response_id"] != ex.Chained || ex.Chained == "" {
			t.Errorf("stream (chained %q):\n%s", ex.Chained, got)
		}
		if len(ex.Output) != 3 {
			t.Errorf("%d items kept", len(ex.Output))
		}
	})
}

// TestPersonalityState: a second request chained to the first reaches a
// model that saw the first turn on a server that keeps state, and the new
// input alone on one that ignores the chain; a vLLM that stores nothing, and
// any server asked not to store, answers the chain as not found.
func TestPersonalityState(t *testing.T) {
	model := func(seen []json.RawMessage) Output { return Output{Text: "answer to " + lastUserText(seen)} }
	for _, p := range Personalities() {
		t.Run(p.Name, func(t *testing.T) {
			s := NewAs(t, p, model)
			io.ReadAll(post(t, t.Context(), s, `{"model":"m","input":"first"}`).Body)
			first := s.Exchanges()[0]
			resp := post(t, t.Context(), s, `{"model":"m","input":"second","previous_response_id":"`+first.ResponseID+`"}`)
			body, _ := io.ReadAll(resp.Body)
			second := s.Exchanges()[1]
			seen := strings.Join(Transcript(second.Seen), "\n")
			switch {
			case p.Name == "vllm-nostore":
				want := `{"error":{"message":"Response with id '` + first.ResponseID + `' not found.","type":"invalid_request_error","param":"response_id","code":404}}`
				if resp.StatusCode != http.StatusNotFound || string(body) != want || second.Seen != nil {
					t.Errorf("status %d body %s", resp.StatusCode, body)
				}
			case p.Keeps():
				if want := "user: first\nassistant: answer to first\nuser: second"; seen != want || second.Chained != first.ResponseID {
					t.Errorf("the model saw:\n%s\nwant:\n%s", seen, want)
				}
			default:
				if seen != "user: second" || second.Chained != "" {
					t.Errorf("the model saw:\n%s", seen)
				}
			}
			if !p.Keeps() {
				return
			}
			io.ReadAll(post(t, t.Context(), s, `{"model":"m","input":"unstored","store":false}`).Body)
			ex := s.Exchanges()
			resp = post(t, t.Context(), s, `{"model":"m","input":"x","previous_response_id":"`+ex[len(ex)-1].ResponseID+`"}`)
			if resp.StatusCode == http.StatusOK {
				t.Errorf("a chain to a response stored with store: false was honoured")
			}
		})
	}
}

// TestVLLMExpectsTheSnapshotCallID: vLLM stores the terminal response's
// call_id; an output answering the streamed call_id answers no call it
// knows (400), the snapshot's is accepted.
func TestVLLMExpectsTheSnapshotCallID(t *testing.T) {
	s := NewAs(t, VLLM(), func(seen []json.RawMessage) Output {
		if strings.Contains(strings.Join(Transcript(seen), "\n"), "function_call_output") {
			return Output{Text: "done"}
		}
		return callOut
	})
	sse, _ := io.ReadAll(post(t, t.Context(), s, `{"model":"m","input":"weather?"}`).Body)
	ex := s.Exchanges()[0]
	var streamedCall string
	for _, m := range shapeOf(sse).ofType("response.output_item.added") {
		if it := m["item"].(map[string]any); it["type"] == "function_call" {
			streamedCall = it["call_id"].(string)
		}
	}
	var snapshot struct {
		CallID string `json:"call_id"`
	}
	json.Unmarshal(ex.Output[len(ex.Output)-1], &snapshot)
	if streamedCall == "" || snapshot.CallID == "" || streamedCall == snapshot.CallID {
		t.Fatalf("streamed call_id %q, snapshot %q", streamedCall, snapshot.CallID)
	}
	answer := func(callID string) int {
		body := `{"model":"m","previous_response_id":"` + ex.ResponseID + `","input":[{"type":"function_call_output","call_id":"` + callID + `","output":"sunny"}]}`
		resp := post(t, t.Context(), s, body)
		io.ReadAll(resp.Body)
		return resp.StatusCode
	}
	if got := answer(streamedCall); got != http.StatusBadRequest {
		t.Errorf("the streamed call_id got %d, want 400", got)
	}
	if got := answer(snapshot.CallID); got != http.StatusOK {
		t.Errorf("the snapshot's call_id got %d, want 200", got)
	}
}

// TestTranscript: one line per item kind, as tests read what a model saw.
func TestTranscript(t *testing.T) {
	items := []json.RawMessage{
		userMessage("hi"),
		json.RawMessage(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hello"}]}`),
		json.RawMessage(`{"type":"reasoning","summary":[{"type":"summary_text","text":"short"}],"content":[{"type":"reasoning_text","text":"long"}]}`),
		json.RawMessage(`{"type":"function_call","name":"probe","arguments":"{}","call_id":"c1"}`),
		json.RawMessage(`{"type":"function_call_output","call_id":"c1","output":"ok"}`),
		json.RawMessage(`{"role":"user","content":"plain"}`),
		json.RawMessage(`{"type":"item_reference","id":"x"}`),
	}
	want := []string{"user: hi", "assistant: hello", "reasoning: short long", "function_call probe {} call_id=c1",
		"function_call_output call_id=c1: ok", "user: plain", "item_reference"}
	if got := Transcript(items); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestPersonalityNamed finds each personality by name.
func TestPersonalityNamed(t *testing.T) {
	for _, name := range []string{"openai", "ollama", "vllm", "vllm-nostore", "llamacpp", "lmstudio", "gateway"} {
		if p, ok := PersonalityNamed(name); !ok || p.Name != name {
			t.Errorf("%s: %v %v", name, p.Name, ok)
		}
	}
	if _, ok := PersonalityNamed("nope"); ok {
		t.Error("an unknown name was found")
	}
}
