package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/block"
)

// Model is the root of the chat: it routes messages to its children and owns
// the turn in flight.
//
// Invariants:
//   - cur is nil when no stream is being read; at most one turn streams.
//   - entries maps every item shown to its transcript entry; an item gets
//     exactly one entry, created the first time an event names it.
//   - View never renders markdown for a settled entry: entries re-render only
//     after Invalidate, which happens on frame ticks.
type Model struct {
	ctx  context.Context
	opts Options

	width, height int
	sized         bool
	resizeSeq     int // debounces transcript reflow
	noColor       bool
	dark          bool
	frame         *frameState // shared with entries: styles and the frame clock

	keys       KeyMap
	transcript Transcript
	composer   Composer
	status     Status
	showHelp   bool

	conv *session.Conversation
	gen  int
	cur  *turn
	live bool // a frame tick is scheduled

	entries   map[*stream.Item]*itemEntry
	reasoning []*itemEntry // in transcript order, for ctrl+r
	panels    []*itemEntry // expandable tool panels, for ctrl+o
	pending   []*itemEntry // approval requests awaiting y/n
	answers   []string     // markdown sources of finished answers, for ctrl+y and /copy

	quitArmed time.Time             // ctrl+c pressed once while idle
	escArmed  time.Time             // esc pressed once with an empty, idle composer
	usage     Usage                 // the session's usage
	dirty     map[*stream.Item]bool // items changed outside a turn (tool output), for the next frame

	journal     *session.Journal // the history; nil without one
	lastSaveErr string           // the last history failure shown
	turnEntry   []int            // transcript index of each turn's first entry
	dialog      dialog           // the open dialog, nil for none
	tools       *toolKit
	hintFor     hintKey           // the hint line below was made for this
	hostedAsk   *itemEntry        // the hosted MCP approval request shown in the dialog
	mcpAllowed  map[string]bool   // server.tool approved for the rest of the session
	mcpAnswers  []json.RawMessage // approval responses decided so far, sent together
	hintLine    string
}

// dialog is an open dialog: it takes the keys until it closes.
type dialog interface {
	update(tea.Msg) (dialog, tea.Cmd)
	view(width, height int) string
}

// dlg adapts a dialog sub-model to the dialog interface.
type dlg[T interface {
	Update(tea.Msg) (T, tea.Cmd)
	View(width, height int) string
}] struct{ v T }

func (d dlg[T]) update(msg tea.Msg) (dialog, tea.Cmd) {
	v, cmd := d.v.Update(msg)
	return dlg[T]{v}, cmd
}

func (d dlg[T]) view(w, h int) string { return d.v.View(w, h) }

// frameState is what every entry reads when it renders.
type frameState struct {
	styles *theme.Styles
	now    time.Time
}

// New builds the root model.
func New(ctx context.Context, o Options) *Model {
	fs := &frameState{now: time.Now()}
	m := &Model{
		ctx:     ctx,
		opts:    o,
		dark:    true,
		noColor: o.NoColor,
		frame:   fs,
		keys:    DefaultKeyMap(),
		conv:    &session.Conversation{Settings: o.Settings},
		entries: map[*stream.Item]*itemEntry{},
		dirty:   map[*stream.Item]bool{},
		tools:   newToolKit(o.Tools),
	}
	if o.Resume != nil && o.Resume.Settings != nil {
		m.conv.Settings = session.SettingsFromJSON(o.Resume.Settings)
		if on := m.conv.Settings.EnabledTools; on != nil {
			for n := range m.tools.enabled { // the session remembers its tool set
				m.tools.enabled[n] = slices.Contains(on, n)
			}
		}
	}
	if _, redacted, err := m.tools.requestTools(); err == nil {
		m.conv.Settings.Tools = redacted
	}
	m.conv.Settings.EnabledTools = m.tools.on()
	m.applyTheme()
	w := o.WindowWidth
	if w == 0 {
		w = 100
	}
	m.width, m.height = w, 30
	m.transcript = NewTranscript(w, 20)
	m.transcript.SetStyles(m.frame.styles)
	m.composer = NewComposer(m.frame.styles)
	m.status = Status{Model: m.conv.Settings.Model, Provider: o.Provider, State: Idle}
	return m
}

