package ui

import (
	"fmt"
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
	a := NewApproval(shellRequest(`{"cmd":"ls"}`), dlgStyles())
	for _, c := range []struct {
		keys []string
		want ApprovalDecisionMsg
	}{
		{[]string{"a"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Allow}},
		{[]string{"A"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Allow}},
		{[]string{"s"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.AllowForSession}},
		{[]string{"esc"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Deny}},
		{[]string{"d", "esc"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Deny}},
		{[]string{"d", "enter"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Deny}},
		{[]string{"down", "x", "enter", "up", "a"}, ApprovalDecisionMsg{ID: "call_1", Decision: tools.Allow}},
	} {
		if _, msgs := dlgPress(a, c.keys...); len(msgs) != 1 || msgs[0] != c.want {
			t.Errorf("%v emitted %v, want %v", c.keys, msgs, c.want)
		}
	}
}

func TestApprovalDenyWithReason(t *testing.T) {
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

func TestApprovalShowsToolCommandAndArguments(t *testing.T) {
	v := ansi.Strip(NewApproval(shellRequest(`{"path":"/tmp/x","flags":["-v"]}`), nil).View(60, 30))
	for _, want := range []string{"function shell_exec", "  sh -c 'python3 tools/run.py --dry-run'", "  {", `    "path": "/tmp/x",`, `      "-v"`, "a approve once", "d deny"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	v = ansi.Strip(NewApproval(mcpRequest(), nil).View(60, 30))
	if !strings.Contains(v, "mcp server fs · tool read_file") || strings.Contains(v, "command") || !strings.Contains(v, `"path": "/etc/hosts"`) {
		t.Errorf("mcp view:\n%s", v)
	}
	if !strings.Contains(v, "a approve ·") {
		t.Errorf("a once-per-session tool's approve is not \"once\":\n%s", v)
	}
}

func TestApprovalArgumentsAreCappedAndScroll(t *testing.T) {
	var fields []string
	for i := range 40 {
		fields = append(fields, fmt.Sprintf(`"k%02d":%d`, i, i))
	}
	a := NewApproval(shellRequest("{"+strings.Join(fields, ",")+"}"), nil)
	v := ansi.Strip(a.View(60, 40))
	if !strings.Contains(v, `"k13": 13`) || strings.Contains(v, `"k14"`) || !strings.Contains(v, "… 27 more lines · ↑/↓ scroll") || !strings.Contains(v, "lines 1–15 of 42") {
		t.Fatalf("arguments should show 15 lines, then a count:\n%s", v)
	}
	a, _ = dlgPress(a, "end")
	v = ansi.Strip(a.View(60, 40))
	if !strings.Contains(v, `"k39": 39`) || !strings.Contains(v, "lines 28–42 of 42") || strings.Contains(v, "more lines") {
		t.Fatalf("end should show the last lines:\n%s", v)
	}
	a, _ = dlgPress(a, "home", "down", "down")
	if v := ansi.Strip(a.View(60, 40)); !strings.Contains(v, "lines 3–17 of 42") {
		t.Errorf("two downs from the top:\n%s", v)
	}
}

func TestPrettyArgs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{" {} ", nil},
		{`{"a":1}`, []string{"{", `  "a": 1`, "}"}},
		{"not json\twith a tab", []string{"not json    with a tab"}},
		{`{"s":"\u001b[2J"}`, []string{"{", `  "s": "\u001b[2J"`, "}"}}, // an escape stays escaped text
		{"{\"s\":\"a\u009b2Jb\"}", []string{"{", `  "s": "ab"`, "}"}},   // a raw 8-bit CSI is dropped whole
		{"{\"s\":\"\x1b[31mred\"}", []string{"{\"s\":\"red\"}"}},        // invalid JSON, shown raw, cleaned
	} {
		if got := prettyArgs(c.in); !slices.Equal(got, c.want) {
			t.Errorf("prettyArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := prettyArgs(`{"data":"` + strings.Repeat("x", 100_000) + `"}`)
	if last := long[len(long)-1]; !strings.HasSuffix(last, "more bytes not shown") {
		t.Errorf("100 KB of arguments: last line %q", last)
	}
	for _, l := range long {
		if ansi.StringWidth(l) > approvalWrap {
			t.Fatalf("a line is %d cells, wider than %d", ansi.StringWidth(l), approvalWrap)
		}
	}
}

func TestApprovalViewFitsAndIsClean(t *testing.T) {
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
				if !strings.Contains(ansi.Strip(a.View(w, h)), "d deny") {
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

// TestApprovalWrapsCommandAtSpaces checks the command and arguments wrap
// at spaces with a hanging indent: every argument that fits a line shows
// whole on one line of the dialog, nothing is lost, and only an argument
// wider than a line breaks.
func TestApprovalWrapsCommandAtSpaces(t *testing.T) {
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
	for _, word := range []string{"/home/user/projects/my-long-project-name/src/", "deploy@build-server.example.com:/srv/www/\""} {
		if !strings.Contains(strings.Join(a.args, "\n"), word) {
			t.Errorf("argument word %q split:\n%s", word, strings.Join(a.args, "\n"))
		}
	}
}
