package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/tools"
)

func shellRequest(args string) tools.ApprovalRequest {
	return tools.ApprovalRequest{
		Call:    tools.Call{CallID: "call_1", ItemID: "fc_1", Name: "shell_exec", Arguments: args},
		Tool:    "shell_exec",
		Kind:    tools.KindFunction,
		Policy:  tools.ApproveAlways,
		Command: []string{"sh", "-c", "python3 tools/run.py --dry-run"},
	}
}

func mcpRequest() tools.ApprovalRequest {
	return tools.ApprovalRequest{
		Call:    tools.Call{CallID: "call_2", Name: "fs__read_file", Arguments: `{"path":"/etc/hosts"}`},
		Tool:    "fs",
		Kind:    tools.KindServer,
		Policy:  tools.ApproveOnce,
		Command: []string{"fs", "read_file"},
	}
}

func TestApprovalChoices(t *testing.T) {
	t.Parallel()
	a := NewApproval(shellRequest(`{"cmd":"ls"}`), dlgStyles())
	for _, c := range []struct {
		keys []string
		want ApprovalDecisionMsg
	}{
		{[]string{"a"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Allow}},
		{[]string{"A"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Allow}},
		{[]string{"y"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Allow}}, // y is a
		{[]string{"s"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.AllowForSession}},
		{[]string{"esc"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Deny}},
		{[]string{"d", "esc"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Deny}},
		{[]string{"d", "enter"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Deny}},
		{[]string{"n", "enter"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Deny}}, // n is d
		{[]string{"N", "esc"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Deny}},
		{[]string{"down", "x", "enter", "up", "a"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Allow}},
	} {
		if _, msgs := dlgPress(a, c.keys...); len(msgs) != 1 || msgs[0] != c.want {
			t.Errorf("%v emitted %v, want %v", c.keys, msgs, c.want)
		}
	}
}

func TestApprovalDenyWithReason(t *testing.T) {
	t.Parallel()
	if a, msgs := dlgPress(NewApproval(shellRequest(`{}`), dlgStyles()), "n"); len(msgs) != 0 || !a.Denying() {
		t.Fatalf("n, as d, should open the reason input, emitted %v", msgs)
	}
	a, msgs := dlgPress(NewApproval(shellRequest(`{}`), dlgStyles()), "d")
	if len(msgs) != 0 || !a.Denying() {
		t.Fatalf("d should open the reason input, emitted %v", msgs)
	}
	if v := ansi.Strip(a.View(60, 20)); !strings.Contains(v, "reason:") || !strings.Contains(v, "esc deny without a reason") {
		t.Fatalf("the reason input is not shown:\n%s", v)
	}
	a, msgs = dlgType(a, "as root? ")
	a, _ = a.Update(tea.PasteMsg{Content: "use a \x1b[31mdry run\x07 first\n"})
	if len(msgs) != 0 {
		t.Fatalf("typing a, s or d in the reason decided: %v", msgs)
	}
	checkView(t, a.View(60, 20), 60, 20)
	_, msgs = dlgPress(a, "enter")
	want := ApprovalDecisionMsg{ID: "call_1", Decision: tools.Deny, Reason: "as root? use a dry run first"}
	if len(msgs) != 1 || msgs[0] != want {
		t.Fatalf("enter emitted %#v, want %#v", msgs, want)
	}
	if _, msgs = dlgPress(a, "esc"); len(msgs) != 1 || msgs[0] != (ApprovalDecisionMsg{ID: "call_1", Decision: tools.Deny}) {
		t.Errorf("esc in the reason should deny without one: %v", msgs)
	}
}

// TestApprovalPointsAtThePanel: the dialog names the tool and shows the
// command, and points at the call's panel for the arguments instead of
// printing them a second time.
func TestApprovalPointsAtThePanel(t *testing.T) {
	t.Parallel()
	v := ansi.Strip(NewApproval(shellRequest(`{"path":"/tmp/x","flags":["-v"]}`), nil).View(60, 30))
	for _, want := range []string{"function shell_exec", "  sh -c 'python3 tools/run.py --dry-run'", "arguments in its panel above", "a/y approve once", "d/n deny"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "/tmp/x") || strings.Contains(v, "-v") {
		t.Errorf("the dialog repeats the arguments:\n%s", v)
	}
	v = ansi.Strip(NewApproval(mcpRequest(), nil).View(60, 30))
	if !strings.Contains(v, "mcp server fs · tool read_file") || strings.Contains(v, "command") || strings.Contains(v, "/etc/hosts") || !strings.Contains(v, "in its panel above") {
		t.Errorf("mcp view:\n%s", v)
	}
	if !strings.Contains(v, "a/y approve ·") {
		t.Errorf("a once-per-session tool's approve is not \"once\":\n%s", v)
	}
	if v := ansi.Strip(NewApproval(shellRequest(" {} "), nil).View(60, 30)); !strings.Contains(v, "arguments (none)") || strings.Contains(v, "panel above") {
		t.Errorf("a call without arguments points at none:\n%s", v)
	}
}

