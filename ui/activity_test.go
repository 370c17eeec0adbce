package ui

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"strings"
	"testing"

	"runnel/session"
)

// activityCase is one thing the chat does, as the engine and the children
// report it, and what the keys and the status line make of it.
type activityCase struct {
	name   string
	eng    session.Phase
	said   happening
	facts  chatFacts
	phase  phase     // the keys' phase
	state  State     // the line's state
	detail string    // the line's detail from the phase
	esc    keyAction // esc on an empty composer
	ctrlC  keyAction // ctrl+c on an empty composer
}

// activityCases is every phase the chat goes through, with the engine's
// phase and the facts the children report in it.
var activityCases = []activityCase{
	{"idle", session.PhaseIdle, hapNone, chatFacts{}, phIdle, Idle, "", actArmEsc, actArmQuit},
	{"a turn is sent", session.PhaseWaiting, hapBegan, chatFacts{Replying: true}, phStreaming, Waiting, "", actInterruptTurn, actInterruptTurn},
	{"the answer streams", session.PhaseStreaming, hapAnswering, chatFacts{Replying: true}, phStreaming, Streaming, "", actInterruptTurn, actInterruptTurn},
	{"the model writes a call", session.PhaseStreaming, hapCallOnWay, chatFacts{Replying: true}, phStreaming, CallingTool, "", actInterruptTurn, actInterruptTurn},
	{"a hosted tool runs", session.PhaseStreaming, hapToolRuns, chatFacts{Replying: true}, phStreaming, RunningTool, "", actInterruptTurn, actInterruptTurn},
	{"a round's calls are on their way", session.PhaseTools, hapCallOnWay, chatFacts{Tools: true}, phTools, CallingTool, "", actStopTools, actStopTools},
	{"a round's calls run", session.PhaseTools, hapToolRuns, chatFacts{Tools: true}, phTools, RunningTool, "", actStopTools, actStopTools},
	{"a local call is asked about", session.PhaseApproval, hapAsked, chatFacts{Tools: true}, phTools, AwaitingApproval, "", actStopTools, actStopTools},
	{"/compact runs", session.PhaseWaiting, hapBegan, chatFacts{Compacting: true}, phCompacting, Waiting, "compacting", actStopCompact, actArmQuit},
	{"a message waits for MCP", session.PhaseIdle, hapSettled, chatFacts{WaitingMCP: true}, phWaitingMCP, Idle, "", actTakeBackWaiting, actArmQuit},
	{"a message's files are read", session.PhaseIdle, hapSettled, chatFacts{Reading: true}, phReading, Idle, "reading attachments… (esc stops)", actStopReading, actArmQuit},
	{"hosted approvals wait", session.PhaseApproval, hapAsked, chatFacts{Hosted: true}, phApproval, AwaitingApproval, "", actStopHosted, actStopHosted},
	{"a stale fact after the end", session.PhaseIdle, hapToolRuns, chatFacts{}, phIdle, Idle, "", actArmEsc, actArmQuit},
}

// TestActivityKeysAndLineAgree: what the chat is doing is one function
// (activityOf) of the engine's phase and the children's facts; the keys'
// phase and the line's state and detail come from it, and esc and ctrl+c
// stop what the line shows runs. Each case runs through the status bar
// too, as the root runs it.
func TestActivityKeysAndLineAgree(t *testing.T) {
	t.Parallel()
	keys := DefaultKeyMap()
	for _, c := range activityCases {
		a := activityOf(c.eng, c.said, c.facts)
		if a.phase != c.phase || a.state != c.state || a.detail != c.detail || a.engine != c.eng {
			t.Errorf("%s: %+v, want phase %s, state %s, detail %q", c.name, a, c.phase, c.state, c.detail)
		}
		f := keyFacts{Phase: a.phase, Composer: composerFacts{Empty: true, NoFiles: true, HasTurns: true}}
		if got := decideKey(&keys, bindingPress(t, "esc"), f); got != c.esc {
			t.Errorf("%s: esc %s, want %s", c.name, got, c.esc)
		}
		if got := decideKey(&keys, bindingPress(t, "ctrl+c"), f); got != c.ctrlC {
			t.Errorf("%s: ctrl+c %s, want %s", c.name, got, c.ctrlC)
		}
		// the line says what esc stops: a busy state, or the phase's detail
		// (the MCP wait is said by the MCP servers' item, mcpstart.go)
		stops := c.esc != actArmEsc && c.esc != actNone
		if stops && !a.state.Busy() && a.detail == "" && a.phase != phWaitingMCP {
			t.Errorf("%s: esc stops %s, but the line shows %s with no detail", c.name, c.esc, a.state)
		}
		var b statusBar
		b.Update(didMsg{what: c.said, detail: "named"})
		b.sync(&session.Conversation{}, activityOf(c.eng, b.saidLast(), c.facts))
		want := cmp.Or(c.detail, "named")
		if b.status.State != c.state || b.status.Detail != want {
			t.Errorf("%s: the line shows %s %q, want %s %q", c.name, b.status.State, b.status.Detail, c.state, want)
		}
	}
}

