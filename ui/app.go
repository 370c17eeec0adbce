package ui

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/knob"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/block"
	"runnel/ui/pace"
)

// Model is the root of the chat: it routes messages to its children (the
// routing table is update, turnMsg and rootMsg) and draws them. Each child
// is a named field, never embedded, and keeps its own invariants (items,
// turns, toolKit, approvals, history, metering): its state changes only
// through its own methods or the messages it handles (a reset is one
// message to all: reset.go). rootwrites_test.go fails on a root write
// into a child's field, rootreach_test.go on a root call of a method of a
// child's part.
//
// Invariants:
//   - the outbox is empty when Update returns: whatever a child posted while
//     a message was handled has been routed, in order.
//   - View never renders markdown for a settled entry: entries re-render only
//     after Invalidate, which happens on frame ticks.
type Model struct {
	opts *Options // the config; the turns child reads the client and limits of the provider in use

	frame     *frameState // size, styles and the frame clock: every child and entry reads it
	keyState  keyState    // the key map, the help overlay and the armed double presses
	items     items       // the transcript: its entries and the items they show
	composer  Composer
	statusBar statusBar   // the status and hint lines
	dialog    dialog      // the open dialog, nil for none
	turns     turns       // the conversation and the turn in flight
	tools     *toolKit    // the local tools and their rounds
	approvals approvals   // hosted approvals and their answers
	history   history     // the session's store
	metering  metering    // tokens, cost and the provider's models
	notify    notifier    // tells the user when a long turn needs them (notify.go)
	agents    agentsState // AGENTS.md: what the instructions take, and the question (agents.go)
	queue     msgQueue    // messages sent while a turn runs (queue.go)
}

// New builds the root model: each child is built whole first (what a
// resumed session remembers included), then the Model that holds them.
func New(ctx context.Context, o Options) *Model {
	opts := &o
	w := cmp.Or(o.WindowWidth, 100)
	fs := &frameState{ctx: ctx, md: block.NewRenderers(), clock: time.Now, clip: systemClipboard(o.secretEnv()), width: w, height: 30,
		look: look{name: o.Theme, dir: o.ThemesDir, dark: true, noColor: o.NoColor}}
	fs.now = fs.clock()
	fs.applyTheme()
	settings := startSettings(o)
	tools := newToolKit(ctx, o.Tools)
	if on := settings.EnabledTools; on != nil {
		tools.remember(on) // the session remembers its tool set
	}
	if _, redacted, err := tools.requestTools(); err == nil {
		settings.Tools = redacted
	}
	settings.EnabledTools = tools.on()
	agents := newAgentsState(o.Agents)
	keys := NewKeyMap(o.Keys)
	tr := NewTranscript(w, 20)
	tr.SetStyles(fs.styles)
	tr.keys = keys
	hintKeys := keys
	m := &Model{
		opts:      opts,
		frame:     fs,
		keyState:  keyState{keys: keys},
		turns:     turns{fs: fs, ctx: ctx, opts: opts, endHold: endHold, conv: &session.Conversation{Settings: settings, Project: agents.text()}}, // AGENTS.md (agents.go)
		items:     newItems(fs, tr, o.Images, o.Graphics),
		composer:  NewComposer(fs.styles),
		statusBar: statusBar{hintKeys: &hintKeys},
		tools:     tools,
		history:   history{db: o.DB},
		notify:    newNotifier(o.Notify),
		agents:    agents,
	}
	m.composer.SetKeys(keys)
	m.composer.Configure(ctx, o)
	for _, p := range o.Files { // -f
		if err := m.composer.Attach(p); err != nil {
			m.items.notice(block.Error, stream.SanitizeLine(err.Error()))
		}
	}
	m.statusBar.showModel(settings.Model)
	m.statusBar.showEffort(settings.ReasoningEffort)
	m.statusBar.showProvider(o.Provider, o.Settings.Provider)
	m.statusBar.showMode(m.composer.ViMode())
	m.statusBar.choose(o.StatusLine, o.Tools)
	m.composer, _ = m.composer.Update(argChoicesMsg{"theme", m.frame.themeChoices()})
	if changed, warn := m.frame.startTheme(); warn != "" {
		m.items.notice(block.Warning, warn)
	} else if changed {
		m.restyle()
	}
	if o.Resume == nil && o.Replay == nil {
		m.items.appendEntry(newWelcome(o, settings.Model, m.frame)) // the first screen says how to start
	}
	if o.Prompts != nil { // prompt files: /NAME (promptcmds.go)
		if l := m.composer.SetPrompts(o.Prompts.Library); l != "" {
			m.items.notice(block.Warning, stream.SanitizeLine(l))
		}
		for _, e := range o.Prompts.Library.Problems {
			m.items.notice(block.Warning, stream.SanitizeLine(e.Error()))
		}
	}
	if o.Agents != nil { // AGENTS.md files that cannot be used (agents.go)
		for _, e := range o.Agents.Found.Problems {
			m.items.notice(block.Warning, stream.SanitizeLine(e.Error()))
		}
	}
	return m
}

