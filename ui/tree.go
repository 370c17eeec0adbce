package ui

import (
	"fmt"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session"
	"runnel/session/store"
	"runnel/stream"
	"runnel/theme"
)

// Tree is the /tree dialog: every branch of the conversation (an edited
// prompt, or one sent after /undo, starts one beside the turn it replaces),
// one row each with where it leaves the first branch, that prompt and its
// turn count; the branch shown is marked. up/down select, enter shows the
// selected branch (the conversation continues from its last turn), esc
// closes.
//
// Invariants: rows are the conversation's Branches when it opened, in the
// order their last turns began; cur.Len() == len(rows); the cursor starts
// on the branch shown.
type Tree struct {
	styles *theme.Styles
	rows   []session.Branch
	cur    listCursor
	keys   TreeKeys
	help   bool
}

// TreeKeys are the /tree dialog's keys.
type TreeKeys struct {
	List  ListKeys
	Open  key.Binding
	Close key.Binding
	Help  key.Binding
}

// DefaultTreeKeys returns the /tree dialog's bindings.
func DefaultTreeKeys() TreeKeys {
	return TreeKeys{
		List:  defaultListKeys(true),
		Open:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "show this branch and continue it")),
		Close: closeKey("close"),
		Help:  helpKey(),
	}
}

// FullHelp is the dialog's keys for its "?" view.
func (k TreeKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.List.Bindings(), {k.Open, k.Close, k.Help}}
}

// NewTree lists branches, the cursor on the one shown.
func NewTree(branches []session.Branch, st *theme.Styles) Tree {
	t := Tree{styles: st, rows: branches, keys: DefaultTreeKeys()}
	t.cur = newListCursor(len(branches))
	for i, b := range branches {
		if b.Current {
			t.cur.Move(i)
		}
	}
	return t
}

// Update handles keys.
func (t Tree) Update(msg tea.Msg) (Tree, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return t, nil
	}
	if t.help {
		t.help = helpToggle(k, t.keys.Help)
		return t, nil
	}
	switch {
	case key.Matches(k, t.keys.Close):
		return t, msgCmd(DialogClosedMsg{})
	case key.Matches(k, t.keys.Help):
		t.help = true
	case key.Matches(k, t.keys.Open):
		if t.cur.Len() > 0 {
			b := t.rows[t.cur.Sel()]
			return t, msgCmd(branchMsg{tip: b.Tip, note: "showing " + branchName(b) + " — your next message continues it"})
		}
	default:
		t.keys.List.Move(k, &t.cur)
	}
	return t, nil
}

// branchName is a branch as notices and the dialog name it.
func branchName(b session.Branch) string {
	if b.At == 0 {
		return "the first branch"
	}
	return fmt.Sprintf("the branch at turn %d", b.At)
}

// branchLabels is each row's text: the prompt where the branch leaves the
// first one; where two rows would read the same (a branch and what /undo
// left of it), each also says where it ends, so rows show where they
// differ.
func branchLabels(rows []session.Branch) []string {
	label := func(b session.Branch) string {
		if p := stream.SanitizeLine(b.Prompt); p != "" {
			return p
		}
		return "(no turns)"
	}
	seen := map[string]int{}
	for _, b := range rows {
		seen[fmt.Sprint(b.At, label(b))]++
	}
	out := make([]string, len(rows))
	for i, b := range rows {
		out[i] = label(b)
		if seen[fmt.Sprint(b.At, out[i])] > 1 {
			end := "ends before turn 1"
			if p := lastPrompt(b.Tip); b.Turns > 0 {
				end = fmt.Sprintf("ends at turn %d: %s", b.Turns, stream.SanitizeLine(p))
			}
			out[i] += " … " + end
		}
	}
	return out
}

// lastPrompt is the prompt of the last user turn up to t.
func lastPrompt(t *session.Turn) string {
	for ; t != nil; t = t.Parent {
		if store.UserTurn(t.Prompt, t.Input) {
			return t.Prompt
		}
	}
	return ""
}

// View draws the title, one row per visible branch and a key hint.
func (t Tree) View(width, height int) string {
	if t.help {
		return dialogHelpView(t.styles, "Branches", t.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(t.styles)
	title := d.Title.Render("Branches") + d.Meta.Render(" "+strconv.Itoa(len(t.rows)))
	lines := []string{title}
	if len(t.rows) < 2 {
		lines = append(lines, d.Empty.Render("one branch: /edit N edits an earlier prompt and starts another"))
	}
	labels := branchLabels(t.rows)
	rows := max(height-3, 1)
	first := t.cur.Window(rows)
	for i := first; i < min(first+rows, len(t.rows)); i++ {
		b := t.rows[i]
		base, mark := d.Item, "  "
		if i == t.cur.Sel() {
			base, mark = d.Selected, d.Marker.Render("› ")
		}
		where := "first    "
		if b.At > 0 {
			where = fmt.Sprintf("turn %-4d", b.At)
		}
		meta := " · " + plural(b.Turns, "turn")
		if b.Current {
			meta += " · shown"
		}
		room := max(width-4-ansi.StringWidth(where)-1-ansi.StringWidth(meta), 8)
		prompt := ansi.Truncate(labels[i], room, "…")
		lines = append(lines, mark+d.Meta.Render(where+" ")+base.Render(prompt)+d.Meta.Render(meta))
	}
	return fitFoot(lines, []string{dialogHint(d, width, "↑/↓", "select", "enter", "show", "esc", "close", "?", "keys")}, width, height)
}
