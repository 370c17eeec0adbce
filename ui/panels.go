package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/theme"
	"runnel/ui/block"
)

// TogglePanelMsg asks the root to open or close panel Index (an index into
// the panels the list was built from) and scroll to it.
type TogglePanelMsg struct{ Index int }

// PanelList is the alt+o dialog: every tool panel of the transcript, newest
// last, each with its header line and whether it is open. up/down select,
// enter (or space, or ctrl+o) opens or closes the selected panel and shows
// it in the transcript; esc closes the list. It is how any panel, not only
// the last, is opened.
//
// Invariants:
//   - rows are in transcript order and their titles are plain text (ANSI
//     stripped from the panels' own sanitized header lines).
//   - cur.Len() == len(rows); the cursor starts on the last row.
type PanelList struct {
	styles *theme.Styles
	rows   []panelRow
	cur    listCursor
	keys   PanelKeys
	help   bool
}

// panelRow is one panel as listed.
type panelRow struct {
	title string
	open  bool
}

// NewPanelList lists the panels of es, rendered at width for their header.
func NewPanelList(es []*itemEntry, width int, st *theme.Styles) PanelList {
	l := PanelList{styles: st, keys: DefaultPanelKeys()}
	for _, e := range es {
		first, _, _ := strings.Cut(e.View(max(width-6, 20)), "\n")
		open := false
		if x, ok := e.b.(block.Expander); ok {
			open = x.Expanded()
		}
		l.rows = append(l.rows, panelRow{title: panelTitle(first), open: open})
	}
	l.cur = newListCursor(len(l.rows))
	l.cur.End()
	return l
}

// panelTitle is a panel's header line as plain text: its frame's corners
// and rules dropped, its pieces (title, state) joined by " · ".
func panelTitle(header string) string {
	var parts []string
	for _, p := range strings.FieldsFunc(ansi.Strip(header), func(r rune) bool { return strings.ContainsRune("─╭╮┌┐", r) }) {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " · ")
}

// Update handles keys.
func (l PanelList) Update(msg tea.Msg) (PanelList, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return l, nil
	}
	if l.help {
		l.help = helpToggle(k, l.keys.Help)
		return l, nil
	}
	switch {
	case key.Matches(k, l.keys.Close):
		return l, msgCmd(DialogClosedMsg{})
	case key.Matches(k, l.keys.Help):
		l.help = true
	case key.Matches(k, l.keys.Toggle):
		if l.cur.Len() > 0 {
			return l, msgCmd(TogglePanelMsg{Index: l.cur.Sel()})
		}
	default:
		l.keys.List.Move(k, &l.cur)
	}
	return l, nil
}

// View draws the title, one row per visible panel and a key hint.
func (l PanelList) View(width, height int) string {
	if l.help {
		return dialogHelpView(l.styles, "Panels", l.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(l.styles)
	title := d.Title.Render("Tool panels") + d.Meta.Render(" "+strconv.Itoa(len(l.rows)))
	if len(l.rows) == 0 {
		return fitLines([]string{title, d.Empty.Render("no tool panels in this conversation yet"), dialogHint(d, width, "esc", "close")}, width, height)
	}
	lines := []string{title}
	rows := max(height-2, 1)
	first := l.cur.Window(rows)
	for i := first; i < min(first+rows, len(l.rows)); i++ {
		r := l.rows[i]
		base, mark := d.Item, "  "
		if i == l.cur.Sel() {
			base, mark = d.Selected, d.Marker.Render("› ")
		}
		state := "▸ "
		if r.open {
			state = "▾ "
		}
		lines = append(lines, mark+d.Meta.Render(state)+base.Render(ansi.Truncate(r.title, max(width-4, 1), "…")))
	}
	return fitFoot(lines, []string{dialogHint(d, width, "↑/↓", "select", "enter", "open/close", "esc", "close", "?", "keys")}, width, height)
}