// startSettings is the conversation's settings at the start: the
// config's, or a resumed session's (an imported file's tool set is not the
// user's: session.Foreign), with today's background mode.
func startSettings(o Options) session.Settings {
	if o.Resume == nil || o.Resume.Settings == nil {
		return o.Settings
	}
	s := knob.FromJSON(o.Resume.Settings)
	if o.Resume.Imported {
		s, _ = session.Foreign(s, o.Settings)
	}
	s.Background = o.Settings.Background // today's config, not the session's
	return s
}

// shutdown ends what the chat started: running tools, the history writer.
func (m *Model) shutdown() {
	m.turns.Update(quitMsg{}) // a quit mid-answer keeps all that was shown
	m.tools.shutdown()
	m.history.shutdown()
}

// Init asks the terminal for its background colour, opens the history
// (a resumed session shows at once) and starts a replay.
func (m *Model) Init() tea.Cmd {
	// the journal, new or resumed: a resumed session shows at once
	var open tea.Cmd
	switch o := m.opts; {
	case o.DB == nil && o.HistoryErr != nil:
		m.items.notice(block.Warning, stream.SanitizeLine(o.HistoryErr.Error())+" — the chat works, but this session will not be saved")
	case o.DB == nil:
	case o.Resume != nil:
		open = m.showSession(sessionLoadedMsg{s: o.Resume})
	default:
		open = m.history.start(m.turns.conv.Settings)
	}
	cmds := []tea.Cmd{tea.RequestBackgroundColor, open, m.history.loadPrompts()}
	cmds = append(cmds, m.tools.initMCP(m.frame), m.statusBar.refreshSource(m.frame.ctx))
	if m.opts.Replay != nil {
		h := stream.StartReader(m.frame.ctx, m.opts.Replay, m.opts.ReplayPace)
		limit := m.opts.responseLimit()
		started, pacing := m.turns.start(func(gen int) *turn { return startReplay(h, gen, m.frame.clock(), limit) })
		m.turns.next(session.Event{Kind: session.Began})
		m.statusBar.began(started)
		cmds = append(cmds, pacing)
	}
	return tea.Batch(append(cmds, m.routePosted())...) // the MCP servers' state, at once
}

// resizeMsg ends the resize debounce.
type resizeMsg struct{ seq int }

// Update routes a message. While an approval waits and no frame tick is
// scheduled, a slow tick keeps the status line's timer running.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if msg, ok := msg.(itermMsg); ok {
		return m, m.items.drawImages(msg, m.dialog == nil && !m.keyState.showHelp)
	}
	cmd := tea.Batch(m.update(msg), m.routePosted())
	act := m.activity()                                                                      // the one place that says what the chat is doing
	m.statusBar.sync(m.turns.conv, act)                                                      // the state shown, the tier (/fast) and the branch
	if place := m.items.placeImages(m.dialog == nil && !m.keyState.showHelp); place != nil { // iTerm2 images follow the layout (inline.go)
		cmd = tea.Batch(cmd, place)
	}
	// a long turn that ended or waits notifies
	cmd = tea.Batch(cmd, m.notify.observe(act.engine, m.frame.clock()))
	if act.engine == session.PhaseApproval { // the status line's timer runs
		cmd = tea.Batch(cmd, m.turns.pace(pace.Facts{Cause: pace.Routed, Approval: true}, m.frame.clock()))
	}
	return m, cmd
}

