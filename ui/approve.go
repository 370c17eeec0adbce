package ui

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/tools"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/textwrap"
)

// ApprovalDecisionMsg is the user's answer to a local tool's approval
// request.
type ApprovalDecisionMsg struct {
	ID       string // the request's call id (Call.CallID)
	Decision tools.Decision
	Reason   string // why the user denied, one sanitized line; "" for none
}

// Approval asks whether a local function tool or a stdio MCP tool may run.
// It shows the tool, the command it will run and its arguments, and takes
// a (approve once), s (approve this tool for the session) or d (deny, then
// an optional one-line reason: enter sends it, esc sends none). Esc denies
// without a reason. up/down scroll long arguments.
//
// Text is wrapped when the dialog is built, at approvalWrap cells, so that
// nothing the user approves is hidden by a cut: View only picks lines. It
// wraps at spaces (textwrap.Words): an argument of the command or a word
// of the arguments that fits a line stays whole, continuation lines hang
// further in, and only a word wider than a line is broken.
//
// Invariants:
//   - every string held is safe to print (sanitized when built).
//   - scroll is a listCursor over args: 0 ≤ scroll.Sel() < len(args) when
//     args is non-empty, else 0.
//   - the reason input has the keyboard only while denying.
type Approval struct {
	styles  *theme.Styles
	id      string
	server  bool       // an MCP tool: tool is the server, call the tool
	once    bool       // the policy is once-per-session: a yes already holds for the session
	tool    string     // the config's name: the function or the MCP server
	call    string     // the MCP tool's name; "" for a function
	command []string   // the command line, wrapped; nil when the request has none
	args    []string   // the arguments, pretty-printed and wrapped; nil when empty
	scroll  listCursor // its Sel is the first argument line shown
	denying bool
	reason  textinput.Model
	keys    ApprovalKeys
	help    bool // "?" shows the keys instead of the question
}

// Approval layout.
const (
	approvalWrap     = 56       // cells per wrapped line: fits a 60-column dialog with its indent
	approvalHang     = 4        // a wrapped command's continuation rows start this much further in
	approvalArgLines = 15       // argument lines shown at once
	approvalCmdLines = 6        // command lines shown, at most
	approvalArgBytes = 64 << 10 // argument text shown, at most
	approvalReason   = 300      // runes in a reason
)

// NewApproval builds the question for req.
func NewApproval(req tools.ApprovalRequest, st *theme.Styles) Approval {
	a := Approval{
		styles: st,
		id:     req.Call.CallID,
		server: req.Kind == tools.KindServer,
		once:   req.Policy == tools.ApproveOnce,
		tool:   stream.SanitizeLine(req.Tool),
		args:   prettyArgs(req.Call.Arguments),
		reason: newDialogInput(st, "reason: ", "optional — enter sends, esc skips"),
		keys:   DefaultApprovalKeys(),
	}
	a.scroll = newListCursor(len(a.args))
	a.scroll.SetPage(approvalArgLines)
	a.reason.CharLimit = approvalReason
	a.reason.Blur()
	if a.tool == "" {
		a.tool = stream.SanitizeLine(req.Call.Name)
	}
	switch {
	case a.server && len(req.Command) >= 2:
		a.call = stream.SanitizeLine(req.Command[1])
	case a.server:
		a.call = stream.SanitizeLine(req.Call.Name)
	case len(req.Command) > 0:
		a.command = textwrap.Words(shellJoin(req.Command), approvalWrap, approvalHang)
	}
	return a
}

// Update handles keys (and pastes into the reason).
func (a Approval) Update(msg tea.Msg) (Approval, tea.Cmd) {
	k, isKey := msg.(tea.KeyPressMsg)
	if a.denying {
		if isKey {
			switch {
			case key.Matches(k, a.keys.Send):
				return a, a.decide(tools.Deny, stream.SanitizeLine(a.reason.Value()))
			case key.Matches(k, a.keys.NoReason):
				return a, a.decide(tools.Deny, "")
			}
		}
		if p, paste := msg.(tea.PasteMsg); paste {
			msg = cleanPaste(p)
		} else if !isKey {
			return a, nil
		}
		var cmd tea.Cmd
		a.reason, cmd = a.reason.Update(msg)
		return a, cmd
	}
	if !isKey {
		return a, nil
	}
	if a.help {
		a.help = helpToggle(k, a.keys.Help)
		return a, nil
	}
	switch {
	case key.Matches(k, a.keys.Approve): // y and n as on the hosted MCP panel
		return a, a.decide(tools.Allow, "")
	case key.Matches(k, a.keys.Deny):
		return a, a.decide(tools.Deny, "")
	case key.Matches(k, a.keys.Session):
		return a, a.decide(tools.AllowForSession, "")
	case key.Matches(k, a.keys.DenyReason):
		a.denying = true
		return a, a.reason.Focus()
	case key.Matches(k, a.keys.Dismiss):
		return a, a.decide(tools.Deny, "")
	case key.Matches(k, a.keys.Help):
		a.help = true
	default:
		a.keys.Scroll.Move(k, &a.scroll)
	}
	return a, nil
}

