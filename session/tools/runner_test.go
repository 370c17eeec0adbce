package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// asker records approval requests and answers from a script.
type asker struct {
	asked   []string // call ids, in the order asked
	answers map[string]Decision
}

func (a *asker) approve(_ context.Context, req ApprovalRequest) Decision {
	a.asked = append(a.asked, req.Call.CallID)
	return a.answers[req.Call.CallID]
}

func calls(name string, ids ...string) []Call {
	out := make([]Call, len(ids))
	for i, id := range ids {
		out[i] = Call{Index: i, CallID: id, Name: name, Arguments: "{}"}
	}
	return out
}

func TestApprovalPolicies(t *testing.T) {
	tests := []struct {
		name    string
		policy  Approval
		answers map[string]Decision
		rounds  [][]string // call ids per Run
		asked   []string
		denied  []string
	}{
		{"always asks every call", ApproveAlways,
			map[string]Decision{"a": Allow, "b": Allow, "c": Allow}, [][]string{{"a", "b"}, {"c"}}, []string{"a", "b", "c"}, nil},
		{"never asks nothing", ApproveNever,
			nil, [][]string{{"a", "b"}}, nil, nil},
		{"once asks until allowed", ApproveOnce,
			map[string]Decision{"a": Deny, "b": Allow}, [][]string{{"a", "b", "c"}, {"d"}}, []string{"a", "b"}, []string{"a"}},
		{"allow for the session holds for an always tool", ApproveAlways,
			map[string]Decision{"a": AllowForSession}, [][]string{{"a", "b"}, {"c"}}, []string{"a"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &asker{answers: tt.answers}
			r := NewRunner(Config{Functions: []Function{{Name: "f", Command: []string{"true"}, Approval: tt.policy}}}, nil, Hooks{Approve: a.approve})
			var denied []string
			for _, ids := range tt.rounds {
				for _, res := range r.Run(context.Background(), calls("f", ids...)) {
					switch res.Status {
					case StatusDenied:
						denied = append(denied, res.Call.CallID)
					case StatusOK:
					default:
						t.Errorf("call %s: %v %q", res.Call.CallID, res.Status, res.Output)
					}
				}
			}
			if strings.Join(a.asked, ",") != strings.Join(tt.asked, ",") {
				t.Errorf("asked %q, want %q", a.asked, tt.asked)
			}
			if strings.Join(denied, ",") != strings.Join(tt.denied, ",") {
				t.Errorf("denied %q, want %q", denied, tt.denied)
			}
		})
	}
}

// With nobody to ask (-p without --yes), a tool that needs approval is
// refused: the model is told why and stderr gets a notice. A tool with
// approval = "never" still runs.
func TestRefusedWithoutApprover(t *testing.T) {
	cfg := Config{Functions: []Function{
		{Name: "asks", Command: []string{"true"}, Approval: ApproveAlways},
		{Name: "once", Command: []string{"true"}, Approval: ApproveOnce},
		{Name: "free", Command: []string{"echo", "ran"}, Approval: ApproveNever},
	}}
	res := NewRunner(cfg, nil, Hooks{}).Run(context.Background(), []Call{
		{CallID: "1", Name: "asks"}, {CallID: "2", Name: "once"}, {CallID: "3", Name: "free"},
	})
	for _, r := range res[:2] {
		if r.Status != StatusRefused || !strings.Contains(r.Output, "without --yes") || !strings.Contains(r.Notice, "rerun with --yes") {
			t.Errorf("%s: %+v", r.Call.Name, r)
		}
	}
	if res[2].Status != StatusOK || res[2].Output != "ran\n" || res[2].Notice != "" {
		t.Errorf("free: %+v", res[2])
	}
	yes := NewRunner(cfg, nil, Hooks{Approve: AutoApprove}).Run(context.Background(), []Call{{CallID: "1", Name: "asks"}})
	if yes[0].Status != StatusOK {
		t.Errorf("--yes: %+v", yes[0])
	}
}