// routePosted routes what the children reported (frameState.post), in
// order, and what those messages report in turn.
func (m *Model) routePosted() tea.Cmd {
	var cmd tea.Cmd
	for next, ok := m.frame.posted(); ok; next, ok = m.frame.posted() {
		cmd = tea.Batch(cmd, m.update(next))
	}
	return cmd
}

// update is the routing table, in three parts: the messages a child
// handles alone go to it here; a turn's messages go to turnMsg; the rest,
// the root's own (the layout, the keys, the dialogs, the settings), to
// rootMsg; what none of them takes goes to the composer.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg, finalMsg, runMsg, panelChangedMsg, panelEndedMsg, showMsg, shellPanelMsg, imageMsg, noticeMsg, NoticeMsg, redrawMsg:
		return m.items.Update(msg)
	case tea.MouseClickMsg, tea.MouseMotionMsg, tea.MouseReleaseMsg:
		return m.items.mouse(msg, m.dialog == nil && !m.keyState.showHelp)
	case didMsg:
		m.statusBar.Update(msg)
		m.turns.observe(msg) // the engine hears what happened: its phase decides (activityOf)
	case mcpStatusMsg, meterMsg, mouseModeMsg:
		m.statusBar.Update(msg)
	case tea.FocusMsg, tea.BlurMsg:
		m.notify.Update(msg)
	case statusLineMsg, statusTickMsg:
		return m.statusBar.sourceUpdate(msg, m.frame.ctx, m.frame.clock())
	case toolAskMsg, toolOutputMsg, toolProgressMsg, toolDoneMsg, toolStartMsg, toolResultMsg, mcpReadyMsg, mcpReportMsg:
		return m.tools.Update(msg, m.frame)
	case modelsMsg, providerMsg, ModelPickedMsg:
		return m.metering.Update(msg, m.frame, m.meterEnv())
	case journalErrMsg, sessionsMsg, loadedMsg, searchMsg, deletedMsg, OpenSessionMsg, DeleteSessionMsg, promptsMsg, exportedMsg, titleMsg:
		return m.history.Update(msg, m.frame)
	case conversationMsg:
		m.history.saveSettings(msg.settings)
	case newJournalMsg:
		return m.history.restart(m.turns.conv.Settings)
	case askPromptsMsg:
		return askPromptTrust(m.opts.Prompts, msg.typed, m.frame) // a project prompt's first use (promptcmds.go)
	case setPastMsg, argChoicesMsg:
		return m.updateComposer(msg)
	case putBackMsg:
		m.composer.putBack(msg.text, msg.files)
	default:
		return m.turnMsg(msg)
	}
	return nil
}

