package streamtest

// This file is the server's personality mode (Server.As): the server plays a
// real Responses server (OpenAI, Ollama, vLLM, llama.cpp, LM Studio, a gateway
// in front of vLLM) with that server's wire shape and its statefulness. A
// scripted Model decides what the "model" answers from the conversation the
// server reconstructed; the personality turns that answer into the bytes the
// real server would send (render_*.go) and applies the server's rule for
// store and previous_response_id. Every request is kept as an Exchange, with
// the conversation the model saw, so a test can check that a second turn kept
// its context, by a chain the server honoured or by the full history.
//
// The shapes are taken from ../shared/fixtures/servers (SOURCES.md there says
// where each comes from); personality_test.go checks each against them.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Output is what the scripted model produces for one response: reasoning,
// then a text answer, then function calls, each left out when empty.
type Output struct {
	Reasoning string
	Text      string
	Calls     []Call
}

// Call is one function call the model makes. The personality gives it the
// item id and call_id its server would.
type Call struct {
	Name      string
	Arguments string // JSON
}

// Model decides a response from the conversation the server reconstructed:
// the chain's context it honoured (if any), then the request's input items.
// It runs with the server's lock held and must not call the Server.
type Model func(seen []json.RawMessage) Output

// EchoModel answers "You said: " and the newest user text.
func EchoModel(seen []json.RawMessage) Output {
	return Output{Text: "You said: " + lastUserText(seen)}
}

// CountingModel answers "Answer N (saw K user messages)": every answer is
// told apart, and says how much of the conversation reached the model.
func CountingModel() Model {
	n := 0
	return func(seen []json.RawMessage) Output {
		n++
		users := 0
		for _, line := range Transcript(seen) {
			if strings.HasPrefix(line, "user: ") {
				users++
			}
		}
		return Output{Text: fmt.Sprintf("Answer %d (saw %d user messages)", n, users)}
	}
}

// Personality is one server's wire shape and statefulness.
type Personality struct {
	Name string
	// Chains: previous_response_id is honoured and the model sees the
	// chain's context. Without it the field is ignored without a word and
	// the model sees only the request's input.
	Chains bool
	// Stores: a response is kept for chaining unless the request says
	// store: false. A chaining server that stores nothing answers every
	// previous_response_id as not found.
	Stores bool
	// CallsChecked: a function_call_output must answer a call the model
	// saw (in the chain or in the input), else 400, as OpenAI answers.
	CallsChecked bool

	notFound func(id string) Reply // an unknown previous_response_id
	render   func(r *rendering) rendered
	// refuse, when set, answers a request the server refuses before its
	// model runs (ok); chained says whether it carried previous_response_id.
	refuse func(chained bool, input []json.RawMessage) (reply Reply, ok bool)
}

// Keeps reports whether the server keeps a conversation for the client:
// chained requests reach a model that saw the earlier turns.
func (p Personality) Keeps() bool { return p.Chains && p.Stores }

// OpenAI is today's default: events with sequence numbers, output_index and
// content_index; state kept, store honoured; an unknown chain gets a 400.
func OpenAI() Personality {
	return Personality{Name: "openai", Chains: true, Stores: true, CallsChecked: true,
		notFound: PreviousResponseNotFound, render: renderOpenAI}
}

// Ollama ignores store and previous_response_id and says so only by echoing
// store: false and previous_response_id: null: the model sees the new input
// alone. Its ids are short (resp_953021) and its reasoning is summary text
// with no summary_part.added, whose encrypted_content is the plain thinking.
func Ollama() Personality {
	return Personality{Name: "ollama", render: renderOllama}
}

// VLLM is vLLM started with VLLM_ENABLE_RESPONSES_API_STORE=1 (gpt-oss):
// reasoning_part events, a message part at a content_index carried over
// from the reasoning item, a done function_call with id null, and a terminal
// response that lists the items under new ids and the call under a new
// call_id, the ones it stores. An unknown chain gets vLLM's 404.
func VLLM() Personality {
	return Personality{Name: "vllm", Chains: true, Stores: true, CallsChecked: true,
		notFound: VLLMResponseNotFound, render: renderVLLM}
}

// VLLMNoStore is vLLM as it starts by default: it stores nothing, so every
// previous_response_id gets its 404.
func VLLMNoStore() Personality {
	p := VLLM()
	p.Name, p.Stores = "vllm-nostore", false
	return p
}

// LlamaCpp is llama-server: no sequence_number, output_index or
// content_index; a response.created of {id, object, status}; function calls
// with no item id and call_id "fc_"+id; done items and the terminal response
// repeat what was streamed. It keeps no state and echoes no
// previous_response_id.
func LlamaCpp() Personality {
	return Personality{Name: "llamacpp", render: renderLlamaCpp}
}

