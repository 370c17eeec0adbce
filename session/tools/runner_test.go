package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
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

func TestOutputItem(t *testing.T) {
	got := string(OutputItem("call_1", "line\n\x1b[31mred\x1b[0m"))
	want := `{"type":"function_call_output","call_id":"call_1","output":"line\n\u001b[31mred\u001b[0m"}`
	if got != want {
		t.Errorf("OutputItem = %s, want %s (output as received)", got, want)
	}
}