// showMCPServers puts the local MCP servers' tool lists in the transcript
// and their summary in the status line.
func (m *Model) showMCPServers(mgr *tools.Manager) {
	m.status.MCP = mgr.Summary()
	now := time.Now()
	for _, raw := range mgr.ListItems() {
		it, err := stream.ItemFromJSON(raw)
		if err != nil {
			continue
		}
		it.Status = "completed"
		e := m.addItem(it, now)
		if ib, ok := e.b.(block.ItemBlock); ok {
			ib.End(now)
		}
	}
}

// shutdown ends what the chat started: running tools, the history writer.
func (m *Model) shutdown() {
	if m.tools.cancel != nil {
		m.tools.cancel()
	}
	if m.journal != nil {
		m.journal.Close()
	}
}

func (m *Model) applyTheme() {
	p := theme.Pick(m.dark, m.noColor, m.opts.Theme)
	st := theme.New(p)
	m.frame.styles = &st
}

// Init asks the terminal for its background colour and starts a replay.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.startHistory()}
	if m.opts.Tools != nil && m.opts.Tools.MCP != nil {
		m.showMCPServers(m.opts.Tools.MCP)
	}
	if m.opts.Replay != nil {
		m.gen++
		h := stream.StartReader(m.ctx, m.opts.Replay, m.opts.ReplayPace)
		t, cmd := startReplay(m.ctx, m.gen, h, time.Now())
		m.cur, m.live = t, true
		m.status.State, m.status.Started = Waiting, t.started
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// imageMsg reports an image written to disk for a panel.
type imageMsg struct {
	e *itemEntry
	f block.ImageFile
}

// resizeMsg ends the resize debounce.
type resizeMsg struct{ seq int }

// finalMsg carries a message's full render, made off the UI goroutine.
type finalMsg struct {
	e        *itemEntry
	width    int
	rendered string
}

// Update routes a message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m, m.resize(msg.Width, msg.Height)
	case resizeMsg:
		if msg.seq == m.resizeSeq {
			m.layout()
		}
		return m, nil
	case tea.BackgroundColorMsg:
		m.dark = msg.IsDark()
		m.applyTheme()
		m.composer.SetStyles(m.frame.styles)
		m.transcript.SetStyles(m.frame.styles)
		m.transcript.InvalidateAll()
		return m, nil
	case tea.KeyPressMsg:
		if m.dialog != nil {
			var cmd tea.Cmd
			m.dialog, cmd = m.dialog.update(msg)
			return m, cmd
		}
		return m, m.key(msg)
	case tea.MouseWheelMsg:
		var cmd tea.Cmd
		m.transcript, cmd = m.transcript.Update(msg)
		return m, cmd
	case SubmitMsg:
		return m, m.submit(msg.Text)
	case SlashMsg:
		return m, m.slash(msg.Name, msg.Args)
	case batchMsg:
		return m, m.batch(msg)
	case frameMsg:
		return m, m.tick(msg.now)
	case finalMsg:
		if f, ok := msg.e.b.(block.Finisher); ok && msg.width == m.width {
			f.SetFinal(msg.width, msg.rendered)
			m.transcript.Invalidate(msg.e.idx)
		}
		return m, nil
	case ApprovalDecisionMsg:
		if m.hostedAsk != nil {
			return m, m.hostedDecision(msg)
		}
		cmd, _ := m.toolMsg(msg)
		return m, cmd
	case toolAskMsg, toolOutputMsg, toolProgressMsg, toolDoneMsg:
		cmd, _ := m.toolMsg(msg)
		return m, cmd
	case ToolsChangedMsg:
		m.dialog = nil
		return m, m.setTools(msg.Enabled)
	case journalErrMsg, sessionsMsg, loadedMsg, searchMsg, deletedMsg, OpenSessionMsg, DeleteSessionMsg, DialogClosedMsg:
		cmd, _ := m.historyMsg(msg)
		return m, cmd
	case titleMsg:
		if m.journal != nil {
			m.journal.SetTitle(msg.title)
		}
		return m, nil
	case imageMsg:
		if sv, ok := msg.e.b.(block.ImageSaver); ok {
			sv.ImageSaved(msg.f)
			m.transcript.Invalidate(msg.e.idx)
		}
		return m, nil
	case NoticeMsg:
		kind := block.Info
		if msg.Err {
			kind = block.Error
		}
		m.notice(kind, msg.Text)
		return m, nil
	}
	return m, m.updateComposer(msg)
}