// LlamaCppServer is llama-server as recorded live (fixtures/live,
// commit de3ff81): LlamaCpp's wire shape, and a request that carries
// previous_response_id is refused with refusal, the recorded 400 body
// ("llama.cpp does not support 'previous_response_id'.").
func LlamaCppServer(refusal []byte) Personality {
	p := LlamaCpp()
	p.Name = "llamacpp-live"
	p.refuse = func(chained bool, _ []json.RawMessage) (Reply, bool) {
		return refusalReply(refusal), chained
	}
	return p
}

// ResponsesJS is Hugging Face's responses.js in front of a reasoning model
// (fixtures/live): previous_response_id is dropped without a word (the
// response object echoes neither it nor store), the model's reasoning
// items come back in the output, and an input holding one is refused
// with refusal, the recorded 400 zod body. The wire shape is llama.cpp's,
// which it streams from.
func ResponsesJS(refusal []byte) Personality {
	p := LlamaCpp()
	p.Name = "responsesjs"
	p.refuse = func(_ bool, input []json.RawMessage) (Reply, bool) {
		for _, it := range input {
			var f struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(it, &f) == nil && f.Type == "reasoning" {
				return refusalReply(refusal), true
			}
		}
		return Reply{}, false
	}
	return p
}

// refusalReply is a recorded 400 JSON body.
func refusalReply(body []byte) Reply {
	return Reply{Status: http.StatusBadRequest, Header: http.Header{"Content-Type": {"application/json; charset=utf-8"}}, Body: body}
}

// LMStudio keeps state (previous_response_id works) and streams reasoning
// as reasoning_text content parts, data: lines only. How it answers an
// unknown chain is not recorded; it gets OpenAI's 400 here.
func LMStudio() Personality {
	return Personality{Name: "lmstudio", Chains: true, Stores: true,
		notFound: PreviousResponseNotFound, render: renderLMStudio}
}

// Gateway is a gateway in front of vLLM that keeps state and answers
// stream: true with one data: line holding the complete Response object, with
// no type, then data: [DONE]. How it answers an unknown chain is not
// recorded; it gets OpenAI's 400 here.
func Gateway() Personality {
	return Personality{Name: "gateway", Chains: true, Stores: true,
		notFound: PreviousResponseNotFound, render: renderGateway}
}

// Personalities returns every personality, vLLM with and without its store.
func Personalities() []Personality {
	return []Personality{OpenAI(), Ollama(), VLLM(), VLLMNoStore(), LlamaCpp(), LMStudio(), Gateway()}
}

// PersonalityNamed returns the personality of that name.
func PersonalityNamed(name string) (Personality, bool) {
	for _, p := range Personalities() {
		if p.Name == name {
			return p, true
		}
	}
	return Personality{}, false
}

// VLLMResponseNotFound is the 404 vLLM sends for a previous_response_id it
// does not have: its ErrorInfo, with the HTTP status as an integer code.
func VLLMResponseNotFound(id string) Reply {
	type errorInfo struct { // vLLM's ErrorInfo, its fields in order
		Message string `json:"message"`
		Type    string `json:"type"`
		Param   string `json:"param"`
		Code    int    `json:"code"`
	}
	body, _ := json.Marshal(map[string]errorInfo{"error": {
		Message: fmt.Sprintf("Response with id '%s' not found.", id),
		Type:    "invalid_request_error", Param: "response_id", Code: http.StatusNotFound,
	}})
	return Reply{Status: http.StatusNotFound, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}
}

// Exchange is one POST /v1/responses as a personality server saw it.
type Exchange struct {
	Request Recorded
	Status  int // the HTTP status answered
	// Chained is the previous_response_id the server honoured, "" when the
	// request had none or the server ignored it.
	Chained string
	// Seen is the conversation the model saw: the honoured chain's context,
	// then the request's input. Nil when the request was refused.
	Seen       []json.RawMessage
	ResponseID string            // "" when refused
	Output     []json.RawMessage // the items as the server keeps them (its terminal response)
}

// persona is the personality mode's memory, guarded by Server.mu.
//
// Invariants:
//   - kept holds only responses of a personality that Stores, to requests
//     that did not say store: false; each Context is the Seen of its
//     exchange followed by its Output;
//   - exchanges has one entry per POST /v1/responses, in arrival order.
type persona struct {
	p         Personality
	model     Model
	kept      map[string][]json.RawMessage // response id → the context a chain to it continues
	exchanges []Exchange
	ids       idSource
}

// As makes the server play the personality: every POST /v1/responses is
// answered by model through p (the queue and handler are not used), and
// recorded as an Exchange. A nil model is EchoModel. Other routes behave as
// before (GET /v1/models answers SetModels' list).
func (s *Server) As(p Personality, model Model) *Server {
	if model == nil {
		model = EchoModel
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.persona = &persona{p: p, model: model, kept: map[string][]json.RawMessage{}, ids: idSource{seed: uint64(len(p.Name))}}
	return s
}

// NewAs starts a server playing p, closed when the test ends.
func NewAs(t testing.TB, p Personality, model Model) *Server {
	t.Helper()
	s := NewServer()
	t.Cleanup(s.Close)
	return s.As(p, model)
}

// Exchanges returns every POST /v1/responses the personality answered.
func (s *Server) Exchanges() []Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.persona == nil {
		return nil
	}
	return append([]Exchange(nil), s.persona.exchanges...)
}

