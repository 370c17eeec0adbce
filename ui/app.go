package ui

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/block"
	"runnel/ui/pace"
)

// Model is the root of the chat: it routes messages to its children (the
// routing table is update) and draws them. Each child keeps its own
// invariants (items, turns, toolKit, approvals, history, metering).
//
// Invariants:
//   - the outbox is empty when Update returns: whatever a child posted while
//     a message was handled has been routed, in order.
//   - View never renders markdown for a settled entry: entries re-render only
//     after Invalidate, which happens on frame ticks.
type Model struct {
	ctx  context.Context
	opts Options

	frame     *frameState // size, styles and the frame clock: every child and entry reads it
	keyState              // the key map, the help overlay and the armed double presses
	items                 // the transcript: its entries and the items they show
	composer  Composer
	statusBar             // the status and hint lines
	dialog    dialog      // the open dialog, nil for none
	turns                 // the conversation and the turn in flight
	tools     *toolKit    // the local tools and their rounds
	approvals             // hosted approvals and their answers
	history               // the session's store
	metering              // tokens, cost and the provider's models
	notify    notifier    // tells the user when a long turn needs them (notify.go)
	agents    agentsState // AGENTS.md: what the instructions take, and the question (agents.go)
	queue     msgQueue    // messages sent while a turn runs (queue.go)
}

// New builds the root model.
func New(ctx context.Context, o Options) *Model {
	fs := &frameState{md: block.NewRenderers(), clock: time.Now, dark: true, noColor: o.NoColor, clip: systemClipboard(o.secretEnv())}
	m := &Model{
		ctx:      ctx,
		opts:     o,
		frame:    fs,
		keyState: keyState{keys: NewKeyMap(o.Keys)},
		turns:    turns{fs: fs, ctx: ctx, conv: &session.Conversation{Settings: o.Settings}},
		items:    items{fs: fs, imageSink: o.Images, entries: map[*stream.Item]*itemEntry{}, dirty: map[*stream.Item]bool{}},
		tools:    newToolKit(ctx, o.Tools),
		history:  history{db: o.DB},
		notify:   newNotifier(o.Notify),
		agents:   newAgentsState(o.Agents),
	}
	m.turns.opts = &m.opts
	m.conv.Project = m.agents.text() // AGENTS.md (agents.go)
	fs.now = fs.clock()
	if o.Resume != nil && o.Resume.Settings != nil {
		m.conv.Settings = session.SettingsFromJSON(o.Resume.Settings)
		if o.Resume.Imported { // its file's tool set is not the user's (session.Foreign)
			m.conv.Settings, _ = session.Foreign(m.conv.Settings, o.Settings)
		}
		m.conv.Settings.Background = o.Settings.Background // today's config, not the session's
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
	m.frame.applyTheme(m.opts.Theme)
	w := o.WindowWidth
	if w == 0 {
		w = 100
	}
	m.frame.width, m.frame.height = w, 30
	m.transcript = NewTranscript(w, 20)
	m.transcript.SetStyles(m.frame.styles)
	m.composer = NewComposer(m.frame.styles)
	m.composer.SetKeys(m.keys)
	m.transcript.keys = m.keys
	hintKeys := m.keys
	m.statusBar.hintKeys = &hintKeys
	m.composer.Configure(ctx, o)
	for _, p := range o.Files { // -f
		if err := m.composer.Attach(p); err != nil {
			m.notice(block.Error, stream.SanitizeLine(err.Error()))
		}
	}
	m.status = Status{Model: m.conv.Settings.Model, Effort: m.conv.Settings.ReasoningEffort, Provider: o.Provider, ProviderName: o.Settings.Provider, State: Idle, Mode: m.composer.ViMode()}
	m.statusBar.choose(o.StatusLine, o.Tools)
	m.startTheme()
	if o.Resume == nil && o.Replay == nil {
		m.appendEntry(newWelcome(o, m.conv.Settings.Model, m.frame)) // the first screen says how to start
	}
	if o.Prompts != nil { // prompt files: /NAME (promptcmds.go)
		if l := m.composer.SetPrompts(o.Prompts.Library); l != "" {
			m.notice(block.Warning, stream.SanitizeLine(l))
		}
		for _, e := range o.Prompts.Library.Problems {
			m.notice(block.Warning, stream.SanitizeLine(e.Error()))
		}
	}
	if o.Agents != nil { // AGENTS.md files that cannot be used (agents.go)
		for _, e := range o.Agents.Found.Problems {
			m.notice(block.Warning, stream.SanitizeLine(e.Error()))
		}
	}
	return m
}

// now is the model's clock.
func (m *Model) now() time.Time { return m.frame.clock() }

// shutdown ends what the chat started: running tools, the history writer.
func (m *Model) shutdown() {
	if t := m.cur; t != nil && !t.ended && t.log != nil {
		t.log.Flush(m.now(), t.snapshots()) // a quit mid-answer keeps all that was shown
	}
	if m.tools.cancel != nil {
		m.tools.cancel()
	}
	if m.journal != nil {
		m.journal.Close()
	}
}

// Init asks the terminal for its background colour and starts a replay.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.startHistory(), m.history.loadPrompts()}
	cmds = append(cmds, m.tools.initMCP(m.frame), m.statusBar.refreshSource(m.ctx))
	if m.opts.Replay != nil {
		m.gen++
		h := stream.StartReader(m.ctx, m.opts.Replay, m.opts.ReplayPace)
		m.cur = startReplay(h, m.gen, m.now(), m.opts.responseLimit())
		m.status.State, m.status.Started = Waiting, m.cur.started
		m.turns.next(session.Event{Kind: session.Began})
		cmds = append(cmds, m.pace(pace.Facts{Cause: pace.Begin}, m.now()))
	}
	return tea.Batch(append(cmds, m.routePosted())...) // the MCP servers' state, at once
}

