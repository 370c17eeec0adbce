package ui

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/store"
	"runnel/stream"
	"runnel/theme"
)

// Dialogs (Picker, SearchResults, ToolsMenu, PanelList, Approval) are value
// types with the same shape: Update(tea.Msg) returns the new value and a Cmd,
// and View(width, height) draws at most height lines of at most width cells.
// Each reports its outcome as exactly one message — a result (OpenSessionMsg,
// ToolsChangedMsg, TogglePanelMsg, ApprovalDecisionMsg) or DialogClosedMsg —
// and the root closes the dialog when it gets one. DeleteSessionMsg is the
// exception: the picker stays open after it. Their lists move a listCursor;
// their keys are key.Matches bindings (dialogkeys.go) that "?" lists.

// DialogClosedMsg says the user closed a dialog (esc) without a result.
type DialogClosedMsg struct{}

// OpenSessionMsg asks the root to open a stored session.
type OpenSessionMsg struct {
	ID   store.SessionID
	Turn int // the turn (its Seq) to scroll to; 0 = none in particular
}

// DeleteSessionMsg asks the root to delete a stored session; the picker has
// already dropped its row.
type DeleteSessionMsg struct{ ID store.SessionID }

// Picker is the session list opened by ctrl+s or /sessions: typing filters
// it at once, up/down select, enter opens, delete (or ctrl+d) asks whether
// to delete, esc closes.
//
// Plain "d" is text for the filter, not a delete key: a filter must be able
// to hold any letter.
//
// Invariants:
//   - all holds every session not deleted, in the order given (newest
//     first, as store.List returns them); its text fields are sanitized.
//   - shown holds the indices into all whose rows match the filter, in
//     order; cur is a listCursor over shown (cur.Len() == len(shown)).
//   - confirm is true only while shown is non-empty: it asks about
//     shown[cur.Sel()], and every key but y, n and esc is ignored meanwhile.
type Picker struct {
	styles  *theme.Styles
	now     time.Time // ages are measured from it
	all     []pickerRow
	shown   []int
	cur     listCursor
	filter  textinput.Model
	confirm bool
	keys    PickerKeys
	help    bool // "?" (with an empty filter) shows the keys
}

// pickerRow is a session with its text made safe to show, once.
type pickerRow struct {
	id                    store.SessionID
	title, model, preview string
	turns                 int
	updated               time.Time
}

// Picker limits.
const (
	pickerFilterMax = 200 // runes in the filter
	pickerMinTitle  = 12  // cells kept for a title before its metadata shrinks
)

// NewPicker lists sessions (as store.List returns them) with ages measured
// from now.
func NewPicker(sessions []store.SessionInfo, now time.Time, st *theme.Styles) Picker {
	p := Picker{styles: st, now: now, filter: newDialogInput(st, "filter: ", "type to filter · ? keys"), keys: DefaultPickerKeys(), cur: newListCursor(0)}
	p.filter.CharLimit = pickerFilterMax
	for _, s := range sessions {
		r := pickerRow{
			id:      s.ID,
			title:   stream.SanitizeLine(s.Title),
			model:   stream.SanitizeLine(s.Model),
			preview: stream.SanitizeLine(s.Preview),
			turns:   s.Turns,
			updated: s.Updated,
		}
		if r.title == "" {
			r.title = "untitled"
		}
		if r.updated.IsZero() {
			r.updated = s.Created
		}
		p.all = append(p.all, r)
	}
	p.refilter()
	return p
}

// Update handles keys and pastes.
func (p Picker) Update(msg tea.Msg) (Picker, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if p.help {
			p.help = helpToggle(msg, p.keys.Help)
			return p, nil
		}
		if p.confirm {
			return p.confirmKey(msg)
		}
		return p.key(msg)
	case tea.PasteMsg:
		if p.confirm || p.help {
			return p, nil
		}
		return p.edit(cleanPaste(msg))
	}
	return p, nil
}

// key handles the picker's own keys and gives the rest to the filter.
func (p Picker) key(k tea.KeyPressMsg) (Picker, tea.Cmd) {
	switch {
	case key.Matches(k, p.keys.Close):
		return p, msgCmd(DialogClosedMsg{})
	case key.Matches(k, p.keys.Open):
		if len(p.shown) == 0 {
			return p, nil
		}
		return p, msgCmd(OpenSessionMsg{ID: p.all[p.shown[p.cur.Sel()]].id})
	case key.Matches(k, p.keys.Delete):
		p.confirm = len(p.shown) > 0
	case key.Matches(k, p.keys.Help) && (p.filter.Value() == "" || k.String() == "f1"):
		p.help = true
	case p.keys.List.Move(k, &p.cur):
	default:
		return p.edit(k)
	}
	return p, nil
}

