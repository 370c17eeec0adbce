package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/theme"
)

// ModelPickedMsg is the model chosen in the /model picker.
type ModelPickedMsg struct{ Name string }

// ModelPickerKeys are the /model picker's keys.
type ModelPickerKeys = FilterPickerKeys

// DefaultModelPickerKeys returns the model picker's bindings.
func DefaultModelPickerKeys() ModelPickerKeys {
	return filterPickerKeys("use this model (or the name typed)", "filter, or a name the list lacks")
}

// ModelPicker is /model without a name: the provider's models, filtered by
// what is typed, the current one marked. A typed name that is in no row is
// offered as a last row ("use “name”"): free text always works. With no
// list it shows why, in one line, and offers the configured model.
//
// Invariants:
//   - all is sorted as given and sanitized; shown indexes all, in order.
//   - rows = shown, plus one free-text row when the filter is a name
//     (no spaces) that no row equals; cur is a listCursor over rows.
type ModelPicker struct {
	styles  *theme.Styles
	all     []string
	current string
	why     string
	shown   []int
	free    string // the free-text row's name; "" for none
	filterList
}

const modelFilterMax = 200

// NewModelPicker lists ids with current selected; why, when not "", is the
// one line saying why the list is missing.
func NewModelPicker(ids []string, current, why string, st *theme.Styles) ModelPicker {
	p := ModelPicker{styles: st, current: current, why: stream.SanitizeLine(why), filterList: filterList{keys: DefaultModelPickerKeys(),
		filter: newDialogInput(st, "model: ", "type to filter, or a model name · ? keys")}}
	p.filter.CharLimit = modelFilterMax
	for _, id := range ids {
		p.all = append(p.all, stream.SanitizeLine(id))
	}
	p.refilter()
	for i, j := range p.shown {
		if p.all[j] == current {
			p.cur.Move(i)
		}
	}
	return p
}

// refilter keeps the rows holding every word of the filter, ignoring case.
func (p *ModelPicker) refilter() {
	text := strings.TrimSpace(stream.SanitizeLine(p.filter.Value()))
	words := strings.Fields(strings.ToLower(text))
	p.shown, p.free = p.shown[:0], ""
	exact := false
	for i, id := range p.all {
		low := strings.ToLower(id)
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(low, w)
		}
		if ok {
			p.shown = append(p.shown, i)
		}
		exact = exact || id == text
	}
	if text != "" && !exact && !strings.ContainsAny(text, " \t") {
		p.free = text
	}
	n := len(p.shown)
	if p.free != "" {
		n++
	}
	if p.cur.page == 0 {
		p.cur = newListCursor(n)
	} else {
		p.cur.Reset(n)
	}
}

// Selected is the name enter would use, "" for none.
func (p ModelPicker) Selected() string {
	i := p.cur.Sel()
	switch {
	case i < len(p.shown):
		return p.all[p.shown[i]]
	case p.free != "":
		return p.free
	}
	return ""
}

// Update handles keys and pastes.
func (p ModelPicker) Update(msg tea.Msg) (ModelPicker, tea.Cmd) {
	cmd := p.update(msg, func() tea.Msg {
		if name := p.Selected(); name != "" {
			return ModelPickedMsg{Name: name}
		}
		return nil
	}, p.refilter) // before p is read for the return
	return p, cmd
}

// View draws the title, the reason there is no list (if so), the filter,
// one row per visible model and a key hint.
func (p ModelPicker) View(width, height int) string {
	if p.help {
		return dialogHelpView(p.styles, "Models", p.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(p.styles)
	lines := []string{d.Title.Render("Models") + d.Meta.Render(" "+strconv.Itoa(len(p.shown))+" of "+strconv.Itoa(len(p.all)))}
	if p.why != "" {
		lines = append(lines, d.Empty.Render(ansi.Truncate(p.why, max(width, 1), "…")))
	}
	f := p.filter
	f.SetWidth(max(width-ansi.StringWidth(f.Prompt)-1, 1))
	lines = append(lines, f.View())
	foot := []string{dialogHint(d, width, "↑/↓", "select", "enter", "use", "esc", "close", "?", "keys")}
	n := len(p.shown)
	if p.free != "" {
		n++
	}
	if n == 0 {
		lines = append(lines, d.Empty.Render("no model matches — type a full name to use it"))
		return fitFoot(lines, foot, width, height)
	}
	rows := max(height-len(lines)-1, 1)
	first := p.cur.Window(rows)
	for i := first; i < min(first+rows, n); i++ {
		base, mark := d.Item, "  "
		if i == p.cur.Sel() {
			base, mark = d.Selected, d.Marker.Render("› ")
		}
		var line string
		if i < len(p.shown) {
			id := p.all[p.shown[i]]
			line = mark + base.Render(ansi.Truncate(id, max(width-14, 4), "…"))
			if id == p.current {
				line += d.Meta.Render("  (current)")
			}
		} else {
			line = mark + base.Render("use “"+ansi.Truncate(p.free, max(width-10, 4), "…")+"”")
		}
		lines = append(lines, line)
	}
	return fitFoot(lines, foot, width, height)
}
