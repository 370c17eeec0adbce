package ui

import (
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
// It names the tool and shows the command it will run; the arguments are
// in the call's panel above it, drawn whole while the call waits (ui/block),
// so they are printed once. It takes the approval vocabulary
// (ApprovalKeys): a or y approve once, s approve this tool for the
// session, d or n deny, then an optional one-line reason (enter sends it,
// esc sends none). Esc denies without asking for a reason.
//
// The command is wrapped when the dialog is built, at approvalWrap cells,
// so that nothing the user approves is hidden by a cut: View only picks
// lines. It wraps at spaces (textwrap.Words): an argument that fits a line
// stays whole, continuation lines hang further in, and only a word wider
// than a line is broken.
//
// Invariants:
//   - every string held is safe to print (sanitized when built).
//   - the reason input has the keyboard only while denying.
type Approval struct {
	styles  *theme.Styles
	id      string
	server  bool     // an MCP tool: tool is the server, call the tool
	once    bool     // the policy is once-per-session: a yes already holds for the session
	tool    string   // the config's name: the function or the MCP server
	call    string   // the MCP tool's name; "" for a function
	command []string // the command line, wrapped; nil when the request has none
	noArgs  bool     // the call has no arguments: there are none to point at
	denying bool
	reason  textinput.Model
	keys    ApprovalKeys
	help    bool // "?" shows the keys instead of the question
}

// Approval layout.
const (
	approvalWrap     = 56  // cells per wrapped line: fits a 60-column dialog with its indent
	approvalHang     = 4   // a wrapped command's continuation rows start this much further in
	approvalCmdLines = 6   // command lines shown, at most
	approvalReason   = 300 // runes in a reason
)

// NewApproval builds the question for req.
func NewApproval(req tools.ApprovalRequest, st *theme.Styles) Approval {
	args := strings.TrimSpace(req.Call.Arguments)
	a := Approval{
		styles: st,
		id:     req.Call.CallID,
		server: req.Kind == tools.KindServer,
		once:   req.Policy == tools.ApproveOnce,
		tool:   stream.SanitizeLine(req.Tool),
		noArgs: args == "" || args == "{}",
		reason: newDialogInput(st, "reason: ", "optional — enter denies, esc denies without one"),
		keys:   DefaultApprovalKeys(),
	}
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
	case key.Matches(k, a.keys.Approve):
		return a, a.decide(tools.Allow, "")
	case key.Matches(k, a.keys.Session):
		return a, a.decide(tools.AllowForSession, "")
	case key.Matches(k, a.keys.Deny):
		a.denying = true
		return a, a.reason.Focus()
	case key.Matches(k, a.keys.Dismiss):
		return a, a.decide(tools.Deny, "")
	case key.Matches(k, a.keys.Help):
		a.help = true
	}
	return a, nil
}

func (a Approval) decide(d tools.Decision, reason string) tea.Cmd {
	return msgCmd(ApprovalDecisionMsg{ID: a.id, Decision: d, Reason: reason})
}

// Denying reports whether the reason input is open.
func (a Approval) Denying() bool { return a.denying }

// View draws the question, the tool, the command, where the arguments are
// and the choices (or the reason input). The choices always show; the
// command gives up lines first when height is short.
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
		foot = []string{in.View(), bindingHint(d, width, a.keys.Send, a.keys.NoReason)}
	} else {
		c := a.choices()
		if hintWidth(c[:3]) > width { // the three answers stay: their words shorten first
			for i, b := range c {
				if w := shortAnswer(b.Help().Desc); w != "" {
					c[i] = key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, w))
				}
			}
		}
		foot = []string{bindingHint(d, width, c...)}
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
	if a.noArgs {
		body = append(body, d.Label.Render("arguments ")+d.More.Render("(none)"))
	} else {
		body = append(body, d.Label.Render("arguments ")+d.More.Render("in its panel above, whole · pgup/pgdn scroll"))
	}
	return fitFoot(append(head, body...), foot, width, height)
}

// choices are the keys the dialog offers in its foot: the approval
// vocabulary, then the root's ctrl+c and "?". A once-per-session tool's
// yes holds for the session anyway, so its a is "approve", not "once".
func (a Approval) choices() []key.Binding {
	c := a.keys.approvalChoices()
	if a.once {
		c[0] = key.NewBinding(key.WithKeys(a.keys.Approve.Keys()...), key.WithHelp(a.keys.Approve.Help().Key, "approve"))
	}
	return append(c, key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "stop")), key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "keys")))
}

// hintWidth is the cells bindingHint needs to show every binding.
func hintWidth(bs []key.Binding) int {
	w := 0
	for i, b := range bs {
		w += ansi.StringWidth(b.Help().Key) + 1 + ansi.StringWidth(b.Help().Desc)
		if i > 0 {
			w += 3
		}
	}
	return w
}

// bindingHint is dialogHint for bindings: each one's help key and words.
func bindingHint(d theme.Dialog, width int, bs ...key.Binding) string {
	pairs := make([]string, 0, 2*len(bs))
	for _, b := range bs {
		pairs = append(pairs, b.Help().Key, b.Help().Desc)
	}
	return dialogHint(d, width, pairs...)
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
