package ui

// This file is the status bar child: the status line and the key hint
// under the composer, each drawn again only when what it shows changed.

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/theme"
)

// statusBar is the status line and the key hint below it, each memoized on
// what it depends on.
//
// Invariants: status.State and status.Detail are derived, never set from
// a message: sync takes them from what the chat is doing (activityOf: the
// engine's phase, refined by the last fact said), the detail from the
// phase or else what the facts named (detail). The figures (Meter,
// SessionUsage) are the metering child's, as it last gave them.
type statusBar struct {
	status      Status
	said        happening // what the stream, the tools or a child last said happened (follow, Update)
	detail      string    // what that fact named: the reasoning's title, the calls, the tool asked about
	statusFor   statusKey
	statusDrawn string // the line at the elapsed second statusFor holds, with the spinner's frame then
	spunFrom    string // statusDrawn when spun was made
	spunGlyph   string // the spinner's frame spun shows
	spun        string // spunFrom with its glyph swapped for spunGlyph: the line while it spins
	hintFor     hintKey
	hintLine    string
	hintKeys    *KeyMap // the keys the hint names; nil: the default key map

	// the branch shown (sync), counted again when the path changes
	branchTip  *session.Turn
	branchLen  int
	branchSeen bool

	src statusSource // what a chosen line shows from outside (statuscmd.go)
}

// statusView is the status line, memoized on what it depends on: the time
// matters only through the spinner's frame and the elapsed seconds. The
// line is drawn once a second (lipgloss styles every piece) with the
// spinner's frame at that second, and each spinner step in between swaps
// that glyph for its own: the spinner moves ten times a second while a
// turn is in flight, and drawing the line anew each time was a tenth of
// what a paced answer allocated.
func (b *statusBar) statusView(f *frameState) string {
	d := max(f.now.Sub(b.status.Started), 0)
	sec := d.Truncate(time.Second)
	k := statusKey{b.status, f.width, f.styles, int64(sec / time.Second)}
	if k != b.statusFor || b.statusDrawn == "" {
		b.statusFor, b.statusDrawn = k, b.status.View(f.width, b.status.Started.Add(sec), f.styles)
	}
	if !b.status.spins() {
		return b.statusDrawn
	}
	glyph := spinnerFrame(d)
	if b.spunFrom != b.statusDrawn || b.spunGlyph != glyph || b.spun == "" { // the same line at the same frame is the same string: the screen's join and compare see it unchanged
		b.spunFrom, b.spunGlyph = b.statusDrawn, glyph
		b.spun = strings.Replace(b.statusDrawn, spinnerFrame(sec), glyph, 1) // the glyph is the line's first braille: only the keys' mode (fixed words) comes before it
	}
	return b.spun
}

type statusKey struct {
	s       Status
	width   int
	styles  *theme.Styles
	elapsed int64
}

// hint is the key hint line, memoized on what it depends on.
func (b *statusBar) hint(f *frameState) string {
	k := hintKey{f.width, b.status.State, f.styles, b.status.Mode}
	if k != b.hintFor {
		if b.hintKeys != nil {
			b.hintFor, b.hintLine = k, b.hintKeys.ModeHint(f.width, f.styles, b.status.State, b.status.Mode)
		} else {
			b.hintFor, b.hintLine = k, Hint(f.width, f.styles, b.status.State)
		}
	}
	return b.hintLine
}

type hintKey struct {
	width  int
	state  State
	styles *theme.Styles
	mode   string
}

// follow sets the status line from what is streaming.
func (b *statusBar) follow(s *stream.Snapshot, effort string, usage Usage, titleOf func(*stream.Item) string) {
	if s == nil {
		return
	}
	if s.Model != "" {
		b.status.Model = s.Model // the model that answers, as the server reports it
	}
	if effort != "" {
		b.status.Effort = effort
	}
	b.detail = ""
	for i := len(s.Items) - 1; i >= 0; i-- {
		it := s.Items[i]
		if it.Done {
			continue
		}
		switch it.Type {
		case "reasoning":
			b.said, b.detail = hapAnswering, titleOf(it)
		case "message":
			b.said = hapAnswering
		case "function_call", "custom_tool_call":
			// the model is still writing the call: nothing runs yet
			b.said, b.detail = hapCallOnWay, it.Name
		default:
			// a hosted tool (web search, code interpreter, MCP…) runs on the server
			b.said, b.detail = hapToolRuns, hostedName(it)
		}
		break
	}
	b.status.TurnUsage = usage
}