// updateComposer routes to the composer and re-lays out when its height
// changed (it grows with its text and its slash menu).
func (m *Model) updateComposer(msg tea.Msg) tea.Cmd {
	h := m.composer.Height()
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(msg)
	if m.composer.Height() != h {
		m.transcript.SetSize(m.transcript.Width(), m.transcriptHeight())
	}
	return cmd
}

// resize lays out at once the first time, then debounces the reflow.
func (m *Model) resize(w, h int) tea.Cmd {
	m.width, m.height = w, h
	if !m.sized {
		m.sized = true
		m.layout()
		return nil
	}
	m.resizeSeq++
	seq := m.resizeSeq
	m.composer.SetWidth(w)
	m.transcript.SetSize(m.transcript.Width(), m.transcriptHeight())
	return tea.Tick(80*time.Millisecond, func(time.Time) tea.Msg { return resizeMsg{seq} })
}

func (m *Model) layout() {
	m.composer.SetWidth(m.width)
	m.transcript.SetSize(m.width, m.transcriptHeight())
}

func (m *Model) transcriptHeight() int {
	return max(1, m.height-m.composer.Height()-2)
}

// View draws the screen: transcript, composer, status line, key hint.
func (m *Model) View() tea.View {
	st := m.frame.styles
	var b strings.Builder
	switch {
	case m.dialog != nil:
		b.WriteString(fitHeight(m.dialog.view(m.width, m.transcriptHeight()), m.transcriptHeight()))
	case m.showHelp:
		b.WriteString(fitHeight(HelpView(m.width, st, m.keys), m.transcriptHeight()))
	default:
		b.WriteString(m.transcript.View())
	}
	b.WriteString("\n")
	b.WriteString(m.composer.View())
	b.WriteString("\n")
	b.WriteString(m.status.View(m.width, m.frame.now, st))
	b.WriteString("\n")
	b.WriteString(m.hint())
	v := tea.NewView(b.String())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

// hint is the key hint line, memoized on what it depends on.
func (m *Model) hint() string {
	k := hintKey{m.width, m.status.State, m.frame.styles}
	if k != m.hintFor {
		m.hintFor, m.hintLine = k, Hint(m.width, m.frame.styles, m.status.State)
	}
	return m.hintLine
}

type hintKey struct {
	width  int
	state  State
	styles *theme.Styles
}

// fitHeight pads or cuts s to exactly h lines.
func fitHeight(s string, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// key handles the keys the root owns and routes the rest.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	switch {
	case s == "ctrl+c":
		if m.cur != nil && !m.cur.ended {
			m.interrupt()
			return nil
		}
		if m.stopTools() {
			return nil
		}
		if !m.quitArmed.IsZero() && time.Since(m.quitArmed) < 2*time.Second {
			return tea.Quit
		}
		m.quitArmed = time.Now()
		m.notice(block.Info, "press ctrl+c again to quit")
		return nil
	case s == "esc":
		switch {
		case m.showHelp:
			m.showHelp = false
		case m.cur != nil && !m.cur.ended:
			m.interrupt()
		case m.stopTools():
		case m.composer.Value() != "":
			m.composer.Reset()
		case len(m.conv.Turns) > 0 && !m.escArmed.IsZero() && time.Since(m.escArmed) < time.Second:
			m.escArmed = time.Time{}
			return m.fork(len(m.conv.Turns))
		case len(m.conv.Turns) > 0:
			m.escArmed = time.Now()
			m.notice(block.Info, "esc again to fork: edit your last prompt in a new session")
		}
		return nil
	case s == "ctrl+s":
		return m.openPicker()
	case s == "ctrl+r":
		m.toggleLast(m.reasoning)
		return nil
	case s == "alt+r":
		m.toggleAll(m.reasoning)
		return nil
	case s == "ctrl+o":
		m.toggleLast(m.panels)
		return nil
	case s == "ctrl+y":
		return m.copyAnswer("")
	case s == "pgup" || s == "pgdown" || s == "home" || s == "end":
		var cmd tea.Cmd
		m.transcript, cmd = m.transcript.Update(k)
		return cmd
	case len(m.pending) > 0 && m.composer.Value() == "" && (s == "y" || s == "n"):
		return m.decide(s == "y")
	case len(m.pending) > 0 && m.composer.Value() == "" && s == "a":
		m.askHosted() // reopen the approval dialog
		return nil
	case s == "?" && m.composer.Value() == "":
		m.showHelp = !m.showHelp
		return nil
	}
	return m.updateComposer(k)
}