func (a Approval) decide(d tools.Decision, reason string) tea.Cmd {
	return msgCmd(ApprovalDecisionMsg{ID: a.id, Decision: d, Reason: reason})
}

// Denying reports whether the reason input is open.
func (a Approval) Denying() bool { return a.denying }

// View draws the question, the tool, the command, a window of the
// arguments and the choices (or the reason input). The choices always show;
// the arguments give up lines first when height is short.
func (a Approval) View(width, height int) string {
	if a.help {
		return dialogHelpView(a.styles, "Approval", a.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(a.styles)
	head := []string{d.Confirm.Render("Allow this tool call?")}
	if a.server {
		head = append(head, d.Label.Render("mcp server ")+d.Selected.Render(a.tool)+d.Label.Render(" · tool ")+d.Selected.Render(a.call))
	} else {
		head = append(head, d.Label.Render("function ")+d.Selected.Render(a.tool))
	}
	var foot []string
	if a.denying {
		in := a.reason
		in.SetWidth(max(width-ansi.StringWidth(in.Prompt)-1, 1))
		foot = []string{in.View(), dialogHint(d, width, "enter", "deny", "esc", "deny without a reason")}
	} else {
		approve := "approve once"
		if a.once {
			approve = "approve" // the policy keeps a yes for the session anyway
		}
		foot = []string{dialogHint(d, width, "a", approve, "d", "deny", "s", "approve for the session", "esc", "deny", "ctrl+c", "stop", "?", "keys")}
	}

	var body []string
	if len(a.command) > 0 {
		body = append(body, d.Label.Render("command"))
		for i, l := range a.command {
			if i == approvalCmdLines-1 && len(a.command) > approvalCmdLines {
				body = append(body, "  "+d.More.Render("… "+countNoun(len(a.command)-i, "more line", "more lines")))
				break
			}
			body = append(body, "  "+d.Code.Render(l))
		}
	}
	body = append(body, a.argsView(d, height-len(head)-len(body)-len(foot))...)

	return fitFoot(append(head, body...), foot, width, height)
}

// argsView is the arguments section in at most room lines: a label, a
// window of lines from scroll and "… N more lines" when some are below.
func (a Approval) argsView(d theme.Dialog, room int) []string {
	if len(a.args) == 0 {
		return []string{d.Label.Render("arguments ") + d.More.Render("(none)")}
	}
	n := min(room-1, approvalArgLines, len(a.args)) // the label takes a line
	if n < len(a.args) {
		n = min(room-2, approvalArgLines) // and so does "… N more"
	}
	if n < 1 {
		return []string{d.Label.Render("arguments ") + d.More.Render("("+countNoun(len(a.args), "line", "lines")+": the window is too short)")}
	}
	start := min(a.scroll.Sel(), len(a.args)-n)
	label := d.Label.Render("arguments")
	if n < len(a.args) {
		label += d.Meta.Render(" · lines " + strconv.Itoa(start+1) + "–" + strconv.Itoa(start+n) + " of " + strconv.Itoa(len(a.args)))
	}
	out := []string{label}
	for _, l := range a.args[start : start+n] {
		out = append(out, "  "+d.Code.Render(l))
	}
	if below := len(a.args) - start - n; below > 0 {
		out = append(out, "  "+d.More.Render("… "+countNoun(below, "more line", "more lines")+" · ↑/↓ scroll"))
	}
	return out
}

// prettyArgs is a call's arguments for display: indented when they are
// JSON, as sent when not, sanitized, cut at approvalArgBytes and wrapped.
// Empty arguments ("", "{}") give nil.
func prettyArgs(raw string) []string {
	text := strings.TrimSpace(raw)
	var buf bytes.Buffer
	if json.Indent(&buf, []byte(text), "", "  ") == nil {
		text = buf.String()
	}
	if text == "" || text == "{}" {
		return nil
	}
	cut := 0
	if len(text) > approvalArgBytes {
		cut = len(text) - approvalArgBytes
		text = text[:approvalArgBytes] // a split rune becomes U+FFFD below
	}
	lines := textwrap.Words(strings.ReplaceAll(stream.Sanitize(text), "\t", "    "), approvalWrap, 2)
	if cut > 0 {
		lines = append(lines, "… "+strconv.Itoa(cut)+" more bytes not shown")
	}
	return lines
}

// shellJoin writes an argv as one shell-like line for reading: arguments
// with anything but plain characters are single-quoted, and newlines and
// tabs inside them show as \n and \t. Each argument is sanitized.
func shellJoin(argv []string) string {
	parts := make([]string, len(argv))
	for i, arg := range argv {
		arg = stream.Sanitize(arg)
		arg = strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(arg)
		if arg == "" || strings.ContainsFunc(arg, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./:=@%+,", r))
		}) {
			arg = "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
		}
		parts[i] = arg
	}
	return strings.Join(parts, " ")
}
