package ui

// This file is /provider: a picker of the providers the config can use, and
// the switch to one mid-session. The new provider's key is resolved off the
// update loop (api_key_command may run); a provider that cannot be used
// (no key, no URL) gets one line and the chat stays where it was. After a
// switch the conversation goes on on the new server from local history: the
// next request carries the whole conversation instead of
// previous_response_id (session.Conversation.SwitchProvider), under a
// divider that names the switch. Later requests of this run send the
// history too; a run that continues the session (-c) chains on the new
// server from its last response.

import (
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/block"
)

// providerMsg is the answer of Connect.
type providerMsg struct {
	name string
	conn Connection
	err  error
}

// providerSwitchedMsg asks the root to move the chat to conn: its client,
// the conversation's settings, the status line; from is the provider left.
type providerSwitchedMsg struct {
	from string
	conn Connection
}

// providerCommand is /provider: alone it opens the picker, with a name it
// connects (off the update loop).
func (mt *metering) providerCommand(name string, f *frameState, env meterEnv) tea.Cmd {
	f.post(DialogClosedMsg{})
	p := env.providers
	current := env.providerName
	switch {
	case p == nil || p.Connect == nil:
		f.post(noticeMsg{block.Info, "no provider to switch to here (a replay, or a chat started without a config)"})
		return nil
	case name == "":
		f.post(dialogMsg{dlg[ProviderPicker]{NewProviderPicker(p.Choices, current, f.styles)}})
		return nil
	case name == current:
		f.post(noticeMsg{block.Info, "already on provider " + stream.SanitizeLine(name)})
		return nil
	}
	if env.busy != "" {
		f.post(noticeMsg{block.Info, env.busy})
		return nil
	}
	known := false
	var names []string
	for _, c := range p.Choices {
		known = known || c.Name == name
		names = append(names, c.Name)
	}
	if !known {
		f.post(noticeMsg{block.Error, "unknown provider " + strconv.Quote(stream.SanitizeLine(name)) + " — use one of " + strings.Join(names, ", ") + " (or add [providers.NAME] to the config)"})
		return nil
	}
	connect, ctx := p.Connect, env.ctx
	return func() tea.Msg {
		c, err := connect(ctx, name)
		return providerMsg{name: name, conn: c, err: err}
	}
}

// providerConnected switches to the provider Connect answered with, or says
// in one line why it cannot: the metering starts over on the new
// provider's models, and the root moves the rest of the chat
// (providerSwitchedMsg).
func (mt *metering) providerConnected(msg providerMsg, f *frameState, env meterEnv) {
	from := env.providerName
	if msg.err != nil {
		f.post(noticeMsg{block.Error, "cannot switch to provider " + strconv.Quote(stream.SanitizeLine(msg.name)) + ": " + stream.SanitizeLine(msg.err.Error()) + " — still on " + stream.SanitizeLine(from)})
		return
	}
	if env.busy != "" { // a turn started while the key was read
		f.post(noticeMsg{block.Info, env.busy})
		return
	}
	c := msg.conn
	mt.models = modelList{} // the new provider's list is asked for when /model needs it
	model := env.model
	if c.Model != "" {
		model = c.Model
		mt.meter.lastModel = c.Model
		mt.meter.lastInfo, mt.meter.lastKnown = env.prices.Lookup(c.Model)
		f.post(meterMsg{mt.meter.parts()})
	}
	f.post(argChoicesMsg{"model", mt.modelChoices(model)})
	f.post(providerSwitchedMsg{from: from, conn: c})
}

// keepProvider is a stored session shown in the chat: its conversation
// conv goes on on provider now, the one the chat talks to. One saved on
// another provider drops its chain (that server is not this one), so the
// next message sends the history, with the store and background the
// chat's settings o ask for; the returned line says so ("" when nothing
// changed).
func keepProvider(conv *session.Conversation, now string, o session.Settings) string {
	if now == "" {
		return "" // a chat with no named provider (a replay, tests)
	}
	s := &conv.Settings
	stored := s.Provider
	s.Provider = now
	if stored == "" || stored == now {
		return ""
	}
	conv.SwitchProvider()
	s.Store, s.Background = o.Store, o.Background
	if stored == "demo" || now == "demo" {
		s.Model = o.Model // the demo's model means nothing elsewhere, and a real one nothing to it
	}
	return "this session was on provider " + strconv.Quote(stream.SanitizeLine(stored)) + "; it goes on on " + strconv.Quote(stream.SanitizeLine(now)) + ", and your next message sends the conversation so far"
}

// ProviderPickerKeys are the /provider picker's keys.
type ProviderPickerKeys = FilterPickerKeys

// DefaultProviderPickerKeys returns the provider picker's bindings.
func DefaultProviderPickerKeys() ProviderPickerKeys {
	return filterPickerKeys("switch to this provider", "filter by name, URL or description")
}