// edit gives a key or a paste to the filter and refilters if it changed.
func (p Picker) edit(msg tea.Msg) (Picker, tea.Cmd) {
	cmd := editFilter(&p.filter, msg, p.refilter) // before p is read for the return
	return p, cmd
}

// confirmKey answers "delete …? y/n".
func (p Picker) confirmKey(k tea.KeyPressMsg) (Picker, tea.Cmd) {
	switch {
	case key.Matches(k, p.keys.Yes):
		p.confirm = false
		i := p.shown[p.cur.Sel()]
		id := p.all[i].id
		p.all = append(p.all[:i:i], p.all[i+1:]...)
		cur := p.cur
		p.refilter()
		cur.SetLen(len(p.shown)) // the next row takes the deleted one's place
		p.cur = cur
		return p, msgCmd(DeleteSessionMsg{ID: id})
	case key.Matches(k, p.keys.No):
		p.confirm = false
	}
	return p, nil
}

// refilter recomputes shown from the filter: a row matches when every word
// of the filter occurs, ignoring case, in its title, model or preview.
func (p *Picker) refilter() {
	words := strings.Fields(stream.SanitizeLine(p.filter.Value()))
	p.shown = nil // a fresh slice: earlier copies of the picker keep theirs
	for i, r := range p.all {
		if matchesAll(words, r.title, r.model, r.preview) {
			p.shown = append(p.shown, i)
		}
	}
	p.cur.Reset(len(p.shown))
}

