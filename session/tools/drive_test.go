package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"runnel/stream"
	"runnel/stream/streamtest"
)

// fc is a function call a scripted response makes.
type fc struct{ callID, name, args string }

// callsSSE is a complete stream of response respID whose output is the
// given function calls, shaped like OpenAI's (added → arguments delta →
// done per call, then response.completed with the whole output).
func callsSSE(respID string, calls ...fc) []byte {
	response := func(status string, output []any) map[string]any {
		return map[string]any{"id": respID, "object": "response", "status": status, "model": "streamtest", "output": output}
	}
	evs := []map[string]any{{"type": "response.created", "response": response("in_progress", []any{})}}
	var items []any
	for i, c := range calls {
		id := "fc_" + c.callID
		item := func(status, args string) map[string]any {
			return map[string]any{"id": id, "type": "function_call", "status": status, "arguments": args, "call_id": c.callID, "name": c.name}
		}
		evs = append(evs,
			map[string]any{"type": "response.output_item.added", "output_index": i, "item": item("in_progress", "")},
			map[string]any{"type": "response.function_call_arguments.delta", "output_index": i, "item_id": id, "delta": c.args},
			map[string]any{"type": "response.function_call_arguments.done", "output_index": i, "item_id": id, "arguments": c.args},
			map[string]any{"type": "response.output_item.done", "output_index": i, "item": item("completed", c.args)},
		)
		items = append(items, item("completed", c.args))
	}
	evs = append(evs, map[string]any{"type": "response.completed", "response": response("completed", items)})
	payloads := make([]string, len(evs))
	for i, ev := range evs {
		ev["sequence_number"] = i
		b, _ := json.Marshal(ev)
		payloads[i] = string(b)
	}
	return streamtest.Events(payloads...)
}

// chain is a Sender over the real stream client that keeps the
// conversation's chain itself: each request continues from the newest
// completed response, and a follow-up's Step must agree with it.
type chain struct {
	t      *testing.T
	client *stream.Client
	last   string
}

func newChain(t *testing.T, srv *streamtest.Server) *chain {
	return &chain{t: t, client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}}
}

func (c *chain) send(ctx context.Context, step Step) (*stream.Snapshot, error) {
	if step.PreviousResponseID != "" && step.PreviousResponseID != c.last {
		c.t.Errorf("step %d continues %q; the chain ends at %q", step.Round, step.PreviousResponseID, c.last)
	}
	req := stream.Request{Model: "m", Input: step.Input, PreviousResponseID: c.last, Stream: true}
	h := stream.Start(ctx, c.client, req)
	var acc stream.Accumulator
	var err error
	for b := range h.Chan() {
		for i := range b.Events {
			if _, aerr := acc.Apply(&b.Events[i]); aerr != nil {
				c.t.Errorf("apply: %v", aerr)
			}
		}
		if b.Final {
			err = b.Err
		}
	}
	acc.Finish()
	s := acc.Current()
	if s != nil && s.Terminal && s.Status == "completed" {
		c.last = s.ID
	}
	return s, err
}