// resizeMsg ends the resize debounce.
type resizeMsg struct{ seq int }

// Update routes a message. While an approval waits and no frame tick is
// scheduled, a slow tick keeps the status line's timer running.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if msg, ok := msg.(itermMsg); ok {
		return m, m.drawImages(msg, m.dialog == nil && !m.showHelp)
	}
	_, cmd := m.update(msg)
	cmd = tea.Batch(cmd, m.routePosted())
	m.statusBar.sync(m.conv)                                                  // the tier (/fast) and the branch shown
	if place := m.placeImages(m.dialog == nil && !m.showHelp); place != nil { // iTerm2 images follow the layout (inline.go)
		cmd = tea.Batch(cmd, place)
	}
	// a long turn that ended or waits notifies
	phase := m.turns.phase() // the turn engine's: the status line only shows
	cmd = tea.Batch(cmd, m.notify.observe(phase, m.now()))
	if phase == AwaitingApproval { // the status line's timer runs
		cmd = tea.Batch(cmd, m.pace(pace.Facts{Cause: pace.Routed, Approval: true}, m.now()))
	}
	return m, cmd
}

// routePosted routes what the children reported (frameState.post), in
// order, and what those messages report in turn.
func (m *Model) routePosted() tea.Cmd {
	var cmd tea.Cmd
	for len(m.frame.outbox) > 0 {
		next := m.frame.outbox[0]
		m.frame.outbox = m.frame.outbox[1:]
		_, more := m.update(next)
		cmd = tea.Batch(cmd, more)
	}
	return cmd
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case waitTickMsg:
		pl, cmd := m.plan(pace.Facts{Cause: pace.WaitTick, Shown: m.frame.now}, msg.now)
		if pl.Clock {
			m.frame.now = msg.now
		}
		return m, cmd
	case TogglePanelMsg:
		m.dialog = nil
		m.togglePanel(msg.Index)
		return m, nil
	case tea.WindowSizeMsg:
		return m, m.resize(msg.Width, msg.Height)
	case resizeMsg:
		if msg.seq == m.frame.resizeSeq {
			m.transcript.SetSize(m.frame.width, m.transcriptHeight())
		}
		return m, nil
	case tea.BackgroundColorMsg:
		m.frame.dark = msg.IsDark()
		m.frame.applyTheme(m.opts.Theme)
		m.composer.SetStyles(m.frame.styles)
		m.transcript.SetStyles(m.frame.styles)
		m.transcript.InvalidateAll()
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.MouseWheelMsg, finalMsg, runMsg, panelChangedMsg, panelEndedMsg, showMsg, shellPanelMsg, imageMsg, noticeMsg, NoticeMsg, redrawMsg:
		return m, m.items.Update(msg)
	case toolStatusMsg, mcpStatusMsg, meterMsg, statusMsg:
		m.statusBar.Update(msg)
		m.turns.observe(msg) // the engine's phase decides (turns.phase)
		return m, nil
	case tea.MouseClickMsg, tea.MouseMotionMsg, tea.MouseReleaseMsg:
		return m, m.items.mouse(msg, m.dialog == nil && !m.showHelp)
	case tea.FocusMsg, tea.BlurMsg:
		m.notify.Update(msg)
		return m, nil
	case themeMsg:
		m.themeRead(msg)
		return m, nil
	case statusLineMsg, statusTickMsg:
		return m, m.statusBar.sourceUpdate(msg, m.ctx, m.now())
	case turnEndMsg:
		m.notify.Update(msg)
		return m, tea.Batch(m.statusBar.sourceUpdate(msg, m.ctx, m.now()), m.queueTurnEnded(msg)) // a turn's end refreshes a chosen line
	case mouseModeMsg:
		m.statusBar.Update(msg)
		return m, nil
	case SubmitMsg:
		if m.enqueue(msg) { // a turn runs: the message waits for its end
			return m, nil
		}
		if cmd := m.agents.hold(msg, m.frame); cmd != nil {
			return m, cmd // the project's AGENTS.md: asked at the first message (agents.go)
		}
		m.conv.Override = msg.Prompt // a prompt file's turn, or nil: the session's settings
		return m, m.submit(msg.Text, msg.Files)
	case askPromptsMsg:
		return m, askPromptTrust(m.opts.Prompts, msg.typed, m.frame) // a project prompt's first use (promptcmds.go)
	case agentsAnsweredMsg:
		text, isErr := m.agents.answered(msg)
		m.conv.Project = m.agents.text()
		return m, tea.Batch(notify(isErr, text), msgCmd(msg.held))
	case attachReadMsg:
		return m, m.attachRead(msg)
	case SlashMsg:
		return m, m.slash(msg.Name, msg.Args)
	case editTurnMsg:
		return m, m.slash("edit", strconv.Itoa(userTurnOf(m.conv, msg.turn)))
	case batchMsg:
		return m, m.batch(msg)
	case frameMsg:
		pl, cmd := m.plan(pace.Facts{Cause: pace.Frame, Seq: msg.seq}, msg.now)
		if pl.Draw == pace.NoDraw {
			return m, cmd
		}
		return m, tea.Batch(cmd, m.tick(msg.now, pl.Draw))
	case ApprovalDecisionMsg:
		if m.hostedAsk != nil { // the dialog asked about a hosted request
			return m, m.approvals.Update(msg, m.frame)
		}
		return m, m.tools.Update(msg, m.frame)
	case toolAskMsg, toolOutputMsg, toolProgressMsg, toolDoneMsg, toolStartMsg, toolResultMsg, mcpReadyMsg, mcpReportMsg:
		return m, m.tools.Update(msg, m.frame)
	case ToolsSettledMsg:
		return m, m.beginWith(m.conv.Begin("", msg.input...), msg.round)
	case answersMsg:
		return m, m.beginWith(m.conv.Begin("", msg.input...), nil)
	case toolFramesMsg:
		return m, m.ensureTick()
	case mcpServersMsg:
		m.status.MCP, m.status.MCPBrief = msg.mgr.Summary(), msg.mgr.Brief()
		m.showSettled(msg.mgr.ListItems(), m.now()) // the servers' tool lists
		// what /mcp:… and @mcp:… complete (mcpextras.go)
		m.composer.SetMCP(msg.mgr.Prompts(nil), msg.mgr.Resources(nil))
		return m, nil
	case toolSetMsg:
		m.conv.Settings = msg.applyTo(m.conv.Settings)
		m.history.saveSettings(m.conv.Settings)
		return m, nil
	case conversationMsg:
		m.history.saveSettings(msg.settings)
		return m, nil
	case ToolsChangedMsg:
		m.dialog = nil
		return m, m.tools.Update(msg, m.frame)
	case modelsMsg, providerMsg, ModelPickedMsg:
		return m, m.metering.Update(msg, m.frame, m.meterEnv())
	case modelSwitchedMsg:
		return m, m.modelSwitched(msg)
	case providerSwitchedMsg:
		return m, m.providerSwitched(msg)
	case journalErrMsg, sessionsMsg, loadedMsg, searchMsg, deletedMsg, OpenSessionMsg, DeleteSessionMsg, promptsMsg, exportedMsg, titleMsg:
		return m, m.history.Update(msg, m.frame)
	case sessionLoadedMsg:
		return m, m.showSession(msg)
	case newJournalMsg:
		return m, m.history.restart(m.conv.Settings)
	case DialogClosedMsg:
		m.dialog = nil
		return m, nil
	case setPastMsg, argChoicesMsg:
		return m, m.updateComposer(msg)
	case HistoryPickMsg:
		m.dialog = nil
		return m, m.updateComposer(setValueMsg{msg.Text})
	case compactMsg:
		if m.turns.compacted(msg) {
			m.showCompaction(msg.res, m.now())
			m.history.saveCompacted(msg.res.Output) // a resume starts from it too
		}
		return m, nil
	case dialogMsg:
		m.dialog = msg.d
		return m, nil
	case putBackMsg:
		m.composer.putBack(msg.text, msg.files)
		return m, nil
	case branchMsg:
		m.dialog = nil
		if m.turns.showBranch(msg.tip, m.tools.cancel != nil || m.tools.asking != nil) {
			m.redraw()
			m.history.setTip(m.conv)
			m.notice(block.Info, msg.note)
		}
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
	return tea.Batch(cmd, m.metering.watchModelCommand(m.composer.Value(), m.meterEnv()))
}

