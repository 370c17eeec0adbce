package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/models"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/modellist"
)

// ModelPickedMsg is the model chosen in the /model picker.
type ModelPickedMsg struct{ Name string }

// ModelPickerKeys are the /model picker's keys.
type ModelPickerKeys = FilterPickerKeys

// DefaultModelPickerKeys returns the model picker's bindings.
func DefaultModelPickerKeys() ModelPickerKeys {
	return filterPickerKeys("use this model (or the name typed)", "filter, or a name the list lacks")
}

// ModelChoices is what the /model picker lists.
type ModelChoices struct {
	IDs     []string     // the chat models as listed (models.SplitChat), or the configured one alone
	Hidden  int          // how many listed models were left out as not for chat
	Current string       // the model in use
	Why     string       // the one line saying why there is no list; "" when there is one
	Prices  models.Table // the context windows and prices the rows show
	Demo    bool         // the demo answers whatever is picked: no window or price applies, none shows
}

// ModelPicker is /model without a name: the provider's chat models,
// filtered by what is typed, the current one marked, each with its context
// window and prices as `runnel models` prints them (ui/modellist's columns)
// when the table knows any. A typed name that is in no row is offered as a
// last row ("use “name”"): free text always works. With no list it shows
// why, in one line, and offers the configured model.
//
// Invariants:
//   - all is sorted as given and sanitized; figs[i] are all[i]'s figures
//     cells, aligned over all; known says whether any cell has a figure.
//   - shown indexes all, in order.
//   - rows = shown, plus one free-text row when the filter is a name
//     (no spaces) that no row equals; cur is a listCursor over rows.
type ModelPicker struct {
	styles  *theme.Styles
	all     []string
	figs    [][]string
	known   bool
	hidden  int
	current string
	why     string
	shown   []int
	free    string // the free-text row's name; "" for none
	filterList
}

const modelFilterMax = 200

// NewModelPicker lists c.IDs with c.Current selected.
func NewModelPicker(c ModelChoices, st *theme.Styles) ModelPicker {
	p := ModelPicker{styles: st, current: c.Current, hidden: c.Hidden, why: stream.SanitizeLine(c.Why), filterList: filterList{keys: DefaultModelPickerKeys(),
		filter: newDialogInput(st, "model: ", "type to filter, or a model name · ? keys")}}
	p.filter.CharLimit = modelFilterMax
	for _, id := range c.IDs {
		p.all = append(p.all, stream.SanitizeLine(id))
	}
	p.figs = modellist.Columns(c.Prices, p.all)
	p.known = modellist.Known(p.figs) && !c.Demo
	p.refilter()
	for i, j := range p.shown {
		if p.all[j] == c.Current {
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

// currentMark follows the current model's name in its row.
const currentMark = "  (current)"

// View draws the title, the reason there is no list (if so), the filter,
// the figures' heading, one row per visible model and a key hint.
func (p ModelPicker) View(width, height int) string {
	if p.help {
		return dialogHelpView(p.styles, "Models", p.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(p.styles)
	title := d.Title.Render("Models") + d.Meta.Render(" "+strconv.Itoa(len(p.shown))+" of "+strconv.Itoa(len(p.all)))
	if p.hidden > 0 {
		title += d.Meta.Render(" · " + strconv.Itoa(p.hidden) + " not for chat left out")
	}
	lines := []string{title}
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
	idW, skip, figs := p.layout(width)
	if figs {
		lines = append(lines, d.Meta.Render("  "+ansi.Truncate(padRight("MODEL", idW), idW, "")+"  "+modellist.Join(modellist.HeadCells(p.figs), skip...)))
	}
	rows := max(height-len(lines)-1, 1)
	first := p.cur.Window(rows)
	for i := first; i < min(first+rows, n); i++ {
		base, mark, meta := d.Item, "  ", d.Meta
		if i == p.cur.Sel() {
			base, mark = d.Selected, d.Marker.Render("› ")
		}
		if i >= len(p.shown) {
			lines = append(lines, mark+base.Render("use “"+ansi.Truncate(p.free, max(width-10, 4), "…")+"”"))
			continue
		}
		j := p.shown[i]
		id, cur := p.all[j], ""
		if id == p.current {
			cur = currentMark
		}
		room := max(idW-ansi.StringWidth(cur), 4)
		id = ansi.Truncate(id, room, "…")
		line := mark + base.Render(id) + meta.Render(cur)
		if figs {
			line += strings.Repeat(" ", max(idW-ansi.StringWidth(id+cur), 0)+2) + meta.Render(modellist.Join(p.figs[j], skip...))
		}
		lines = append(lines, line)
	}
	return fitFoot(lines, foot, width, height)
}

// layout chooses the rows' shape for width: the id column's width, the
// figures columns left out (the cached price first) and whether figures
// show at all. Figures show when the table knows any and the ids keep at
// least 16 cells (or their widest name) beside them.
func (p ModelPicker) layout(width int) (idW int, skip []int, figs bool) {
	want := ansi.StringWidth("MODEL")
	for _, id := range p.all {
		w := ansi.StringWidth(id)
		if id == p.current {
			w += ansi.StringWidth(currentMark)
		}
		want = max(want, w)
	}
	if p.known {
		for _, skip := range [][]int{nil, {modellist.CachedColumn}} {
			room := width - 2 - 2 - ansi.StringWidth(modellist.Join(modellist.HeadCells(p.figs), skip...))
			if room >= min(want, 16) {
				return min(want, room), skip, true
			}
		}
	}
	return max(width-2, 1), nil, false
}

// padRight pads s with spaces to w cells.
func padRight(s string, w int) string {
	return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0))
}
