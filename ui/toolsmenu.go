package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/tools"
	"runnel/stream"
	"runnel/theme"
)

// ToolsChangedMsg carries the tool toggles the user applied in /tools: every
// configured name, on or off.
type ToolsChangedMsg struct{ Enabled map[string]bool }

// ToolsMenu is the /tools checklist: one row per configured tool (name,
// kind, description), up/down select, space toggles, enter applies, esc
// cancels.
//
// Invariants:
//   - items are in the order given (config order) and hold each name once;
//     toggles change only items, so esc leaves the caller's map untouched.
//   - cur is a listCursor over items (cur.Len() == len(items)).
type ToolsMenu struct {
	styles *theme.Styles
	items  []toolItem
	cur    listCursor
	keys   ToolsKeys
	help   bool // "?" shows the keys
}

// toolItem is one row of the checklist.
type toolItem struct {
	name   string // as configured: the key of ToolsChangedMsg.Enabled
	label  string // name, sanitized for display
	kind   string // "hosted", "function", "mcp server"
	detail string // sanitized; "" for none
	on     bool
}

// Tools menu layout.
const (
	toolsNameMax = 24 // cells of the name column, at most
	toolsEmpty   = "no tools configured — see [[tools]], [[functions]] and [[mcp_servers]] in config.example.toml"
)

// NewToolsMenu lists the configured tools; a name's box is ticked per
// enabled, or per its Info.Enabled default when enabled does not name it.
func NewToolsMenu(list []tools.Info, enabled map[string]bool, st *theme.Styles) ToolsMenu {
	m := ToolsMenu{styles: st, keys: DefaultToolsKeys()}
	seen := map[string]bool{}
	for _, in := range list {
		if seen[in.Name] {
			continue
		}
		seen[in.Name] = true
		on, ok := enabled[in.Name]
		if !ok {
			on = in.Enabled
		}
		m.items = append(m.items, toolItem{
			name:   in.Name,
			label:  stream.SanitizeLine(in.Name),
			kind:   kindLabel(in.Kind),
			detail: toolDetail(in),
			on:     on,
		})
	}
	m.cur = newListCursor(len(m.items))
	return m
}

// toolDetail is a row's description, sanitized; a hosted tool's type is
// left out when it only repeats the name ("web_search").
func toolDetail(in tools.Info) string {
	d := stream.SanitizeLine(in.Detail)
	if in.Kind == tools.KindHosted && d == in.Name {
		return ""
	}
	return d
}

// kindLabel names a tool kind for the menu.
func kindLabel(k tools.Kind) string {
	if k == tools.KindServer {
		return "mcp server"
	}
	return k.String()
}

// Update handles keys.
func (m ToolsMenu) Update(msg tea.Msg) (ToolsMenu, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	if m.help {
		m.help = helpToggle(k, m.keys.Help)
		return m, nil
	}
	switch {
	case key.Matches(k, m.keys.Cancel):
		return m, msgCmd(DialogClosedMsg{})
	case key.Matches(k, m.keys.Apply):
		return m, msgCmd(ToolsChangedMsg{Enabled: m.Enabled()})
	case key.Matches(k, m.keys.Toggle):
		if len(m.items) > 0 {
			m.items = append([]toolItem(nil), m.items...) // earlier copies keep their toggles
			m.items[m.cur.Sel()].on = !m.items[m.cur.Sel()].on
		}
	case key.Matches(k, m.keys.Help):
		m.help = true
	default:
		m.keys.List.Move(k, &m.cur)
	}
	return m, nil
}

// Enabled is every name with its toggle as shown now.
func (m ToolsMenu) Enabled() map[string]bool {
	out := make(map[string]bool, len(m.items))
	for _, it := range m.items {
		out[it.name] = it.on
	}
	return out
}

// View draws the title, one row per visible tool ("› [x] name  kind  detail")
// and a key hint.
func (m ToolsMenu) View(width, height int) string {
	if m.help {
		return dialogHelpView(m.styles, "Tools", m.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(m.styles)
	if len(m.items) == 0 {
		lines := []string{d.Title.Render("Tools")}
		for _, l := range strings.Split(ansi.Wordwrap(toolsEmpty, max(width, 1), ""), "\n") {
			lines = append(lines, d.Empty.Render(l))
		}
		return fitLines(append(lines, dialogHint(d, width, "esc", "close")), width, height)
	}
	on := 0
	for _, it := range m.items {
		if it.on {
			on++
		}
	}
	lines := []string{d.Title.Render("Tools") + d.Meta.Render(" "+strconv.Itoa(on)+" of "+strconv.Itoa(len(m.items))+" on")}

	nameW, kindW := 0, 0
	for _, it := range m.items {
		nameW = max(nameW, min(ansi.StringWidth(it.label), toolsNameMax))
		kindW = max(kindW, ansi.StringWidth(it.kind))
	}
	rows := max(height-2, 1)
	first := m.cur.Window(rows)
	for i := first; i < min(first+rows, len(m.items)); i++ {
		it := m.items[i]
		base, mark := d.Item, "  "
		if i == m.cur.Sel() {
			base, mark = d.Selected, d.Marker.Render("› ")
		}
		box := "[ ] "
		if it.on {
			box = d.Check.Render("[x]") + " "
		}
		name := ansi.Truncate(it.label, nameW, "…")
		line := mark + box + base.Render(name) + strings.Repeat(" ", nameW-ansi.StringWidth(name)+2) +
			d.Meta.Render(it.kind+strings.Repeat(" ", kindW-ansi.StringWidth(it.kind)))
		if room := width - ansi.StringWidth(line) - 2; it.detail != "" && room >= 4 {
			line += "  " + d.Preview.Render(ansi.Truncate(it.detail, room, "…"))
		}
		lines = append(lines, line)
	}
	return fitFoot(lines, []string{dialogHint(d, width, "space", "toggle", "enter", "apply", "esc", "cancel", "↑/↓", "select", "?", "keys")}, width, height)
}