// personaReply answers rec in personality mode; ok is false when the mode
// is off or the request is not a POST /v1/responses. It runs with s.mu held.
func (s *Server) personaReply(rec Recorded) (Reply, bool) {
	ps := s.persona
	if ps == nil || rec.Method != http.MethodPost || rec.Path != "/v1/responses" {
		return Reply{}, false
	}
	ex := Exchange{Request: rec}
	reply := ps.answer(rec, &ex)
	ex.Status = reply.Status
	if ex.Status == 0 {
		ex.Status = http.StatusOK
	}
	ps.exchanges = append(ps.exchanges, ex)
	return reply, true
}

// answer decides the reply and fills ex.
func (ps *persona) answer(rec Recorded, ex *Exchange) Reply {
	var body struct {
		requestBody
		Include []string `json:"include"`
	}
	if err := json.Unmarshal(rec.Body, &body); err != nil {
		return jsonError(http.StatusBadRequest, "We could not parse the JSON body of your request.", "invalid_request_error", "")
	}
	input, err := body.items()
	if err != nil {
		return jsonErrorParam(http.StatusBadRequest, "Invalid type for 'input': expected a string or an array of items.", "invalid_request_error", "invalid_type", "input")
	}
	if ps.p.refuse != nil {
		if reply, ok := ps.p.refuse(body.PreviousResponseID != "", input); ok {
			return reply
		}
	}
	var seen []json.RawMessage
	if id := body.PreviousResponseID; id != "" && ps.p.Chains {
		ctx, found := ps.kept[id]
		if !found {
			return ps.p.notFound(id)
		}
		seen = append(seen, ctx...)
		ex.Chained = id
	}
	seen = append(seen, input...)
	if ps.p.CallsChecked {
		if id := unansweredOutput(seen); id != "" {
			return jsonErrorParam(http.StatusBadRequest, fmt.Sprintf("No tool call found for function call output with call_id %s.", id), "invalid_request_error", "", "input")
		}
	}
	store := body.Store == nil || *body.Store
	r := &rendering{Model: body.Model, Previous: body.PreviousResponseID, Store: store, Include: body.Include, Out: ps.model(seen), ids: &ps.ids}
	out := ps.p.render(r)
	ex.Seen, ex.ResponseID, ex.Output = seen, out.ID, out.Output
	if ps.p.Stores && store {
		ps.kept[out.ID] = append(append([]json.RawMessage(nil), seen...), out.Output...)
	}
	return Reply{SSE: out.SSE}
}

// unansweredOutput returns the call_id of the first function_call_output
// in items that answers no function_call before it, or "".
func unansweredOutput(items []json.RawMessage) string {
	calls := map[string]bool{}
	for _, it := range items {
		var f struct {
			Type   string `json:"type"`
			CallID string `json:"call_id"`
		}
		_ = json.Unmarshal(it, &f)
		switch f.Type {
		case "function_call":
			calls[f.CallID] = true
		case "function_call_output":
			if !calls[f.CallID] {
				return f.CallID
			}
		}
	}
	return ""
}

// Transcript is one line per item, for assertions on what a model saw:
// "user: …", "assistant: …", "reasoning: …", "function_call NAME ARGS
// call_id=ID", "function_call_output call_id=ID: OUTPUT", else the type.
func Transcript(items []json.RawMessage) []string {
	var lines []string
	for _, raw := range items {
		var it struct {
			Type      string          `json:"type"`
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			Summary   []struct{ Text string }
			Name      string          `json:"name"`
			Arguments string          `json:"arguments"`
			CallID    string          `json:"call_id"`
			Output    json.RawMessage `json:"output"`
		}
		_ = json.Unmarshal(raw, &it)
		switch {
		case (it.Type == "message" || it.Type == "") && it.Role != "":
			lines = append(lines, it.Role+": "+contentText(it.Content))
		case it.Type == "reasoning":
			var parts []string
			for _, s := range it.Summary {
				parts = append(parts, s.Text)
			}
			if c := contentText(it.Content); c != "" {
				parts = append(parts, c)
			}
			lines = append(lines, "reasoning: "+strings.Join(parts, " "))
		case it.Type == "function_call":
			lines = append(lines, fmt.Sprintf("function_call %s %s call_id=%s", it.Name, it.Arguments, it.CallID))
		case it.Type == "function_call_output":
			lines = append(lines, fmt.Sprintf("function_call_output call_id=%s: %s", it.CallID, contentText(it.Output)))
		default:
			lines = append(lines, it.Type)
		}
	}
	return lines
}

// contentText joins the texts of a string or an array of parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
