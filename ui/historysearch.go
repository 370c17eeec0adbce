package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/theme"
)

// HistoryPickMsg is a prompt chosen in the history search: it goes into the
// composer for editing, not straight to the model.
type HistoryPickMsg struct{ Text string }

// HistorySearch is the prompt history search (ctrl+g): a filter line over
// the prompts of this process, the resumed session and earlier sessions,
// newest first. Typing filters (every word must appear, in any case),
// up/down select, enter puts the prompt in the composer, esc closes.
//
// Invariants:
//   - all holds every prompt, newest first, with its one-line label made
//     safe to print when the dialog is built; shown indexes all, in order.
//   - cur is a listCursor over shown (cur.Len() == len(shown)).
type HistorySearch struct {
	styles *theme.Styles
	keys   HistoryKeys
	filter textinput.Model
	all    []historyRow
	shown  []int
	cur    listCursor
	help   bool // showing the keys ("?" on an empty filter, or f1)
}

// HistoryKeys are the prompt history search's keys. Plain letters are
// filter text; "?" shows the keys while the filter is empty.
type HistoryKeys struct {
	List  ListKeys
	Pick  key.Binding // enter
	Close key.Binding // esc, ctrl+g
	Help  key.Binding // ?, f1
}

// DefaultHistoryKeys returns the history search's bindings.
func DefaultHistoryKeys() HistoryKeys {
	return HistoryKeys{
		List:  defaultListKeys(false),
		Pick:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "edit it in the composer")),
		Close: key.NewBinding(key.WithKeys("esc", "ctrl+g"), key.WithHelp("esc", "close")),
		Help:  key.NewBinding(key.WithKeys("?", "f1"), key.WithHelp("?", "these keys (empty filter)")),
	}
}

// FullHelp is the history search's keys for its "?" view.
func (k HistoryKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.List.Bindings(), {k.Pick, k.Close, k.Help,
		key.NewBinding(key.WithKeys("a"), key.WithHelp("letters", "filter"))}}
}

type historyRow struct {
	text  string // the prompt as sent
	label string // one line, sanitized, for the list
	lower string // label in lower case, for the filter
}

// NewHistorySearch lists prompts (newest first).
func NewHistorySearch(prompts []string, st *theme.Styles) HistorySearch {
	h := HistorySearch{styles: st, keys: DefaultHistoryKeys(), filter: newDialogInput(st, "filter: ", "type to filter"), cur: newListCursor(0)}
	for _, p := range prompts {
		label := stream.SanitizeLine(strings.Join(strings.Fields(p), " "))
		h.all = append(h.all, historyRow{text: p, label: label, lower: strings.ToLower(label)})
	}
	h.refilter()
	return h
}

// refilter recomputes the shown rows from the filter and keeps the
// selection in range.
func (h *HistorySearch) refilter() {
	words := strings.Fields(strings.ToLower(h.filter.Value()))
	h.shown = h.shown[:0:0]
	for i, r := range h.all {
		ok := true
		for _, w := range words {
			if !strings.Contains(r.lower, w) {
				ok = false
				break
			}
		}
		if ok {
			h.shown = append(h.shown, i)
		}
	}
	h.cur.SetLen(len(h.shown))
}

// Update handles keys and pastes into the filter.
func (h HistorySearch) Update(msg tea.Msg) (HistorySearch, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case h.help:
			h.help = helpToggle(msg, h.keys.Help)
			return h, nil
		case key.Matches(msg, h.keys.Close), msg.String() == "ctrl+c":
			return h, msgCmd(DialogClosedMsg{})
		case key.Matches(msg, h.keys.Pick):
			if len(h.shown) == 0 {
				return h, nil
			}
			return h, msgCmd(HistoryPickMsg{Text: h.Selected()})
		case key.Matches(msg, h.keys.Help) && (h.filter.Value() == "" || msg.String() == "f1"):
			h.help = true
			return h, nil
		case h.keys.List.Move(msg, &h.cur):
			return h, nil
		}
	case tea.PasteMsg:
		msg.Content = strings.Join(strings.Fields(stream.Sanitize(msg.Content)), " ")
		cmd := editFilter(&h.filter, msg, h.refilter) // before h is read for the return
		return h, cmd
	default:
		return h, nil
	}
	cmd := editFilter(&h.filter, msg, h.refilter)
	return h, cmd
}

// Selected is the prompt selected, "" when none is shown.
func (h HistorySearch) Selected() string {
	if len(h.shown) == 0 {
		return ""
	}
	return h.all[h.shown[h.cur.Sel()]].text
}

// View draws the title, the filter, one line per visible prompt (the
// selected one kept in view) and a key hint.
func (h HistorySearch) View(width, height int) string {
	if h.help {
		return dialogHelpView(h.styles, "Prompt history", h.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(h.styles)
	title := d.Title.Render("Prompt history") + d.Meta.Render(" · "+strconv.Itoa(len(h.shown))+" of "+countNoun(len(h.all), "prompt", "prompts"))
	f := h.filter // a copy: View stays pure
	f.SetWidth(max(width-ansi.StringWidth(f.Prompt)-1, 1))
	lines := []string{title, f.View()}
	switch {
	case len(h.all) == 0:
		lines = append(lines, d.Empty.Render("no prompts yet"))
	case len(h.shown) == 0:
		lines = append(lines, d.Empty.Render("no prompt matches"))
	}
	rows := max(height-3, 1)
	first := h.cur.Window(rows)
	for i := first; i < min(first+rows, len(h.shown)); i++ {
		base, mark := d.Item, "  "
		if i == h.cur.Sel() {
			base, mark = d.Selected, d.Marker.Render("› ")
		}
		lines = append(lines, mark+base.Render(ansi.Truncate(h.all[h.shown[i]].label, max(width-2, 1), "…")))
	}
	foot := dialogHint(d, width, "type", "filter", "↑/↓", "select", "enter", "edit it", "esc", "close", "?", "keys")
	return fitFoot(lines, []string{foot}, width, height)
}