// resize lays out at once the first time, then debounces the reflow.
func (m *Model) resize(w, h int) tea.Cmd {
	m.frame.width, m.frame.height = w, h
	m.composer.SetWidth(w)
	if !m.frame.sized {
		m.frame.sized = true
		m.transcript.SetSize(w, m.transcriptHeight())
		return nil
	}
	m.frame.resizeSeq++
	seq := m.frame.resizeSeq
	m.transcript.SetSize(m.transcript.Width(), m.transcriptHeight())
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
		top = m.overlayView()
	case m.dialog != nil:
		top = fitHeight(m.dialog.view(m.frame.width, m.transcriptHeight()), m.transcriptHeight())
	case m.showHelp:
		top = m.keyState.helpView(m.frame, m.transcriptHeight())
	default:
		top = m.transcript.View()
	}
	keyHint := m.composer.Hint(m.frame.width) // the composer's short-lived feedback takes the key hint's place
	if keyHint == "" {
		keyHint = m.statusBar.hint(m.frame)
	}
	parts := []string{top, m.composer.View(), m.statusBar.statusView(m.frame), keyHint}
	if u := m.underComposer(); u != "" {
		parts = slices.Insert(parts, 2, strings.TrimSuffix(u, "\n"))
	}
	v := tea.NewView(strings.Join(parts, "\n"))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.ReportFocus = m.notify.reportsFocus()
	if m.items.sel.off { // the terminal selects (f2)
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

// overlayView is the transcript area with the dialog in its lower part:
// the end of the transcript stays visible above a rule, and the dialog takes
// the lines it needs, up to two thirds of the area.
func (m *Model) overlayView() string {
	h := m.transcriptHeight()
	room := max(h*2/3, min(h, 6))
	dv := m.dialog.view(m.frame.width, room)
	n := strings.Count(dv, "\n") + 1
	above := h - n - 1
	if above < 1 {
		return fitHeight(dv, h)
	}
	t := m.transcript // a copy: the real one keeps its size and position
	t.SetSize(m.frame.width, above)
	rule := theme.DialogOf(m.frame.styles).Sep.Render(strings.Repeat("─", m.frame.width))
	return t.View() + "\n" + rule + "\n" + dv
}
