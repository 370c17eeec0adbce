package tools

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"runnel/stream"
	"runnel/stream/sharedtest"
)

// fixture decodes a real recorded stream from ../shared, or skips.
func fixture(t *testing.T, name string) *stream.Snapshot {
	t.Helper()
	f, err := os.Open(sharedtest.Real(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var acc stream.Accumulator
	d := stream.NewDecoder(f)
	for d.Next() {
		if _, err := acc.Apply(d.Event()); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if err := d.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	acc.Finish()
	return acc.Current()
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func TestLoopParallelCallsFromRealStream(t *testing.T) {
	resp := fixture(t, "charmbracelet__fantasy/openai-gpt-4o-parallel-function-calls.sse")
	l := NewLoop(0)
	if owed := l.Begin(t0); owed != nil || l.State() != StateStreaming {
		t.Fatalf("Begin: owed %v, state %v", owed, l.State())
	}
	calls, stop := l.Next(resp, t0.Add(time.Second))
	if stop != "" || len(calls) != 2 || l.State() != StateRunning {
		t.Fatalf("Next: %d calls, stop %q, state %v", len(calls), stop, l.State())
	}
	want := []Call{
		{Index: 0, ItemID: "fc_07d2265248f742f6016a3c12065a2c819e8eb9b547f64a93fc", CallID: "call_NnEvpiwdL8XrZ6F3T9VJyVw7", Name: "add", Arguments: `{"a":2,"b":3}`},
		{Index: 1, ItemID: "fc_07d2265248f742f6016a3c12065a40819e8e8a06cce489d66f", CallID: "call_TQ8336oa6YnuT2leYzRDBBLz", Name: "multiply", Arguments: `{"a":2,"b":3}`},
	}
	for i := range want {
		if calls[i] != want[i] {
			t.Errorf("call %d = %+v, want %+v", i, calls[i], want[i])
		}
	}
	// Results in any order come back in call order.
	in, prev := l.Finish([]Result{
		{Call: calls[1], Output: "6"},
		{Call: calls[0], Output: "5"},
	}, t0.Add(2*time.Second))
	if prev != resp.ID || len(in) != 2 || l.State() != StateStreaming {
		t.Fatalf("Finish: prev %q, %d items, state %v", prev, len(in), l.State())
	}
	if string(in[0]) != string(stream.OutputItem("call_NnEvpiwdL8XrZ6F3T9VJyVw7", "5")) || string(in[1]) != string(stream.OutputItem("call_TQ8336oa6YnuT2leYzRDBBLz", "6")) {
		t.Errorf("outputs = %s", in)
	}
}

// Hosted tool items are the server's: a response made of mcp_call and
// web_search_call items needs nothing from the client.
func TestLoopLeavesHostedToolsAlone(t *testing.T) {
	for _, name := range []string{
		"vercel__ai/openai-mcp-tool-two-calls.sse",
		"vercel__ai/openai-web-search-6-calls.sse",
		"pydantic__pydantic-ai/openai-code-interpreter-image.sse",
	} {
		l := NewLoop(0)
		l.Begin(t0)
		if calls, stop := l.Next(fixture(t, name), t0); calls != nil || stop != "" || l.State() != StateIdle {
			t.Errorf("%s: calls %v, stop %q, state %v", name, calls, stop, l.State())
		}
	}
}

// A follow-up request whose response fails leaves the chain at the calls:
// their outputs are owed to the next message.
func TestLoopFailedFollowUpOwesOutputs(t *testing.T) {
	resp := fixture(t, "charmbracelet__fantasy/openai-gpt-4o-parallel-function-calls.sse")
	l := NewLoop(0)
	l.Begin(t0)
	calls, _ := l.Next(resp, t0)
	l.Finish([]Result{{Call: calls[0], Output: "5"}, {Call: calls[1], Output: "6"}}, t0)
	failed := &stream.Snapshot{ID: "resp_f", Status: "failed", Terminal: true}
	_, stop := l.Next(failed, t0)
	if l.Owed() != 2 || !strings.Contains(stop, "2 tool outputs will go with your next message") {
		t.Fatalf("owed %d, stop %q", l.Owed(), stop)
	}
	owed := l.Begin(t0)
	if len(owed) != 2 || !strings.Contains(string(owed[0]), `"output":"5"`) || l.Owed() != 0 {
		t.Errorf("Begin gave %s", owed)
	}
	// That request is cut off too (nil: nothing came back): still owed.
	l.Next(nil, t0)
	if l.Owed() != 2 {
		t.Errorf("owed %d after a second failure", l.Owed())
	}
}

func TestLoopCancel(t *testing.T) {
	resp := fixture(t, "charmbracelet__fantasy/openai-gpt-4o-parallel-function-calls.sse")
	l := NewLoop(0)
	l.Begin(t0)
	calls, _ := l.Next(resp, t0)
	l.Cancel([]Result{{Call: calls[0], Output: "5"}}, t0) // multiply had not finished
	owed := l.Begin(t0)
	if len(owed) != 2 || string(owed[0]) != string(stream.OutputItem(calls[0].CallID, "5")) ||
		string(owed[1]) != string(stream.OutputItem(calls[1].CallID, CancelledOutput)) {
		t.Errorf("owed %s", owed)
	}
	// Cancelling while those outputs stream keeps them owed.
	l.Cancel(nil, t0)
	if l.Owed() != 2 || l.State() != StateIdle {
		t.Errorf("owed %d, state %v", l.Owed(), l.State())
	}
	l.Reset()
	if l.Owed() != 0 || l.Begin(t0) != nil {
		t.Error("Reset kept owed outputs")
	}
}

// Transitions out of order are ignored, never a panic.
func TestLoopIgnoresOutOfOrderCalls(t *testing.T) {
	l := NewLoop(0)
	if calls, _ := l.Next(&stream.Snapshot{Terminal: true, Status: "completed"}, t0); calls != nil {
		t.Error("Next while idle gave calls")
	}
	if in, _ := l.Finish(nil, t0); in != nil {
		t.Error("Finish while idle gave input")
	}
	for s, want := range map[State]string{StateIdle: "idle", StateStreaming: "streaming", StateRunning: "running", State(9): "State(9)"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q", int(s), s.String())
		}
	}
}

func TestLoopCapNoticeTimesTheTurn(t *testing.T) {
	resp := func(callID string) *stream.Snapshot {
		return &stream.Snapshot{ID: "r_" + callID, Terminal: true, Status: "completed", Items: []*stream.Item{
			{Type: "function_call", CallID: callID, Name: "f"},
		}}
	}
	l := NewLoop(1)
	l.Begin(t0)
	calls, _ := l.Next(resp("c1"), t0)
	l.Finish([]Result{{Call: calls[0], Output: "x"}}, t0)
	_, stop := l.Next(resp("c2"), t0.Add(75*time.Second))
	if want := "stopped after 1 tool round in 1m15s (max_tool_rounds = 1); the model's last call was not run — send a message to continue"; stop != want {
		t.Errorf("stop = %q\nwant %q", stop, want)
	}
	var item map[string]string
	owed := l.Begin(t0)
	if err := json.Unmarshal(owed[0], &item); err != nil || item["call_id"] != "c2" || !strings.Contains(item["output"], "max_tool_rounds") {
		t.Errorf("owed %s", owed)
	}
}