// turnMsg routes a turn's messages: a message sent, its stream's batches
// and frames, the tools' and approvals' answers, its end, a branch shown.
func (m *Model) turnMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case SubmitMsg:
		if m.enqueue(msg) { // a turn runs: the message waits for its end
			return nil
		}
		if cmd := m.agents.hold(msg, m.frame); cmd != nil {
			return cmd // the project's AGENTS.md: asked at the first message (agents.go)
		}
		m.turns.Update(overrideMsg{msg.Prompt}) // a prompt file's turn, or nil: the session's settings
		return m.submit(msg.Text, msg.Files)
	case agentsAnsweredMsg:
		text, isErr := m.agents.answered(msg)
		m.turns.Update(projectMsg{m.agents.text()})
		return tea.Batch(notify(isErr, text), msgCmd(msg.held))
	case attachReadMsg:
		return m.turns.Update(msg) // the read it waits for comes back (readDoneMsg)
	case readDoneMsg:
		return m.attachRead(msg.read)
	case batchMsg:
		return m.batch(msg)
	case frameMsg:
		pl, cmd := m.turns.plan(pace.Facts{Cause: pace.Frame, Seq: msg.seq}, msg.now)
		if pl.Draw == pace.NoDraw {
			return cmd
		}
		return tea.Batch(cmd, m.tick(msg.now, pl.Draw))
	case waitTickMsg:
		pl, cmd := m.turns.plan(pace.Facts{Cause: pace.WaitTick, Shown: m.frame.now}, msg.now)
		if pl.Clock {
			m.frame.at(msg.now, m.frame.draft)
		}
		return cmd
	case ApprovalDecisionMsg:
		if m.approvals.asked() != nil { // the dialog asked about a hosted request
			return m.approvals.Update(msg, m.frame)
		}
		return m.tools.Update(msg, m.frame)
	case ToolsSettledMsg:
		return m.beginWith(m.turns.begin("", msg.input...), msg.round)
	case answersMsg:
		return m.beginWith(m.turns.begin("", msg.input...), nil)
	case toolFramesMsg: // a frame soon: something outside the stream changed
		return m.turns.pace(pace.Facts{Cause: pace.Changed}, m.frame.clock())
	case turnEndMsg:
		m.notify.Update(msg)
		return tea.Batch(m.statusBar.sourceUpdate(msg, m.frame.ctx, m.frame.clock()), m.queueTurnEnded(msg)) // a turn's end refreshes a chosen line
	case compactMsg:
		if m.turns.compacted(msg) {
			m.items.showCompaction(msg.res, m.frame.clock())
			m.history.saveCompacted(msg.res.Output) // a resume starts from it too
		}
	case branchMsg:
		m.dialog = nil
		if m.turns.showBranch(msg.tip, m.tools.busy() || m.tools.asking()) {
			m.redraw()
			m.history.setTip(m.turns.conv)
			m.items.notice(block.Info, msg.note)
		}
	case editTurnMsg:
		return m.slash("edit", strconv.Itoa(userTurnOf(m.turns.conv, msg.turn)))
	default:
		return m.rootMsg(msg)
	}
	return nil
}

// rootMsg routes the root's own messages: the size, the background and
// the theme, the keys and commands, the dialogs, the settings that change
// and the session shown.
func (m *Model) rootMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m.resize(msg.Width, msg.Height)
	case resizeMsg:
		if msg.seq == m.frame.resizeSeq {
			m.items.Update(layoutMsg{width: m.frame.width, height: m.transcriptHeight()})
		}
	case tea.BackgroundColorMsg:
		m.frame.setDark(msg.IsDark())
		m.restyle()
		m.items.Update(layoutMsg{invalidateAll: true})
	case themeMsg:
		m.themeRead(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	case SlashMsg:
		return m.slash(msg.Name, msg.Args)
	case TogglePanelMsg:
		m.dialog = nil
		m.items.togglePanel(msg.Index)
	case dialogMsg:
		m.dialog = msg.d
	case DialogClosedMsg:
		m.dialog = nil
	case HistoryPickMsg:
		m.dialog = nil
		return m.updateComposer(setValueMsg{msg.Text})
	case ToolsChangedMsg:
		m.dialog = nil
		return m.tools.Update(msg, m.frame)
	case mcpServersMsg:
		m.statusBar.Update(mcpStatusMsg{summary: msg.mgr.Summary(), brief: msg.mgr.Brief()})
		m.items.showSettled(msg.mgr.ListItems(), m.frame.clock()) // the servers' tool lists
		// what /mcp:… and @mcp:… complete (mcpextras.go)
		m.composer.SetMCP(msg.mgr.Prompts(nil), msg.mgr.Resources(nil))
	case toolSetMsg:
		m.turns.Update(msg)
		m.history.saveSettings(m.turns.conv.Settings)
	case modelSwitchedMsg: // the model the metering child switched to is the conversation's
		m.turns.Update(msg)
		m.statusBar.showModel(msg.model)
		m.history.saveSettings(m.turns.conv.Settings)
		m.items.notice(block.Info, "model: "+msg.model)
	case providerSwitchedMsg:
		return m.providerSwitched(msg)
	case sessionLoadedMsg:
		return m.showSession(msg)
	default:
		return m.updateComposer(msg)
	}
	return nil
}