func TestSchemaValidation(t *testing.T) {
	f := Function{Name: "read", Command: []string{"cat"}, Approval: ApproveNever,
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"lines":{"type":"integer","minimum":1}},"required":["path"]}`)}
	r := NewRunner(Config{Functions: []Function{f}}, nil, Hooks{})
	tests := []struct {
		args   string
		status Status
		want   string
	}{
		{`{"path":"a.txt","lines":3}`, StatusOK, `{"path":"a.txt","lines":3}`},
		{`{"lines":3}`, StatusInvalid, "path"},
		{`{"path":"a","lines":0}`, StatusInvalid, "minimum"},
		{`{"path":"a","lines":1.5}`, StatusInvalid, "integer"},
		{`{"path":`, StatusInvalid, "the arguments are not valid JSON"},
	}
	for _, tt := range tests {
		res := r.Run(context.Background(), []Call{{CallID: "c", Name: "read", Arguments: tt.args}})[0]
		if res.Status != tt.status || !strings.Contains(res.Output, tt.want) {
			t.Errorf("%s: %v %q; want %v containing %q", tt.args, res.Status, res.Output, tt.status, tt.want)
		}
	}
}

func TestCompileSchemaRejects(t *testing.T) {
	for _, bad := range []string{``, `[]`, `"object"`, `{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`, `{"type":"object","minimum":"one"}`, `{"$ref":"https://example.com/s.json"}`} {
		if _, err := CompileSchema(json.RawMessage(bad)); err == nil {
			t.Errorf("CompileSchema(%s) succeeded", bad)
		}
	}
}

// Cancelling before a call starts answers it as cancelled without asking.
func TestRunCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := &asker{}
	r := NewRunner(Config{Functions: []Function{{Name: "f", Command: []string{"true"}}}}, nil, Hooks{Approve: a.approve})
	res := r.Run(ctx, calls("f", "a", "b"))
	for _, x := range res {
		if x.Status != StatusCancelled || x.Output != CancelledOutput {
			t.Errorf("%+v", x)
		}
	}
	if len(a.asked) != 0 {
		t.Errorf("asked %v after the cancel", a.asked)
	}
}

// TestRunCapsParallelCalls: of six calls that each block until released,
// four run at once; the fifth starts only when one of them ends. A call that
// has not started has not opened its pipe, which a non-blocking open for
// writing tells without waiting (ENXIO).
func TestRunCapsParallelCalls(t *testing.T) {
	dir := t.TempDir()
	const n = MaxParallel + 2
	var cfg Config
	var cs []Call
	fifo := func(i int) string { return filepath.Join(dir, "p"+strconv.Itoa(i)) }
	for i := range n {
		if err := mkfifo(fifo(i)); err != nil {
			t.Fatal(err)
		}
		name := "block" + strconv.Itoa(i)
		cfg.Functions = append(cfg.Functions, Function{Name: name, Command: []string{"sh", "-c", "echo start; cat " + fifo(i)}, Approval: ApproveNever, Timeout: time.Minute})
		cs = append(cs, Call{Index: i, CallID: "c" + strconv.Itoa(i), Name: name, Arguments: "{}"})
	}
	started := make(chan int, n)
	r := NewRunner(cfg, nil, Hooks{Output: func(c Call, chunk string, stderr bool) {
		if !stderr && strings.Contains(chunk, "start") {
			started <- c.Index
		}
	}})
	done := make(chan []Result, 1)
	go func() { done <- r.Run(context.Background(), cs) }()

	guard := time.After(30 * time.Second) // a failure guard, not a timing assumption
	running := map[int]bool{}
	next := func() {
		t.Helper()
		select {
		case i := <-started:
			running[i] = true
		case <-guard:
			t.Fatalf("calls did not start; running %v", running)
		}
	}
	release := func(i int) {
		t.Helper()
		f, err := os.OpenFile(fifo(i), os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("done\n")
		f.Close()
		delete(running, i)
	}
	for range MaxParallel {
		next()
	}
	for i := range n {
		if running[i] {
			continue
		}
		f, err := os.OpenFile(fifo(i), os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			f.Close()
			t.Fatalf("call %d is running while %d others are", i, len(running))
		}
		if !errors.Is(err, syscall.ENXIO) {
			t.Fatal(err)
		}
	}
	for range n - MaxParallel { // each release lets one more start
		for i := range running {
			release(i)
			break
		}
		next()
		if len(running) > MaxParallel {
			t.Fatalf("%d calls running at once", len(running))
		}
	}
	for i := range running {
		release(i)
	}
	for _, r := range <-done {
		if r.Status != StatusOK {
			t.Errorf("call %s: %v %q", r.Call.CallID, r.Status, r.Output)
		}
	}
}