// View draws the title, the filter, two lines per visible session (the
// selected one kept in view) and a key hint, or the delete question.
func (p Picker) View(width, height int) string {
	if p.help {
		return dialogHelpView(p.styles, "Sessions", p.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(p.styles)
	lines := []string{d.Title.Render("Sessions") + d.Meta.Render(" "+strconv.Itoa(len(p.shown))+" of "+strconv.Itoa(len(p.all)))}
	if len(p.all) == 0 {
		lines = append(lines, d.Empty.Render("no saved sessions yet"), dialogHint(d, width, "esc", "close"))
		return fitLines(lines, width, height)
	}
	f := p.filter
	f.SetWidth(max(width-ansi.StringWidth(f.Prompt)-1, 1))
	lines = append(lines, f.View())

	var foot string
	if p.confirm {
		q := "delete “”? y/n" // the title is cut so that the question stays whole
		title := ansi.Truncate(p.all[p.shown[p.cur.Sel()]].title, max(width-ansi.StringWidth(q), 1), "…")
		foot = d.Confirm.Render("delete “" + title + "”? y/n")
	} else {
		foot = dialogHint(d, width, "↑/↓", "select", "enter", "open", "del", "delete", "esc", "close", "?", "keys")
	}
	if len(p.shown) == 0 {
		lines = append(lines, d.Empty.Render("no sessions match “"+stream.SanitizeLine(p.filter.Value())+"”"))
		return fitFoot(lines, []string{foot}, width, height)
	}
	rows := max((height-len(lines)-1)/2, 1)
	first := p.cur.Window(rows)
	words := strings.Fields(stream.SanitizeLine(p.filter.Value()))
	for i := first; i < min(first+rows, len(p.shown)); i++ {
		lines = append(lines, p.row(d, p.all[p.shown[i]], i == p.cur.Sel(), words, width)...)
	}
	return fitFoot(lines, []string{foot}, width, height)
}

// row draws one session: "› title   3m · 4 turns · model" and the preview
// below, dimmed. Metadata gives up the model, then the turns, before the
// title goes below pickerMinTitle cells.
func (p Picker) row(d theme.Dialog, r pickerRow, selected bool, words []string, width int) []string {
	metas := []string{sessionAge(p.now, r.updated), countNoun(r.turns, "turn", "turns")}
	if r.model != "" {
		metas = append(metas, r.model)
	}
	meta := strings.Join(metas, " · ")
	for len(metas) > 1 && width-4-ansi.StringWidth(meta) < pickerMinTitle {
		metas = metas[:len(metas)-1]
		meta = strings.Join(metas, " · ")
	}
	room := max(width-4-ansi.StringWidth(meta), 1)
	base, mark := d.Item, "  "
	if selected {
		base, mark = d.Selected, d.Marker.Render("› ")
	}
	title := ansi.Truncate(renderPieces(markedPieces(r.title, foldSpans(r.title, words)), base, d.Match), room, "…")
	pad := max(width-2-ansi.StringWidth(title)-ansi.StringWidth(meta), 2)
	lines := []string{mark + title + strings.Repeat(" ", pad) + d.Meta.Render(meta)}
	preview := r.preview
	if preview == "" {
		preview = "(no answer yet)"
	}
	return append(lines, "    "+d.Preview.Render(ansi.Truncate(preview, max(width-4, 1), "…")))
}

// sessionAge is how long ago t was, in one unit: "now", "3m", "2h", "5d", "2y";
// "?" for an unknown time.
func sessionAge(now, t time.Time) string {
	if t.IsZero() {
		return "?"
	}
	d := max(now.Sub(t), 0)
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	case d < 365*24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
	return strconv.Itoa(int(d/(365*24*time.Hour))) + "y"
}

// countNoun is "1 turn", "4 turns".
func countNoun(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// matchesAll reports whether every word occurs, ignoring case, in one of
// fields.
func matchesAll(words []string, fields ...string) bool {
	for _, w := range words {
		found := false
		for _, f := range fields {
			if s, _ := findFold(f, w, 0); s >= 0 {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// foldSpans is where the words occur in s, ignoring case, as byte spans:
// every occurrence, for highlighting.
func foldSpans(s string, words []string) []store.Span {
	var out []store.Span
	for _, w := range words {
		for from := 0; from < len(s); {
			start, end := findFold(s, w, from)
			if start < 0 {
				break
			}
			out = append(out, store.Span{Start: start, End: end})
			from = end
		}
	}
	return out
}

// findFold finds sub in s at or after byte from, comparing runes under
// Unicode simple case folding, and returns its byte range in s, or -1, -1.
// Unlike searching strings.ToLower(s), the range is always in s's bytes.
func findFold(s, sub string, from int) (start, end int) {
	if sub == "" {
		return -1, -1
	}
	for i := from; i < len(s); {
		j, k := i, 0
		for k < len(sub) && j < len(s) {
			a, na := utf8.DecodeRuneInString(s[j:])
			b, nb := utf8.DecodeRuneInString(sub[k:])
			if !equalFold(a, b) {
				break
			}
			j, k = j+na, k+nb
		}
		if k == len(sub) {
			return i, j
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	return -1, -1
}

// equalFold reports whether a and b are the same rune under simple folding.
func equalFold(a, b rune) bool {
	if a == b {
		return true
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

// Dialog plumbing shared by the four dialogs.

// msgCmd is a Cmd that delivers msg.
func msgCmd(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// cleanPaste removes escape sequences from pasted text whole; the text
// input alone would keep their printable tails ("[31m").
func cleanPaste(p tea.PasteMsg) tea.PasteMsg {
	p.Content = stream.Sanitize(p.Content)
	return p
}

// newDialogInput is a focused one-line text input in the dialog style, with
// a steady cursor (a blinking one would need a timer the root does not run).
func newDialogInput(st *theme.Styles, prompt, placeholder string) textinput.Model {
	d := theme.DialogOf(st)
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	s := textinput.Styles{Cursor: textinput.CursorStyle{Color: d.Cursor.GetForeground(), Shape: tea.CursorBlock}}
	s.Focused.Prompt, s.Focused.Text, s.Focused.Placeholder = d.Prompt, d.Item, d.Meta
	s.Blurred = s.Focused
	in.SetStyles(s)
	in.Focus()
	return in
}

// editFilter gives a key or a paste to a dialog's filter line and calls
// refilter if its text changed.
func editFilter(f *textinput.Model, msg tea.Msg, refilter func()) tea.Cmd {
	before := f.Value()
	var cmd tea.Cmd
	*f, cmd = f.Update(msg)
	if f.Value() != before {
		refilter()
	}
	return cmd
}

// dialogHint draws key/description pairs as "key desc · key desc", leaving
// out the pairs that do not fit in width.
func dialogHint(d theme.Dialog, width int, pairs ...string) string {
	var b strings.Builder
	used := 0
	for i := 0; i+1 < len(pairs); i += 2 {
		w := ansi.StringWidth(pairs[i]) + 1 + ansi.StringWidth(pairs[i+1])
		if i > 0 {
			w += 3
		}
		if used+w > width {
			break
		}
		if i > 0 {
			b.WriteString(d.Sep.Render(" · "))
		}
		b.WriteString(d.Key.Render(pairs[i]) + " " + d.Desc.Render(pairs[i+1]))
		used += w
	}
	return b.String()
}

// fitFoot is fitLines that always keeps foot (a hint or a question) at the
// bottom, cutting lines instead.
func fitFoot(lines, foot []string, width, height int) string {
	lines = lines[:min(len(lines), max(height-len(foot), 0))]
	return fitLines(append(lines, foot...), width, height)
}

// fitLines joins at most height lines, each cut to width cells.
func fitLines(lines []string, width, height int) string {
	if height < 1 || width < 1 {
		return ""
	}
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "…")
		}
	}
	return strings.Join(lines, "\n")
}