// updateComposer routes to the composer and re-lays out when its height
// changed (it grows with its text and its slash menu).
func (m *Model) updateComposer(msg tea.Msg) tea.Cmd {
	h := m.composer.Height()
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(msg)
	if m.composer.Height() != h {
		m.items.Update(layoutMsg{height: m.transcriptHeight()})
	}
	return tea.Batch(cmd, m.metering.watchModelCommand(m.composer.Value(), m.meterEnv()))
}

// resize lays out at once the first time, then debounces the reflow.
func (m *Model) resize(w, h int) tea.Cmd {
	first, seq := m.frame.resize(w, h)
	m.composer.SetWidth(w)
	if first {
		m.items.Update(layoutMsg{width: w, height: m.transcriptHeight()})
		return nil
	}
	m.items.Update(layoutMsg{height: m.transcriptHeight()})
	return tea.Tick(80*time.Millisecond, func(time.Time) tea.Msg { return resizeMsg{seq} })
}

func (m *Model) transcriptHeight() int {
	return max(1, m.frame.height-m.composer.Height()-strings.Count(m.underComposer(), "\n")-2)
}

// underComposer is the lines under the composer, each ending in a
// newline: the edit pending (branch.go) and the queue (queue.go).
func (m *Model) underComposer() string {
	var b strings.Builder
	for _, l := range []string{m.turns.editView(m.frame.width, m.frame.styles), m.queue.view(m.frame.width, m.frame.styles)} {
		if l != "" {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// View draws the screen: transcript, composer, status line, key hint.
func (m *Model) View() tea.View {
	var top string
	switch {
	case m.dialog != nil && overlays(m.dialog):
		top = overlayView(m.dialog, m.items.shown(), m.transcriptHeight(), m.frame)
	case m.dialog != nil:
		top = fitHeight(m.dialog.view(m.frame.width, m.transcriptHeight()), m.transcriptHeight())
	case m.keyState.showHelp:
		top = m.keyState.helpView(m.frame, m.transcriptHeight())
	default:
		shown := m.items.shown() // a copy: its memo is the transcript's own (viewMemo)
		top = shown.View()
	}
	keyHint := m.composer.Hint(m.frame.width) // the composer's short-lived feedback takes the key hint's place
	if keyHint == "" {
		keyHint = m.statusBar.hint(m.frame)
	}
	parts := []string{top, m.composer.view(), m.statusBar.statusView(m.frame), keyHint}
	if u := m.underComposer(); u != "" {
		parts = slices.Insert(parts, 2, strings.TrimSuffix(u, "\n"))
	}
	v := tea.NewView(m.frame.drawn(parts))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.ReportFocus = m.notify.reportsFocus()
	v.ProgramStatus = m.notify.programStatus()
	if _, off := m.items.modes(); off { // the terminal selects (f2)
		v.MouseMode = tea.MouseModeNone
	}
	return v
}

// overlays reports whether d is drawn below the transcript instead of in
// its place: an approval (the user must see what led to it) and the panel
// list (the panels it opens show above it).
func overlays(d dialog) bool {
	switch d.(type) {
	case dlg[Approval], dlg[PanelList]:
		return true
	}
	return false
}

// overlayView is the transcript area, h lines, with dialog d in its lower
// part: the end of transcript t stays visible above a rule, and the dialog
// takes the lines it needs, up to two thirds of the area. t is a copy: the
// real one keeps its size and position.
func overlayView(d dialog, t Transcript, h int, f *frameState) string {
	room := max(h*2/3, min(h, 6))
	dv := d.view(f.width, room)
	n := strings.Count(dv, "\n") + 1
	above := h - n - 1
	if above < 1 {
		return fitHeight(dv, h)
	}
	t.SetSize(f.width, above)
	rule := theme.DialogOf(f.styles).Sep.Render(strings.Repeat("─", f.width))
	return t.View() + "\n" + rule + "\n" + dv
}