// began shows a turn that started at started: no usage yet, no detail.
func (b *statusBar) began(started time.Time) {
	b.said, b.status.Started, b.detail = hapBegan, started, ""
	b.status.TurnUsage = Usage{}
}

// showMeter shows the metering child's figures: the meter and the
// session's usage.
func (b *statusBar) showMeter(meter Meter, session Usage) {
	b.status.Meter, b.status.SessionUsage = meter, session
}

// ended shows a turn that ended: the metering child's figures, and what
// the turn used.
func (b *statusBar) ended(meter Meter, session, turn Usage) {
	b.showMeter(meter, session)
	b.status.TurnUsage, b.detail = turn, ""
}

// showModel shows the model (the configured one, until the server
// reports the one that answers: follow).
func (b *statusBar) showModel(model string) { b.status.Model = model }

// showEffort shows the reasoning effort asked for ("" when the server
// chooses).
func (b *statusBar) showEffort(effort string) { b.status.Effort = effort }

// showProvider shows the provider: label is what Options.Provider holds
// ("demo" gets a badge), name its name in the config.
func (b *statusBar) showProvider(label, name string) {
	b.status.Provider, b.status.ProviderName = label, name
}

// showMode shows the keys' mode (NORMAL, INSERT, NAVIGATE; "" for none).
func (b *statusBar) showMode(mode string) { b.status.Mode = mode }

// Update takes what the other children report for the status line.
func (b *statusBar) Update(msg tea.Msg) {
	switch msg := msg.(type) {
	case resetMsg:
		b.reset(msg)
	case didMsg:
		b.said = msg.what
		if !msg.keepDetail {
			b.detail = msg.detail
		}
		if !msg.since.IsZero() {
			b.status.Started = msg.since
		}
	case mcpStatusMsg:
		b.status.MCP, b.status.MCPBrief = msg.summary, msg.brief
	case meterMsg:
		b.status.Meter = msg.meter
	case mouseModeMsg:
		b.status.Mouse = ""
		if msg.off {
			b.status.Mouse = "mouse off"
		}
	}
}

// reset is the status line's side of a reset: a new or rebuilt
// transcript clears the usage and cost shown; a provider switch shows the
// provider and the model.
func (b *statusBar) reset(msg resetMsg) {
	switch {
	case msg.forgets():
		b.status.SessionUsage, b.status.TurnUsage, b.status.Meter = Usage{}, Usage{}, Meter{}
	case msg.why == resetProvider:
		b.status.Model = msg.settings.Model
		b.showProvider(msg.conn.Label, msg.conn.Name)
	}
}

// saidLast is the last fact the stream or the tools said, for activityOf.
func (b *statusBar) saidLast() happening { return b.said }

// sync takes what the status line shows of the chat: the state and the
// detail, from what the chat is doing (the one source: activityOf), the
// service tier asked for (/fast marks the line) and, when a chosen line
// shows it, the branch shown. The branches are counted again only when
// the path shown changed.
func (b *statusBar) sync(c *session.Conversation, act activity) {
	b.status.State, b.status.Detail = act.state, cmp.Or(act.detail, b.detail)
	b.status.Tier = c.Settings.ServiceTier
	if b.status.Layout == nil || !slices.Contains(b.status.Layout.Items, "branch") {
		return
	}
	var tip *session.Turn
	if n := len(c.Turns); n > 0 {
		tip = c.Turns[n-1]
	}
	if tip == b.branchTip && len(c.Turns) == b.branchLen && b.branchSeen {
		return
	}
	b.branchTip, b.branchLen, b.branchSeen = tip, len(c.Turns), true
	b.status.Branch = ""
	if !c.Branched() {
		return
	}
	all := c.Branches()
	for i, br := range all {
		if br.Current {
			b.status.Branch = "branch " + strconv.Itoa(i+1) + "/" + strconv.Itoa(len(all))
		}
	}
}

// choose sets up the line the config chose ([status_line]): its items,
// and the command, run as a local function's command is (tools.Config.
// RunStatusCommand: no shell, the environment without runnel's secrets).
func (b *statusBar) choose(sl StatusLine, t *Tools) {
	if len(sl.Items) > 0 {
		b.status.Layout = &StatusLayout{Items: slices.Clone(sl.Items)}
		b.src.dirs = slices.Contains(sl.Items, "cwd") || slices.Contains(sl.Items, "git_branch")
		b.src.clock = slices.Contains(sl.Items, "time")
	}
	if len(sl.Command) > 0 {
		b.src.argv = slices.Clone(sl.Command)
		var cfg tools.Config
		if t != nil {
			cfg = t.Config
		}
		b.src.run = cfg.RunStatusCommand
	}
}
