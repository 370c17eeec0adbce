package session

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"runnel/stream"
	"runnel/stream/sharedtest"
)

func TestResendReasoning(t *testing.T) {
	tests := []struct {
		name, in, want string // want "" : left out
	}{
		{"encrypted", `{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAA"}`,
			`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAA"}`},
		{"content, encrypted null", `{"type":"reasoning","id":"rs_1","summary":[],"content":[{"type":"reasoning_text","text":"think"}],"encrypted_content":null}`,
			`{"type":"reasoning","id":"rs_1","summary":[],"content":[{"type":"reasoning_text","text":"think"}],"encrypted_content":null}`},
		{"fragments", `{"type":"reasoning","id":"rs_1","summary":[],"content":[{"type":"reasoning_text","text":"The"},{"type":"reasoning_text","text":" user"},{"type":"reasoning_text","text":" says"},{"type":"reasoning_text","text":" hi"},{"type":"reasoning_text","text":"."}]}`,
			`{"content":[{"text":"The user says hi.","type":"reasoning_text"}],"id":"rs_1","summary":[],"type":"reasoning"}`},
		{"fragments with a gap", `{"type":"reasoning","id":"rs_1","content":[{"type":"output_text","text":"","annotations":[]},{"type":"reasoning_text","text":"a"},{"type":"reasoning_text","text":"b"}]}`,
			`{"content":[{"text":"ab","type":"reasoning_text"}],"id":"rs_1","type":"reasoning"}`},
		{"encrypted and empty parts", `{"type":"reasoning","id":"rs_1","content":[{"type":"reasoning_text","text":""},{"type":"reasoning_text","text":""}],"encrypted_content":"gAAA"}`,
			`{"encrypted_content":"gAAA","id":"rs_1","type":"reasoning"}`},
		{"summary only", `{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"s"}]}`, ""},
		{"empty content", `{"type":"reasoning","id":"rs_1","summary":[],"content":[],"encrypted_content":null}`, ""},
		{"empty text", `{"type":"reasoning","id":"rs_1","content":[{"type":"reasoning_text","text":""}]}`, ""},
		{"empty encrypted", `{"type":"reasoning","id":"rs_1","encrypted_content":""}`, ""},
		{"not json", `{"type":`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ResendReasoning(json.RawMessage(tt.in))
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// replay folds a recorded stream into snapshots, as the client does.
func replay(t *testing.T, sse []byte) []*stream.Snapshot {
	t.Helper()
	var acc stream.Accumulator
	d := stream.NewDecoder(bytes.NewReader(sse))
	for d.Next() {
		acc.Apply(d.Event())
	}
	acc.Finish()
	if len(acc.Responses()) == 0 {
		t.Fatal("no response")
	}
	return acc.Responses()
}

// nextInput puts the recorded answer in a store = false conversation and
// returns the next request's input items, decoded.
func nextInput(t *testing.T, sse []byte, next ...json.RawMessage) []map[string]any {
	t.Helper()
	c := &Conversation{Settings: Settings{Model: "m", Store: false}}
	t1 := c.Say("hi")
	c.Finish(t1, replay(t, sse), nil, false)
	if len(next) == 0 {
		next = []json.RawMessage{stream.UserText("and then?")}
	}
	t2 := c.Begin("", next...)
	var out []map[string]any
	for _, raw := range t2.Request.Input {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("input item %s: %v", raw, err)
		}
		out = append(out, m)
	}
	return out
}

// reasoningOf returns the reasoning items of input.
func reasoningOf(in []map[string]any) []map[string]any {
	var out []map[string]any
	for _, m := range in {
		if m["type"] == "reasoning" {
			out = append(out, m)
		}
	}
	return out
}

// contentTexts are a reasoning item's content texts.
func contentTexts(m map[string]any) []string {
	parts, _ := m["content"].([]any)
	var out []string
	for _, p := range parts {
		pm, _ := p.(map[string]any)
		s, _ := pm["text"].(string)
		out = append(out, s)
	}
	return out
}

// TestVLLMReasoningIsResentWithItsContent: vLLM's reasoning items carry
// content and no encrypted_content; store = false history sends them with
// their text, in one part.
func TestVLLMReasoningIsResentWithItsContent(t *testing.T) {
	sse, err := os.ReadFile(sharedtest.Path(t, "fixtures", "servers", "vllm-project__vllm", "vllm-harmony-content-index-carryover.sse"))
	if err != nil {
		t.Fatal(err)
	}
	in := nextInput(t, sse)
	rs := reasoningOf(in)
	if len(rs) != 1 || strings.Join(contentTexts(rs[0]), "|") != "The user says hi." {
		t.Fatalf("reasoning sent: %v (input %v)", rs, in)
	}
	if in[0]["role"] != "user" || in[1]["type"] != "reasoning" || in[2]["type"] != "message" || in[3]["role"] != "user" {
		t.Errorf("order: %v", in)
	}
}

// TestVLLMToolRoundResendsReasoningAndTheSnapshotCallID: a real vLLM
// (gpt-oss) recording, reasoning then a call: the next request carries the
// reasoning's text and the call under the call_id of the terminal
// snapshot, answered once.
func TestVLLMToolRoundResendsReasoningAndTheSnapshotCallID(t *testing.T) {
	sse, err := os.ReadFile(sharedtest.Path(t, "fixtures", "servers", "vllm-project__agentic-api", "vllm-gpt-oss-20b-toolcall-turn1.sse"))
	if err != nil {
		t.Fatal(err)
	}
	var callID string
	for _, s := range replay(t, sse) {
		for _, it := range s.Items {
			if it.Type == "function_call" {
				callID = it.CallID
			}
		}
	}
	in := nextInput(t, sse, stream.OutputItem(callID, "done"))
	rs := reasoningOf(in)
	if len(rs) != 1 || strings.Join(contentTexts(rs[0]), "|") != "The user wants to check status of job-382. We should call get_job_status." {
		t.Fatalf("reasoning sent: %v", rs)
	}
	var calls, outputs int
	for _, m := range in {
		switch m["type"] {
		case "function_call":
			calls++
			if m["call_id"] != callID {
				t.Errorf("call %v, the output answers %s", m["call_id"], callID)
			}
		case "function_call_output":
			outputs++
		}
	}
	if calls != 1 || outputs != 1 {
		t.Errorf("%d calls, %d outputs: %v", calls, outputs, in)
	}
}

// TestOllamaReasoningIsResentEncrypted: Ollama puts its thinking in
// encrypted_content; the item goes back as received.
func TestOllamaReasoningIsResentEncrypted(t *testing.T) {
	sse, err := os.ReadFile(sharedtest.Path(t, "fixtures", "servers", "ollama__ollama", "ollama-thinking-toolcall.sse"))
	if err != nil {
		t.Fatal(err)
	}
	in := nextInput(t, sse, stream.OutputItem("call_k3x9", "sunny"))
	rs := reasoningOf(in)
	if len(rs) != 1 || rs[0]["encrypted_content"] != "Need weather tool." {
		t.Fatalf("reasoning sent: %v", rs)
	}
}

// TestReasoningFragmentsAreJoined: vLLM's reasoning deltas with a growing
// content_index (each delta its own part, no part or item done to say
// otherwise) leave fragment parts; the history sends one part.
func TestReasoningFragmentsAreJoined(t *testing.T) {
	sse, err := os.ReadFile(sharedtest.Path(t, "fixtures", "servers", "vllm-project__vllm", "vllm-harmony-content-index-carryover.sse"))
	if err != nil {
		t.Fatal(err)
	}
	// each reasoning delta at its own content_index; the events that give
	// the reasoning whole are left out, as is the terminal copy of it
	events := bytes.Split(sse, []byte("\n\n"))
	var kept [][]byte
	n := 0
	idx := regexp.MustCompile(`"content_index":0`)
	for _, ev := range events {
		switch {
		case bytes.Contains(ev, []byte("response.reasoning_text.delta")):
			ev = idx.ReplaceAll(ev, []byte(`"content_index":`+strconv.Itoa(n)))
			n++
		case bytes.Contains(ev, []byte("response.reasoning_text.done")), bytes.Contains(ev, []byte("response.reasoning_part.done")),
			bytes.Contains(ev, []byte("output_item.done")) && bytes.Contains(ev, []byte(`"type":"reasoning"`)),
			bytes.Contains(ev, []byte("response.completed")):
			continue
		}
		kept = append(kept, ev)
	}
	frag := bytes.Join(kept, []byte("\n\n"))
	var parts int
	for _, s := range replay(t, frag) {
		for _, it := range s.Items {
			if it.Type == "reasoning" {
				parts = len(it.Content)
				it.Done = true // as after the stream's end
			}
		}
	}
	if parts != 5 {
		t.Fatalf("the rewritten stream leaves %d parts, want 5 fragments", parts)
	}
	// the turn ended incomplete (no terminal event): store the snapshot as
	// completed so that local history carries it
	c := &Conversation{Settings: Settings{Model: "m", Store: false}}
	t1 := c.Say("hi")
	snaps := replay(t, frag)
	snaps[0].Terminal, snaps[0].CutOff, snaps[0].Status = true, false, "completed"
	c.Finish(t1, snaps, nil, false)
	var rs []map[string]any
	for _, raw := range c.Say("next").Request.Input {
		var m map[string]any
		json.Unmarshal(raw, &m)
		if m["type"] == "reasoning" {
			rs = append(rs, m)
		}
	}
	if len(rs) != 1 || strings.Join(contentTexts(rs[0]), "|") != "The user says hi." {
		t.Errorf("reasoning sent: %v", rs)
	}
}

// TestSwitchLeavesReasoningBehind: after a provider switch the history sent
// to the new server holds the earlier turns' messages and calls but not
// their reasoning (Ollama's "encrypted_content" is its plain thinking; any
// other server refuses another's); the new server's own reasoning is sent
// again as usual.
func TestSwitchLeavesReasoningBehind(t *testing.T) {
	sse, err := os.ReadFile(sharedtest.Path(t, "fixtures", "servers", "ollama__ollama", "ollama-thinking-toolcall.sse"))
	if err != nil {
		t.Fatal(err)
	}
	c := &Conversation{Settings: Settings{Model: "m", Store: false}}
	t1 := c.Say("weather?")
	c.Finish(t1, replay(t, sse), nil, false)
	c.SwitchProvider()
	t2 := c.Begin("", stream.OutputItem("call_k3x9", "sunny"))
	var in []map[string]any
	for _, raw := range t2.Request.Input {
		var m map[string]any
		json.Unmarshal(raw, &m)
		in = append(in, m)
	}
	if rs := reasoningOf(in); len(rs) != 0 {
		t.Errorf("the old provider's reasoning went to the new one: %v", rs)
	}
	calls := 0
	for _, m := range in {
		if m["type"] == "function_call" {
			calls++
		}
	}
	if calls != 1 || t2.Request.PreviousResponseID != "" {
		t.Errorf("history after the switch: %d calls, previous %q", calls, t2.Request.PreviousResponseID)
	}
	// the new provider's reasoning is its own: sent again
	c.Finish(t2, replay(t, sse), nil, false)
	t3 := c.Begin("", stream.UserText("and then?"))
	n := 0
	for _, raw := range t3.Request.Input {
		if bytes.Contains(raw, []byte(`"type":"reasoning"`)) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d reasoning items in the next history, want the new provider's one", n)
	}
	if f := c.Fork(1); f.movedAt != 1 {
		t.Errorf("a fork forgets the switch: movedAt %d", f.movedAt)
	}
}