// TestActivityEveryCombination: for every engine phase and every set of
// the children's facts, the keys' phase is the first fact that holds, the
// state shown is the engine's (never a child's word), and the detail is
// the phase's.
func TestActivityEveryCombination(t *testing.T) {
	t.Parallel()
	order := []phase{phStreaming, phTools, phCompacting, phWaitingMCP, phReading, phApproval}
	for eng := session.PhaseIdle; eng <= session.PhaseApproval; eng++ {
		for bits := range 1 << len(order) {
			on := func(i int) bool { return bits&(1<<i) != 0 }
			f := chatFacts{Replying: on(0), Tools: on(1), Compacting: on(2), WaitingMCP: on(3), Reading: on(4), Hosted: on(5)}
			want := phIdle
			for i, p := range order {
				if on(i) {
					want = p
					break
				}
			}
			for said := hapNone; said <= hapHandedOff; said++ {
				a := activityOf(eng, said, f)
				if a.phase != want || a.detail != phaseDetail[want] || a.state != shownState(eng, said) {
					t.Fatalf("engine %s, facts %+v, said %d: %+v, want phase %s", eng, f, said, a, want)
				}
				if (eng == session.PhaseIdle) != (a.state == Idle) {
					t.Fatalf("engine %s, said %d: the line shows %s", eng, said, a.state)
				}
			}
		}
	}
}

// displayCarriers lists every message type (a type named …Msg, or one a
// child posts: frameState.post) that carries what the status line shows
// (State or Status) in a field: a message says what happened, and the line
// derives what to show (activityOf).
func displayCarriers(fset *token.FileSet, files []*ast.File) []string {
	msgs := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "post" {
				return true
			}
			if lit, ok := call.Args[0].(*ast.CompositeLit); ok {
				if id, ok := lit.Type.(*ast.Ident); ok {
					msgs[id.Name] = true
				}
			}
			return true
		})
	}
	var out []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !(strings.HasSuffix(ts.Name.Name, "Msg") || msgs[ts.Name.Name]) {
				return true
			}
			ast.Inspect(ts.Type, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && (id.Name == "State" || id.Name == "Status") {
					out = append(out, fmt.Sprintf("%s: message %s carries a %s: say what happened (didMsg), and let activityOf derive what the line shows", fset.Position(id.Pos()), ts.Name.Name, id.Name))
				}
				return true
			})
			return true
		})
	}
	return out
}

// TestNoMessageCarriesTheDisplayState: no message of the ui package
// carries the status line's state; planted ones are caught.
func TestNoMessageCarriesTheDisplayState(t *testing.T) {
	t.Parallel()
	cases := []finderCase{
		{"the ui package", "", 0},
		{"planted: a Msg with a State", "type toolStatusMsg struct{ state State; detail string }", 1},
		{"planted: a Msg with a Status, behind a pointer", "type lineMsg struct{ s *Status }", 1},
		{"planted: a posted type with a State in a slice", "type report struct{ states []State }\nfunc g(f *frameState) { f.post(report{}) }", 1},
		{"planted: a Msg with a State in a nested struct", "type nestMsg struct{ x struct{ s State } }", 1},
		{"allowed: a fact", "type okMsg struct{ what happening; detail string }\nfunc g(f *frameState) { f.post(okMsg{}) }", 0},
		{"allowed: a State outside a message", "type bar struct{ s State }", 0},
	}
	checkFinder(t, cases, func(src string) string { return "package ui\n" + src }, displayCarriers)
}