// inputs returns each request's input items, decoded.
func inputs(t *testing.T, srv *streamtest.Server) [][]map[string]any {
	t.Helper()
	var out [][]map[string]any
	for _, r := range srv.Requests() {
		var body struct {
			Input []map[string]any `json:"input"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatalf("request body: %v", err)
		}
		out = append(out, body.Input)
	}
	return out
}

func output(callID, out string) map[string]any {
	return map[string]any{"type": "function_call_output", "call_id": callID, "output": out}
}

// sequence answers the n-th request with the n-th reply.
func sequence(replies ...[]byte) func(streamtest.Recorded) streamtest.Reply {
	var n atomic.Int32
	return func(streamtest.Recorded) streamtest.Reply {
		i := int(n.Add(1)) - 1
		if i >= len(replies) {
			return streamtest.Reply{Status: 500, Body: []byte(`{"error":{"message":"script ended"}}`)}
		}
		return streamtest.Reply{SSE: replies[i]}
	}
}

func user(text string) []json.RawMessage { return []json.RawMessage{stream.UserText(text)} }

func TestDriveRoundTrip(t *testing.T) {
	srv := streamtest.New(t)
	srv.SetHandler(sequence(
		callsSSE("resp_1", fc{"call_1", "echo_args", `{"x":1}`}),
		streamtest.Text("resp_2", "The tool said x is 1."),
	))
	cfg := Config{Functions: []Function{{Name: "echo_args", Command: []string{"cat"}, Approval: ApproveNever}}}
	l := NewLoop(0)
	var rounds [][]Result
	stop, err := Drive(context.Background(), l, NewRunner(cfg, nil, Hooks{}), user("run it"), newChain(t, srv).send,
		func(rs []Result) { rounds = append(rounds, rs) })
	if err != nil || stop != "" {
		t.Fatalf("Drive = %q, %v", stop, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if got := reqs[1].PreviousResponseID(); got != "resp_1" {
		t.Errorf("second request previous_response_id = %q, want resp_1", got)
	}
	in := inputs(t, srv)
	if want := []map[string]any{output("call_1", `{"x":1}`)}; !reflect.DeepEqual(in[1], want) {
		t.Errorf("second request input = %v, want %v", in[1], want)
	}
	if len(rounds) != 1 || rounds[0][0].Status != StatusOK {
		t.Errorf("rounds = %+v", rounds)
	}
	if l.State() != StateIdle || l.Round() != 1 || l.Owed() != 0 {
		t.Errorf("loop after the turn: %v round %d owed %d", l.State(), l.Round(), l.Owed())
	}
}

// Two calls in one response run at the same time: the writer blocks
// opening a FIFO until the reader opens it, so run one after the other
// they would time out. Both outputs go back in one request, in call order.
func TestDriveParallelCalls(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	srv := streamtest.New(t)
	srv.SetHandler(sequence(
		callsSSE("resp_1", fc{"call_r", "reader", `{}`}, fc{"call_w", "writer", `{"msg":"through the pipe"}`}),
		streamtest.Text("resp_2", "ok"),
	))
	guard := 20 * time.Second // a failure guard: sequential runs would hit it
	cfg := Config{Functions: []Function{
		{Name: "reader", Command: []string{"cat", fifo}, Timeout: guard, Approval: ApproveNever},
		{Name: "writer", Command: []string{"tee", fifo}, Timeout: guard, Approval: ApproveNever},
	}}
	if _, err := Drive(context.Background(), NewLoop(0), NewRunner(cfg, nil, Hooks{}), user("go"), newChain(t, srv).send, nil); err != nil {
		t.Fatal(err)
	}
	in := inputs(t, srv)
	want := []map[string]any{
		output("call_r", `{"msg":"through the pipe"}`),
		output("call_w", `{"msg":"through the pipe"}`),
	}
	if len(in) != 2 || !reflect.DeepEqual(in[1], want) {
		t.Errorf("second request input = %v, want %v", in[len(in)-1], want)
	}
}

// marker is a function that creates a file: proof of whether it ran.
func marker(t *testing.T, name string, approval Approval) (Function, string) {
	path := filepath.Join(t.TempDir(), name+".ran")
	return Function{
		Name: name, Command: []string{"touch", path}, Approval: approval,
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`),
	}, path
}