func (m *Model) toggleLast(es []*itemEntry) {
	for i := len(es) - 1; i >= 0; i-- {
		if x, ok := es[i].b.(block.Expander); ok {
			x.SetExpanded(!x.Expanded())
			m.transcript.Invalidate(es[i].idx)
			return
		}
	}
}

func (m *Model) toggleAll(es []*itemEntry) {
	open := false
	for _, e := range es {
		if x, ok := e.b.(block.Expander); ok && !x.Expanded() {
			open = true
		}
	}
	for _, e := range es {
		if x, ok := e.b.(block.Expander); ok {
			x.SetExpanded(open)
			m.transcript.Invalidate(e.idx)
		}
	}
}

// submit sends the user's text as a new turn.
func (m *Model) submit(text string) tea.Cmd {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	if m.cur != nil && !m.cur.ended {
		m.notice(block.Info, "a reply is still streaming — esc stops it")
		m.composer.SetValue(text)
		return nil
	}
	if m.tools.cancel != nil {
		m.notice(block.Info, "tools are still running — esc stops them")
		m.composer.SetValue(text)
		return nil
	}
	m.transcript.Follow() // sending a message shows the end again
	m.turnEntry = append(m.turnEntry, m.transcript.Len())
	m.appendEntry(&plainEntry{b: block.NewUser(text), fs: m.frame})
	owed := m.tools.loop.Begin(time.Now()) // outputs of a stopped round keep the chain valid
	return m.begin(m.conv.Begin(text, append(owed, stream.UserText(text))...))
}

// begin streams a session turn.
func (m *Model) begin(st *session.Turn) tea.Cmd {
	if m.opts.Client == nil {
		m.notice(block.Info, "this is a replay: there is no server to send to")
		return nil
	}
	req := st.Request
	if resolved, _, err := m.tools.requestTools(); err != nil {
		m.notice(block.Error, stream.SanitizeLine(err.Error()))
	} else {
		req.Tools = resolved // secrets only in the request sent, never in the turn kept
	}
	m.gen++
	t, cmd := startTurn(m.ctx, m.gen, m.opts.Client, st, req, time.Now())
	if m.journal != nil {
		t.log = m.journal.Begin(st)
	}
	m.cur = t
	m.pending = nil
	m.status.State, m.status.Started, m.status.Detail = Waiting, t.started, ""
	m.status.TurnUsage = Usage{}
	m.live = true
	return cmd
}

// interrupt stops the turn in flight; what arrived stays on screen.
func (m *Model) interrupt() {
	m.cur.stopped = true
	m.cur.handle.Cancel(errStopped)
}

// decide answers the pending approval requests and sends the answers as the
// next request, chained to the response that asked.
func (m *Model) decide(approve bool) tea.Cmd {
	for _, e := range m.pending {
		m.answer(e, approve, "")
	}
	m.pending, m.hostedAsk, m.dialog = nil, nil, nil
	return m.sendAnswers()
}

