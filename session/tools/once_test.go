package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

func fcItem(callID, args string) *stream.Item {
	return &stream.Item{Type: "function_call", CallID: callID, Name: "get_weather", Arguments: args, Done: true}
}

func completed(id string, items ...*stream.Item) *stream.Snapshot {
	return &stream.Snapshot{ID: id, Terminal: true, Status: "completed", Items: items}
}

// outputsFor counts the function_call_outputs of in per call_id.
func outputsFor(t *testing.T, in []json.RawMessage) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, raw := range in {
		var f struct {
			Type   string `json:"type"`
			CallID string `json:"call_id"`
		}
		if err := json.Unmarshal(raw, &f); err != nil {
			t.Fatalf("input item %s: %v", raw, err)
		}
		if f.Type == "function_call_output" {
			n[f.CallID]++
		}
	}
	return n
}

// A response that lists one call_id twice (the streamed item and the
// terminal response's copy, as llama.cpp sends them) is one call: it runs
// once, with the last copy's fields, and gets one output.
func TestLoopRepeatedCallIDIsOneCall(t *testing.T) {
	resp := completed("resp_1",
		&stream.Item{Type: "reasoning", ID: "rs_1", Done: true},
		fcItem("fc_1", `{"city":"Par`),
		&stream.Item{Type: "reasoning", ID: "rs_1", Done: true},
		fcItem("fc_1", `{"city":"Paris"}`),
	)
	l := NewLoop(0)
	l.Begin(t0)
	calls, stop := l.Next(resp, t0)
	if stop != "" || len(calls) != 1 {
		t.Fatalf("Next: %d calls %+v, stop %q", len(calls), calls, stop)
	}
	if c := calls[0]; c.CallID != "fc_1" || c.Index != 0 || c.Arguments != `{"city":"Paris"}` {
		t.Errorf("call = %+v, want fc_1 with the final arguments", c)
	}
	if !l.Ran("fc_1") {
		t.Error("the call is not recorded as run")
	}
	in, _ := l.Finish([]Result{{Call: calls[0], Output: "sunny"}}, t0)
	if n := outputsFor(t, in); len(in) != 1 || n["fc_1"] != 1 {
		t.Errorf("next input %s", in)
	}
}

// A later round of the same user turn that repeats a call_id that already
// ran does not run it again and sends nothing new for it: its new calls run
// and are answered; when it holds only repeats the turn ends with a notice.
// The next user turn may use the call_id again.
func TestLoopLaterRoundDoesNotRunACallAgain(t *testing.T) {
	l := NewLoop(0)
	l.Begin(t0)
	calls, _ := l.Next(completed("resp_1", fcItem("fc_1", "{}")), t0)
	l.Finish([]Result{{Call: calls[0], Output: "sunny"}}, t0)

	calls, stop := l.Next(completed("resp_2", fcItem("fc_1", "{}"), fcItem("fc_2", "{}")), t0)
	if stop != "" || len(calls) != 1 || calls[0].CallID != "fc_2" || calls[0].Index != 0 {
		t.Fatalf("round 2: calls %+v, stop %q", calls, stop)
	}
	in, prev := l.Finish([]Result{{Call: calls[0], Output: "rainy"}}, t0)
	if n := outputsFor(t, in); prev != "resp_2" || len(in) != 1 || n["fc_2"] != 1 {
		t.Errorf("round 2 input %s (prev %q)", in, prev)
	}

	calls, stop = l.Next(completed("resp_3", fcItem("fc_2", "{}"), fcItem("fc_1", "{}")), t0)
	if calls != nil || l.State() != StateIdle || l.Owed() != 0 {
		t.Fatalf("round 3: calls %+v, state %v, owed %d", calls, l.State(), l.Owed())
	}
	if want := "not run again: get_weather (fc_2), get_weather (fc_1) already ran in this turn and the response repeated them"; !strings.HasPrefix(stop, want) {
		t.Errorf("stop = %q\nwant %q…", stop, want)
	}

	l.Begin(t0)
	if calls, _ := l.Next(completed("resp_4", fcItem("fc_1", "{}")), t0); len(calls) != 1 {
		t.Errorf("a new user turn: calls %+v", calls)
	}
}