func TestApprovalViewFitsAndIsClean(t *testing.T) {
	t.Parallel()
	evil := tools.ApprovalRequest{
		Call: tools.Call{CallID: "c", Name: "x", Arguments: "{\"cmd\":\"rm -rf /\x1b[2K\rharmless\",\"\x1b]0;t\x07k\":\"" +
			strings.Repeat("長い値 ", 40) + "\"}\n\x1b[31mtrailing\x07\x00"},
		Tool:    "sh\x1b[31mell\x07",
		Kind:    tools.KindFunction,
		Command: []string{"sh", "-c", "echo 'hi'\nrm -rf \x1b[8m/tmp/x\x1b[0m\t# hidden?", strings.Repeat("arg ", 60)},
	}
	reqs := []tools.ApprovalRequest{evil, shellRequest(`{"a":"` + strings.Repeat("wide 幅 ", 200) + `"}`), mcpRequest(), shellRequest("")}
	for _, req := range reqs {
		for _, w := range []int{60, 100} {
			for _, h := range []int{3, 6, 12, 40} {
				a := NewApproval(req, dlgStyles())
				checkView(t, a.View(w, h), w, h)
				if !strings.Contains(ansi.Strip(a.View(w, h)), "d/n deny") {
					t.Errorf("%dx%d: the choices must always show:\n%s", w, h, ansi.Strip(a.View(w, h)))
				}
				a, _ = dlgPress(a, "pgdown", "d")
				checkView(t, a.View(w, h), w, h)
			}
		}
	}
	v := ansi.Strip(NewApproval(evil, nil).View(100, 40))
	if !strings.Contains(v, `sh -c 'echo '\''hi'\''\nrm -rf /tmp/x\t# hidden?'`) {
		t.Errorf("the command should show quoted, its newline and tab visible:\n%s", v)
	}
}

// TestApprovalWrapsCommandAtSpaces checks the command wraps at spaces with
// a hanging indent: every argument that fits a line shows
// whole on one line of the dialog, nothing is lost, and only an argument
// wider than a line breaks.
func TestApprovalWrapsCommandAtSpaces(t *testing.T) {
	t.Parallel()
	argv := []string{"rsync", "--archive", "--delete-after", "--exclude=node_modules", "--exclude=.git",
		"/home/user/projects/my-long-project-name/src/", "deploy@build.example.com:/srv/www/my-project-name/",
		"--log-file=/var/log/deploy/" + strings.Repeat("verylong", 9) + ".log"}
	req := shellRequest(`{"cmd":"rsync --archive --delete-after --exclude=node_modules /home/user/projects/my-long-project-name/src/ deploy@build-server.example.com:/srv/www/"}`)
	req.Command = argv
	a := NewApproval(req, dlgStyles())
	view := ansi.Strip(a.View(60, 40))
	var cmdRows []string
	for i, l := range a.command {
		if ansi.StringWidth(l) > approvalWrap {
			t.Errorf("command line %d is %d cells", i, ansi.StringWidth(l))
		}
		if i > 0 && !strings.HasPrefix(l, strings.Repeat(" ", approvalHang)) {
			t.Errorf("command line %d has no hanging indent: %q", i, l)
		}
		cmdRows = append(cmdRows, strings.Fields(l)...)
	}
	for _, arg := range argv[:len(argv)-1] {
		if !slices.Contains(cmdRows, arg) {
			t.Errorf("argument %q split across lines:\n%s", arg, strings.Join(a.command, "\n"))
		}
	}
	for _, arg := range argv[:6] { // the dialog shows the command's first lines
		if !strings.Contains(view, arg) {
			t.Errorf("argument %q not whole in the dialog:\n%s", arg, view)
		}
	}
	if got, want := strings.Join(strings.Fields(strings.Join(a.command, " ")), ""), strings.Join(argv, ""); got != want {
		t.Errorf("command text changed:\n%s\n%s", got, want)
	}
}