// batch folds a stream batch in; rendering waits for the next frame.
func (m *Model) batch(msg batchMsg) tea.Cmd {
	t := m.cur
	if t == nil || msg.gen != t.gen {
		return nil
	}
	now := time.Now()
	problems := t.apply(msg.batch)
	for _, err := range problems {
		m.notice(block.Warning, stream.SanitizeLine(err.Error()))
	}
	if msg.batch.Retry != nil {
		r := msg.batch.Retry
		text := fmt.Sprintf("%s — retry %d of %d", stream.SanitizeLine(r.Err.Error()), r.Attempt, r.Max)
		m.appendEntry(&plainEntry{b: block.NewRetry(text, now.Add(r.Wait)), fs: m.frame})
	}
	m.showNewItems(t)
	if len(msg.batch.Events) > 0 && m.status.State == Waiting {
		m.status.State = Streaming
	}
	m.updateState(t)
	if t.ended {
		return m.endTurn(t)
	}
	return waitBatch(t.gen, t.handle)
}

// showNewItems gives every item not yet shown its entry.
func (m *Model) showNewItems(t *turn) {
	for _, s := range t.snapshots() {
		for _, it := range s.Items {
			if _, ok := m.entries[it]; !ok {
				m.addItem(it, m.frame.now)
			}
		}
	}
}

// addItem appends an item's entry to the transcript.
func (m *Model) addItem(it *stream.Item, now time.Time) *itemEntry {
	e := &itemEntry{b: block.ForItem(it, now), it: it, fs: m.frame}
	m.entries[it] = e
	m.appendEntry(e)
	switch it.Type {
	case "reasoning":
		m.reasoning = append(m.reasoning, e)
	case "message":
	default:
		m.panels = append(m.panels, e)
	}
	return e
}

// updateState sets the status line from what is streaming.
func (m *Model) updateState(t *turn) {
	s := t.acc.Current()
	if s == nil {
		return
	}
	if m.status.Model == "" && s.Model != "" {
		m.status.Model = s.Model // a replay names its model only in the stream
	}
	m.status.Detail = ""
	for i := len(s.Items) - 1; i >= 0; i-- {
		it := s.Items[i]
		if it.Done {
			continue
		}
		switch it.Type {
		case "reasoning":
			if r, ok := m.entries[it].b.(block.Titled); ok {
				m.status.Detail = r.Title()
			}
			m.status.State = Streaming
		case "message":
			m.status.State = Streaming
		default:
			m.status.State = RunningTool
		}
		break
	}
	m.status.TurnUsage = t.usage()
}

// tick is a frame: entries changed since the last one re-render now.
func (m *Model) tick(now time.Time) tea.Cmd {
	m.frame.now = now
	var cmds []tea.Cmd
	if t := m.cur; t != nil {
		if t.log != nil {
			t.log.Note(now, t.snapshots(), func(it *stream.Item) bool { return t.changed[it] })
		}
		for it := range t.changed {
			cmds = append(cmds, m.refresh(it, now))
		}
		clear(t.changed)
	}
	for it := range m.dirty {
		cmds = append(cmds, m.refresh(it, now))
	}
	clear(m.dirty)
	live := false
	for _, e := range m.entriesLive() {
		m.transcript.Invalidate(e.idx)
		live = true
	}
	if m.cur != nil || live || m.tools.cancel != nil {
		cmds = append(cmds, frameTick(m.gen))
	} else {
		m.live = false
	}
	return tea.Batch(cmds...)
}

// refresh re-renders a changed item's entry, and starts the slow work a
// finished item needs (the full markdown render, writing images) as Cmds.
func (m *Model) refresh(it *stream.Item, now time.Time) tea.Cmd {
	e := m.entries[it]
	if e == nil {
		return nil
	}
	if u, ok := e.b.(block.Updater); ok {
		u.Update(now)
	}
	m.transcript.Invalidate(e.idx)
	var cmds []tea.Cmd
	if it.Type == "message" && it.Done {
		cmds = append(cmds, m.finalRender(e))
	}
	if sv, ok := e.b.(block.ImageSaver); ok {
		if write := sv.SaveImage(); write != nil {
			cmds = append(cmds, func() tea.Msg { return imageMsg{e: e, f: write()} })
		}
	}
	return tea.Batch(cmds...)
}