// A resumed round runs the calls the journal has no record of, once each,
// and a later round of the resumed turn does not run the recorded ones.
func TestLoopResumeSkipsCallsThatRan(t *testing.T) {
	resp := completed("resp_1", fcItem("fc_1", "{}"), fcItem("fc_2", "{}"), fcItem("fc_2", "{}"))
	l := NewLoop(0)
	calls := l.Resume(resp, []string{"fc_1", "fc_0"}, t0)
	if len(calls) != 1 || calls[0].CallID != "fc_2" || l.State() != StateRunning {
		t.Fatalf("Resume: calls %+v, state %v", calls, l.State())
	}
	in, _ := l.Finish([]Result{{Call: calls[0], Output: "x"}}, t0)
	if n := outputsFor(t, in); len(in) != 1 || n["fc_2"] != 1 {
		t.Errorf("resumed round's input %s", in)
	}
	if calls, stop := l.Next(completed("resp_2", fcItem("fc_0", "{}")), t0); calls != nil || stop == "" {
		t.Errorf("a call the journal says ran, run again: %+v (stop %q)", calls, stop)
	}
	if calls := NewLoop(0).Resume(resp, []string{"fc_1", "fc_2"}, t0); calls != nil {
		t.Errorf("every call ran, yet Resume gave %+v", calls)
	}
}

// Outputs owed twice for one call (a cancelled round and a failed resend)
// reach the next message once.
func TestLoopBeginOwesOneOutputPerCall(t *testing.T) {
	l := NewLoop(0)
	l.owed = []json.RawMessage{stream.OutputItem("fc_1", "first"), stream.OutputItem("fc_2", "b"), stream.OutputItem("fc_1", "again")}
	owed := l.Begin(t0)
	if len(owed) != 2 || !strings.Contains(string(owed[0]), `"first"`) || !strings.Contains(string(owed[1]), "fc_2") {
		t.Errorf("owed %s", owed)
	}
}

// counting is a function tool that appends a line to a file each time it
// runs and answers "sunny"; runs reads the count.
func counting(t *testing.T, name string) (Function, func() int) {
	path := filepath.Join(t.TempDir(), name+".runs")
	f := Function{Name: name, Command: []string{"cat >/dev/null; echo ran >>'" + path + "'; echo sunny"}, Shell: true, Approval: ApproveNever}
	return f, func() int {
		b, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			return 0
		}
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(b), "ran\n")
	}
}