// ProviderPicker is /provider without a name: every provider the config
// can use, filtered by what is typed, the current one marked.
//
// Invariants: all is as given, sanitized; shown indexes all, in order; cur
// is a listCursor over shown.
type ProviderPicker struct {
	styles  *theme.Styles
	all     []ProviderChoice
	current string
	shown   []int
	filterList
}

// NewProviderPicker lists choices with current selected.
func NewProviderPicker(choices []ProviderChoice, current string, st *theme.Styles) ProviderPicker {
	p := ProviderPicker{styles: st, current: current, filterList: filterList{keys: DefaultProviderPickerKeys(),
		filter: newDialogInput(st, "provider: ", "type to filter · ? keys")}}
	p.filter.CharLimit = modelFilterMax
	for _, c := range choices {
		p.all = append(p.all, ProviderChoice{Name: stream.SanitizeLine(c.Name), BaseURL: stream.SanitizeLine(c.BaseURL), About: stream.SanitizeLine(c.About)})
	}
	p.refilter()
	for i, j := range p.shown {
		if p.all[j].Name == current {
			p.cur.Move(i)
		}
	}
	return p
}

// refilter keeps the rows holding every word of the filter, ignoring case:
// first the names that are the filter, then those that start with it, then
// those that hold it, then the rows that hold it elsewhere (typing "openai"
// selects openai, not a provider whose description says OpenAI).
func (p *ProviderPicker) refilter() {
	text := strings.ToLower(strings.TrimSpace(stream.SanitizeLine(p.filter.Value())))
	words := strings.Fields(text)
	rank := func(name string) int {
		name = strings.ToLower(name)
		switch {
		case name == text:
			return 0
		case strings.HasPrefix(name, text):
			return 1
		case strings.Contains(name, text):
			return 2
		}
		return 3
	}
	p.shown = p.shown[:0]
	for i, c := range p.all {
		all := strings.ToLower(c.Name + " " + c.BaseURL + " " + c.About)
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(all, w)
		}
		if ok {
			p.shown = append(p.shown, i)
		}
	}
	if text != "" {
		slices.SortStableFunc(p.shown, func(a, b int) int { return rank(p.all[a].Name) - rank(p.all[b].Name) })
	}
	if p.cur.page == 0 {
		p.cur = newListCursor(len(p.shown))
	} else {
		p.cur.Reset(len(p.shown))
	}
}

// Selected is the provider enter would switch to, "" for none.
func (p ProviderPicker) Selected() string {
	if i := p.cur.Sel(); i < len(p.shown) {
		return p.all[p.shown[i]].Name
	}
	return ""
}

// Update handles keys and pastes. Enter sends /provider NAME, so a pick and
// a typed command take the same way.
func (p ProviderPicker) Update(msg tea.Msg) (ProviderPicker, tea.Cmd) {
	cmd := p.update(msg, func() tea.Msg {
		if name := p.Selected(); name != "" {
			return SlashMsg{Name: "provider", Args: name}
		}
		return nil
	}, p.refilter) // before p is read for the return
	return p, cmd
}

// View draws the title, the filter, one row per visible provider (name,
// base URL, what it is) and a key hint.
func (p ProviderPicker) View(width, height int) string {
	if p.help {
		return dialogHelpView(p.styles, "Providers", p.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(p.styles)
	lines := []string{d.Title.Render("Providers") + d.Meta.Render(" "+strconv.Itoa(len(p.shown))+" of "+strconv.Itoa(len(p.all)))}
	f := p.filter
	f.SetWidth(max(width-ansi.StringWidth(f.Prompt)-1, 1))
	lines = append(lines, f.View())
	foot := []string{dialogHint(d, width, "↑/↓", "select", "enter", "switch", "esc", "close", "?", "keys")}
	if len(p.shown) == 0 {
		lines = append(lines, d.Empty.Render("no provider matches — add [providers.NAME] to the config for another"))
		return fitFoot(lines, foot, width, height)
	}
	nameW, urlW := 0, 0
	for _, j := range p.shown {
		nameW = max(nameW, ansi.StringWidth(p.all[j].Name))
		urlW = max(urlW, ansi.StringWidth(p.all[j].BaseURL))
	}
	rows := max(height-len(lines)-1, 1)
	first := p.cur.Window(rows)
	for i := first; i < min(first+rows, len(p.shown)); i++ {
		c := p.all[p.shown[i]]
		base, mark := d.Item, "  "
		if i == p.cur.Sel() {
			base, mark = d.Selected, d.Marker.Render("› ")
		}
		meta := "  " + c.BaseURL + strings.Repeat(" ", urlW-ansi.StringWidth(c.BaseURL))
		if c.Name == p.current {
			meta += "  (current)"
		} else if c.About != "" {
			meta += "  · " + c.About
		}
		name := c.Name + strings.Repeat(" ", nameW-ansi.StringWidth(c.Name))
		line := mark + base.Render(name) + d.Meta.Render(meta)
		lines = append(lines, ansi.Truncate(line, max(width, 1), "…"))
	}
	return fitFoot(lines, foot, width, height)
}