// entriesLive lists entries that animate (spinners, elapsed times).
func (m *Model) entriesLive() []*itemEntry {
	var out []*itemEntry
	for _, e := range m.panels {
		if e.b.Live() {
			out = append(out, e)
		}
	}
	for _, e := range m.reasoning {
		if e.b.Live() {
			out = append(out, e)
		}
	}
	return out
}

// finalRender runs a finished message's full render off the UI goroutine.
func (m *Model) finalRender(e *itemEntry) tea.Cmd {
	f, ok := e.b.(block.Finisher)
	if !ok {
		return nil
	}
	w := m.width
	render := f.FinalRender(block.Context{Width: w, Styles: m.frame.styles, Now: m.frame.now})
	return func() tea.Msg { return finalMsg{e: e, width: w, rendered: render()} }
}

// endTurn records how the turn ended and says so when it went badly.
func (m *Model) endTurn(t *turn) tea.Cmd {
	snaps := t.snapshots()
	if cmd := m.fallback(t); cmd != nil {
		return cmd
	}
	m.conv.Finish(t.sess, snaps, t.err, t.stopped)
	m.usage = m.usage.Add(t.usage())
	m.status.SessionUsage = m.usage
	m.status.TurnUsage = t.usage()
	m.status.State, m.status.Detail = Idle, ""
	now := time.Now()
	for _, s := range snaps {
		for _, it := range s.Items {
			if e := m.entries[it]; e != nil {
				if ib, ok := e.b.(block.ItemBlock); ok {
					ib.End(now)
					t.changed[it] = true
				}
			}
			if it.Type == "message" && it.Text() != "" {
				m.answers = append(m.answers, it.Text())
			}
			if e := m.entries[it]; e != nil {
				if a, ok := e.b.(block.Approver); ok {
					if _, pending := a.Approval(); pending {
						m.pending = append(m.pending, e)
					}
				}
			}
		}
		switch {
		case s.Status == "failed" || s.ErrorEvent:
			msg := "the response failed"
			if s.Error != nil {
				msg += ": " + stream.SanitizeLine(strings.TrimPrefix(s.Error.Code+": "+s.Error.Message, ": "))
			}
			m.notice(block.Error, msg+" — the partial answer is kept above")
		case s.Status == "incomplete":
			m.notice(block.Warning, "the response is incomplete: "+stream.SanitizeLine(string(s.IncompleteDetails)))
		}
	}
	switch {
	case t.stopped:
		m.notice(block.Info, "stopped — the partial answer is kept; the next message continues from the last complete reply")
	case t.err != nil && len(snaps) == 0:
		m.notice(block.Error, stream.SanitizeLine(t.err.Error()))
	case t.err != nil:
		m.notice(block.Error, "stream broken: "+stream.SanitizeLine(t.err.Error())+" — the partial answer is kept")
	case len(snaps) > 0 && snaps[len(snaps)-1].CutOff:
		m.notice(block.Warning, "the stream ended before the response finished — the partial answer is kept")
	}
	if t.log != nil {
		t.log.End(now, t.sess)
	}
	cmd := m.tick(now)
	m.cur = nil
	if m.opts.LLMTitle && m.journal != nil && len(m.conv.Turns) == 1 && t.sess.Prompt != "" && t.err == nil && !t.stopped {
		cmd = tea.Batch(cmd, m.askTitle(t.sess.Prompt))
	}
	if len(m.pending) > 0 {
		m.status.State = AwaitingApproval
		if send := m.autoApprove(); send != nil {
			return tea.Batch(cmd, send)
		}
		m.askHosted()
	}
	return tea.Batch(cmd, m.afterResponse(t))
}