func ran(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestDriveInvalidArguments(t *testing.T) {
	f, path := marker(t, "touch_it", ApproveNever)
	srv := streamtest.New(t)
	srv.SetHandler(sequence(callsSSE("resp_1", fc{"call_1", "touch_it", `{"paht":"x"}`}), streamtest.Text("resp_2", "sorry")))
	var rs []Result
	_, err := Drive(context.Background(), NewLoop(0), NewRunner(Config{Functions: []Function{f}}, nil, Hooks{}), user("go"), newChain(t, srv).send,
		func(r []Result) { rs = r })
	if err != nil {
		t.Fatal(err)
	}
	if ran(path) {
		t.Error("the command ran with invalid arguments")
	}
	if rs[0].Status != StatusInvalid {
		t.Errorf("status %v, want invalid", rs[0].Status)
	}
	got := inputs(t, srv)[1][0]["output"].(string)
	for _, want := range []string{"the arguments do not match the tool's schema", "additional properties", "paht"} {
		if !strings.Contains(got, want) {
			t.Errorf("output %q lacks %q", got, want)
		}
	}
}

func TestDriveDenied(t *testing.T) {
	f, path := marker(t, "touch_it", ApproveAlways)
	srv := streamtest.New(t)
	srv.SetHandler(sequence(callsSSE("resp_1", fc{"call_1", "touch_it", `{"path":"x"}`}), streamtest.Text("resp_2", "ok")))
	var asked []ApprovalRequest
	h := Hooks{Approve: func(_ context.Context, req ApprovalRequest) Decision {
		asked = append(asked, req)
		return Deny
	}}
	if _, err := Drive(context.Background(), NewLoop(0), NewRunner(Config{Functions: []Function{f}}, nil, h), user("go"), newChain(t, srv).send, nil); err != nil {
		t.Fatal(err)
	}
	if ran(path) {
		t.Error("a denied command ran")
	}
	if len(asked) != 1 || asked[0].Tool != "touch_it" || asked[0].Call.CallID != "call_1" || asked[0].Command[0] != "touch" {
		t.Errorf("approval requests = %+v", asked)
	}
	if got := inputs(t, srv)[1][0]; !reflect.DeepEqual(got, output("call_1", "The user denied this call of touch_it; it was not run.")) {
		t.Errorf("output item = %v", got)
	}
}

// The model keeps calling; after max rounds the loop stops, and the calls
// it did not run are answered with the next user message.
func TestDriveRoundCap(t *testing.T) {
	srv := streamtest.New(t)
	var n atomic.Int32
	srv.SetHandler(func(streamtest.Recorded) streamtest.Reply {
		i := n.Add(1)
		return streamtest.Reply{SSE: callsSSE(fmt.Sprintf("resp_%d", i), fc{fmt.Sprintf("call_%d", i), "again", "{}"})}
	})
	cfg := Config{Functions: []Function{{Name: "again", Command: []string{"true"}, Approval: ApproveNever}}}
	l, r, c := NewLoop(2), NewRunner(cfg, nil, Hooks{}), newChain(t, srv)
	stop, err := Drive(context.Background(), l, r, user("loop"), c.send, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stop, "stopped after 2 tool rounds in ") || !strings.Contains(stop, "max_tool_rounds = 2") {
		t.Errorf("stop = %q", stop)
	}
	if got := len(srv.Requests()); got != 3 {
		t.Errorf("%d requests, want 3 (the message and 2 rounds)", got)
	}
	if l.Owed() != 1 {
		t.Fatalf("owed %d, want the one call not run", l.Owed())
	}

	srv.SetHandler(sequence(streamtest.Text("resp_x", "fine")))
	if _, err := Drive(context.Background(), l, r, user("stop now"), c.send, nil); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	last := inputs(t, srv)[len(reqs)-1]
	if reqs[len(reqs)-1].PreviousResponseID() != "resp_3" || len(last) != 2 || last[0]["call_id"] != "call_3" ||
		!strings.Contains(last[0]["output"].(string), "max_tool_rounds") || last[1]["role"] != "user" {
		t.Errorf("next message: previous %q, input %v", reqs[len(reqs)-1].PreviousResponseID(), last)
	}
}

// Esc while a tool runs: the command is killed, the turn ends, and the
// next user message carries "cancelled by user" for the call, with what
// it had printed.
func TestDriveCancelWhileRunning(t *testing.T) {
	srv := streamtest.New(t)
	srv.SetHandler(sequence(callsSSE("resp_1", fc{"call_1", "wait", "{}"}, fc{"call_2", "quick", "{}"})))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	h := Hooks{Output: func(c Call, chunk string, _ bool) {
		if c.Name == "wait" && strings.Contains(chunk, "started") {
			once.Do(cancel)
		}
	}}
	cfg := Config{Functions: []Function{
		{Name: "wait", Command: []string{"echo started; exec sleep 60"}, Shell: true, Approval: ApproveNever},
		{Name: "quick", Command: []string{"echo", "quick"}, Approval: ApproveNever},
	}}
	l, r, c := NewLoop(0), NewRunner(cfg, nil, h), newChain(t, srv)
	var rs []Result
	_, err := Drive(ctx, l, r, user("go"), c.send, func(r []Result) { rs = r })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Drive error %v, want context.Canceled", err)
	}
	if rs[0].Status != StatusCancelled || l.State() != StateIdle || l.Owed() != 2 {
		t.Errorf("after cancel: %v, loop %v owed %d", rs[0].Status, l.State(), l.Owed())
	}

	srv.SetHandler(sequence(streamtest.Text("resp_2", "ok")))
	if _, err := Drive(context.Background(), l, r, user("never mind"), c.send, nil); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	in := inputs(t, srv)[1]
	if reqs[1].PreviousResponseID() != "resp_1" || len(in) != 3 ||
		!reflect.DeepEqual(in[0], output("call_1", CancelledOutput+"; its output so far:\nstarted\n")) || in[1]["call_id"] != "call_2" || in[2]["role"] != "user" {
		t.Errorf("next message: previous %q, input %v", reqs[1].PreviousResponseID(), in)
	}
}

// A function_call for a tool runnel does not have is still answered, so
// the chain stays valid.
func TestDriveUnknownTool(t *testing.T) {
	srv := streamtest.New(t)
	srv.SetHandler(sequence(callsSSE("resp_1", fc{"call_1", "rm_rf", "{}"}), streamtest.Text("resp_2", "ok")))
	if _, err := Drive(context.Background(), NewLoop(0), NewRunner(Config{}, nil, Hooks{}), user("go"), newChain(t, srv).send, nil); err != nil {
		t.Fatal(err)
	}
	got := inputs(t, srv)[1][0]
	if got["call_id"] != "call_1" || !strings.Contains(got["output"].(string), `no tool named "rm_rf"`) {
		t.Errorf("output item = %v", got)
	}
}