// decodeFile decodes a recorded stream with the client's decoder and
// accumulator, as the chat and -p read a response.
func decodeFile(t *testing.T, path string) *stream.Snapshot {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var acc stream.Accumulator
	d := stream.NewDecoder(bufio.NewReader(f))
	for d.Next() {
		if _, err := acc.Apply(d.Event()); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	if err := d.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	acc.Finish()
	return acc.Current()
}

// everyCopy decodes a recorded stream as decodeFile does, then lists every
// copy of an item the stream sent (each output_item.done item, then each
// item of the terminal response): what an accumulator that keeps the
// copies side by side holds, as runnel's did before it matched items by
// identity. The tool layer must run each call once even so.
func everyCopy(t *testing.T, path string) *stream.Snapshot {
	t.Helper()
	snap := decodeFile(t, path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var items []*stream.Item
	d := stream.NewDecoder(bufio.NewReader(f))
	for d.Next() {
		ev := d.Event()
		switch {
		case ev.Type == "response.output_item.done" && ev.Item != nil:
			items = append(items, ev.Item)
		case ev.Response != nil && ev.Response.Status == "completed":
			for _, raw := range ev.Response.Output {
				it, err := stream.ItemFromJSON(raw)
				if err != nil {
					t.Fatal(err)
				}
				items = append(items, it)
			}
		}
	}
	snap.Items = items
	return snap
}

// replay is a Sender whose first response is first() and whose later ones
// are a plain answer; it keeps every step.
type replay struct {
	first func() *stream.Snapshot
	steps []Step
}

func (r *replay) send(_ context.Context, step Step) (*stream.Snapshot, error) {
	r.steps = append(r.steps, step)
	if step.Round == 0 {
		return r.first(), nil
	}
	msg, _ := stream.ItemFromJSON([]byte(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"It is sunny."}]}`))
	return completed("resp_after", msg), nil
}

// llama.cpp's tool call stream, as its server code sends it (no item id, no
// output_index, and the call again in output_item.done and the terminal
// response): the command runs once and the next request answers the call
// once, whether the snapshot holds the call once (the accumulator matches
// the copies) or every copy of it.
func TestDriveLlamaCppToolCallRunsOnce(t *testing.T) {
	path := sharedtest.Path(t, "fixtures", "servers", "ggml-org__llama.cpp", "llamacpp-toolcall.sse")
	for name, first := range map[string]func() *stream.Snapshot{
		"accumulated": func() *stream.Snapshot { return decodeFile(t, path) },
		"every copy":  func() *stream.Snapshot { return everyCopy(t, path) },
	} {
		t.Run(name, func(t *testing.T) {
			if name == "every copy" {
				if n := len(everyCopy(t, path).Items); n != 4 {
					t.Fatalf("the stream lists %d items, want 4 (reasoning and call, twice)", n)
				}
			}
			r := &replay{first: first}
			f, runs := counting(t, "get_weather")
			stop, err := Drive(context.Background(), NewLoop(0), NewRunner(Config{Functions: []Function{f}}, nil, Hooks{}), user("weather in Paris?"), r.send, nil)
			if err != nil || stop != "" {
				t.Fatalf("Drive = %q, %v", stop, err)
			}
			if n := runs(); n != 1 {
				t.Errorf("get_weather ran %d times, want 1", n)
			}
			if len(r.steps) != 2 {
				t.Fatalf("%d requests, want 2", len(r.steps))
			}
			in := r.steps[1].Input
			if n := outputsFor(t, in); len(in) != 1 || n["fc_Xc3Lq8ZtP0aWm5Yr2BvN7KsD4hJf9GuE"] != 1 {
				t.Errorf("the next request's input %s, want one output for fc_Xc3Lq8ZtP0aWm5Yr2BvN7KsD4hJf9GuE", in)
			}
			if !strings.Contains(string(in[0]), `"output":"sunny\n"`) {
				t.Errorf("output %s", in[0])
			}
		})
	}
}

// vLLM stores the call under the terminal response's call_id, which is not
// the streamed one: the output answers the call_id that expected/ gives.
func TestDriveAnswersTheTerminalCallID(t *testing.T) {
	dir := sharedtest.Path(t, "fixtures", "servers")
	raw, err := os.ReadFile(filepath.Join(dir, "expected", "vllm-project__agentic-api", "vllm-gpt-oss-20b-toolcall-turn1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Output []struct {
			Type string
			Name string
			Item struct {
				CallID string `json:"call_id"`
			}
		}
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	callID, name := "", ""
	for _, o := range want.Output {
		if o.Type == "function_call" {
			callID, name = o.Item.CallID, o.Name
		}
	}
	if callID == "" {
		t.Fatal("expected/ names no call")
	}
	path := filepath.Join(dir, "vllm-project__agentic-api", "vllm-gpt-oss-20b-toolcall-turn1.sse")
	r := &replay{first: func() *stream.Snapshot { return decodeFile(t, path) }}
	f, runs := counting(t, name)
	if _, err := Drive(context.Background(), NewLoop(0), NewRunner(Config{Functions: []Function{f}}, nil, Hooks{}), user("status of job-382?"), r.send, nil); err != nil {
		t.Fatal(err)
	}
	if n := runs(); n != 1 || len(r.steps) != 2 {
		t.Fatalf("%s ran %d times in %d requests", name, n, len(r.steps))
	}
	if in := r.steps[1].Input; len(in) != 1 || outputsFor(t, in)[callID] != 1 {
		t.Errorf("the next request's input %s, want one output for %s", in, callID)
	}
}

// Over HTTP, a response whose stream lists the same call twice (two
// output indexes, one call_id): the command runs once, one output goes
// back.
func TestDriveRepeatedCallOverHTTP(t *testing.T) {
	srv := streamtest.New(t)
	srv.SetHandler(sequence(
		callsSSE("resp_1", fc{"call_1", "get_weather", `{"city":"Paris"}`}, fc{"call_1", "get_weather", `{"city":"Paris"}`}),
		streamtest.Text("resp_2", "sunny"),
	))
	f, runs := counting(t, "get_weather")
	if _, err := Drive(context.Background(), NewLoop(0), NewRunner(Config{Functions: []Function{f}}, nil, Hooks{}), user("go"), newChain(t, srv).send, nil); err != nil {
		t.Fatal(err)
	}
	if n := runs(); n != 1 {
		t.Errorf("ran %d times", n)
	}
	in := inputs(t, srv)
	if len(in) != 2 || len(in[1]) != 1 || in[1][0]["call_id"] != "call_1" {
		t.Errorf("the next request's input %v", in[len(in)-1])
	}
}