// fallback resends a turn with the whole conversation when the server
// answered that the previous response is not found (expired, another
// provider, store off), once, with a notice. It returns nil when it does not
// apply.
func (m *Model) fallback(t *turn) tea.Cmd {
	var apiErr *stream.APIError
	if !errors.As(t.err, &apiErr) || !apiErr.PreviousResponseNotFound() || len(t.snapshots()) > 0 || t.sess.Fallback || t.stopped {
		return nil
	}
	m.notice(block.Info, "the server no longer has the previous response — resending the conversation from local history")
	req := m.conv.Rebuild(t.sess)
	req.Tools = t.req.Tools
	m.gen++
	nt, cmd := startTurn(m.ctx, m.gen, m.opts.Client, t.sess, req, time.Now())
	nt.log = t.log
	m.cur = nt
	return cmd
}

// notice adds a one-line notice to the transcript.
func (m *Model) notice(kind block.NoticeKind, text string) {
	m.appendEntry(&plainEntry{b: block.NewNotice(kind, text), fs: m.frame})
}

func (m *Model) appendEntry(e entry) {
	e.setIndex(m.transcript.Len())
	m.transcript.Append(e)
}

// copyAnswer copies the last answer (or its n-th code block).
func (m *Model) copyAnswer(n string) tea.Cmd {
	if len(m.answers) == 0 {
		m.notice(block.Info, "nothing to copy yet")
		return nil
	}
	text := m.answers[len(m.answers)-1]
	if n != "" {
		var i int
		fmt.Sscan(n, &i)
		blocks := CodeBlocks(text)
		if i < 1 || i > len(blocks) {
			m.notice(block.Info, fmt.Sprintf("the last answer has %d code block(s)", len(blocks)))
			return nil
		}
		text = blocks[i-1]
	}
	return CopyCmd(text)
}

// settingsChanged records the conversation's settings in the history.
func (m *Model) settingsChanged() {
	if m.journal != nil {
		m.journal.SetSettings(m.conv.Settings)
	}
}

// setTools switches tools on or off for the session.
func (m *Model) setTools(enabled map[string]bool) tea.Cmd {
	k := m.tools
	for n, on := range enabled {
		k.enabled[n] = on
	}
	_, redacted, err := k.requestTools()
	if err != nil {
		m.notice(block.Error, stream.SanitizeLine(err.Error()))
		return nil
	}
	m.conv.Settings.Tools, m.conv.Settings.EnabledTools = redacted, k.on()
	m.settingsChanged()
	m.notice(block.Info, "tools on: "+strings.Join(append([]string{}, k.on()...), ", "))
	return nil
}

// slash runs a slash command.
func (m *Model) slash(name, args string) tea.Cmd {
	switch name {
	case "new":
		if m.cur != nil && !m.cur.ended {
			m.interrupt()
		}
		m.conv = &session.Conversation{Settings: m.conv.Settings}
		m.resetTranscript()
		if m.opts.DB != nil {
			m.closeJournal()
			m.journal = session.NewJournal(m.opts.DB, m.conv.Settings)
		}
		m.tools.loop.Reset()
		m.notice(block.Info, "new conversation")
		return m.watchJournal()
	case "model":
		m.conv.Settings.Model = args
		m.status.Model = args
		m.settingsChanged()
		m.notice(block.Info, "model: "+args)
	case "effort":
		m.conv.Settings.ReasoningEffort = args
		m.settingsChanged()
		m.notice(block.Info, "reasoning effort: "+args)
	case "copy":
		return m.copyAnswer(args)
	case "help":
		m.showHelp = true
	case "sessions":
		return m.openPicker()
	case "search":
		return m.search(args)
	case "fork":
		n, _ := strconv.Atoi(strings.TrimSpace(args))
		return m.fork(n)
	case "tools":
		m.dialog = dlg[ToolsMenu]{NewToolsMenu(m.tools.cfg.List(), m.tools.enabled, m.frame.styles)}
	case "quit":
		return tea.Quit
	default:
		m.notice(block.Warning, "unknown command /"+name)
	}
	return nil
}
