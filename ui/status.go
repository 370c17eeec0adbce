package ui

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/theme"
	"runnel/ui/pace"
)

// State is what the chat is doing, as the status line and key hint show it.
type State int

const (
	Idle             State = iota // nothing in flight; the composer sends
	Waiting                       // request sent, no output yet
	Streaming                     // output arriving
	RunningTool                   // a tool call is executing
	AwaitingApproval              // a tool call waits for y/n
	CallingTool                   // a tool call is on its way: its arguments stream, or it is about to run
)

var stateNames = [...]string{"idle", "waiting", "streaming", "running tool", "awaiting approval", "calling tool"}

func (s State) String() string {
	if s < 0 || int(s) >= len(stateNames) {
		return "State(" + strconv.Itoa(int(s)) + ")"
	}
	return stateNames[s]
}

// Busy reports whether a turn is in flight.
func (s State) Busy() bool { return s != Idle }

// Usage is token accounting for a turn or a session.
type Usage struct {
	Input, Output, Reasoning int64 // Reasoning is part of Output
	Unknown                  int   // responses whose usage never came: their stream ended first
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{Input: u.Input + v.Input, Output: u.Output + v.Output, Reasoning: u.Reasoning + v.Reasoning, Unknown: u.Unknown + v.Unknown}
}

// IsZero reports whether nothing was counted, known or not.
func (u Usage) IsZero() bool { return u == Usage{} }

// String is the status line's form: "↑1.2k ↓340" (tokens in and out),
// with "(120 reasoning)" after the output when some of it was reasoning,
// as /status words it. A response whose usage is unknown (its stream
// broke first) makes the counts a floor, "≥ ↑1.2k ↓340", or "↑? ↓?" when
// nothing is known.
func (u Usage) String() string {
	if u.Unknown > 0 && u.Input == 0 && u.Output == 0 {
		return "↑? ↓?"
	}
	s := "↑" + compactCount(u.Input) + " ↓" + compactCount(u.Output)
	if u.Reasoning > 0 {
		s += " (" + compactCount(u.Reasoning) + " reasoning)"
	}
	if u.Unknown > 0 {
		s = "≥ " + s
	}
	return s
}

// usageUnknown reports whether a response's usage never came: a response
// reports it at its end, and this one's stream ended (broke, was cut off
// or stopped) before that.
func usageUnknown(s *stream.Snapshot) bool {
	if s == nil || s.Usage != nil || s.Terminal {
		return false
	}
	switch s.Status {
	case "completed", "incomplete", "failed", "cancelled":
		return false
	}
	return true
}

// Status is the data of the status line; the root fills it in and View draws
// it. It holds no behaviour: time comes in as a parameter.
type Status struct {
	Model, Provider         string    // Model as the server reported it (configured until it has); Provider "demo" gets a badge
	ProviderName            string    // the provider's name in the config ("ollama"); "default" and "" show Provider's host
	Effort                  string    // the reasoning effort asked for; "" when the server chooses
	MCP                     string    // "mcp: 2 servers, 14 tools" when local MCP servers run
	State                   State     // what the chat is doing
	Detail                  string    // the reasoning title, "retry in 3s", …; untrusted
	Started                 time.Time // the turn's start, for the elapsed time
	TurnUsage, SessionUsage Usage
	Meter                   string // "ctx 42% · $0.0045" (models.go); "" when unknown
	Mouse                   string // "mouse off" while the terminal has the mouse (selection.go)
	Mode                    string // the keys' mode: NORMAL, INSERT, NAVIGATE (vi preset); "" for none
}

// spinnerFrames animate busy states; the frame is chosen from the clock so
// View stays pure and the root's frame tick is the only timer.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// View draws the status line: what is happening on the left, usage and the
// model on the right. It is one line of exactly width cells and never wraps:
// when space runs short it drops, in order, the session usage and the turn
// usage, then cuts and drops the detail, then drops the elapsed time, and
// finally cuts the line.
func (s Status) View(width int, now time.Time, st *theme.Styles) string {
	if width <= 0 {
		return ""
	}
	sh := theme.ShellOf(st)
	// Pieces inherit the bar's background so the line reads as one bar.
	paint := func(style lipgloss.Style, text string) string { return style.Inherit(sh.Bar).Render(text) }
	sep := paint(sh.Muted, " · ")

	label, glyph, stateStyle := s.State.String(), "●", sh.State
	switch {
	case s.State == Idle:
		label = "ready"
	case s.State == AwaitingApproval:
		stateStyle = sh.Alert
		fallthrough
	default:
		glyph = spinnerFrames[int(max(now.Sub(s.Started), 0)/pace.SpinnerStep)%len(spinnerFrames)]
	}
	state := paint(stateStyle, glyph+" "+label)
	if s.Mode != "" {
		state = paint(sh.Model, stream.SanitizeLine(s.Mode)) + sep + state
	}
	var elapsed string
	if s.State.Busy() && !s.Started.IsZero() {
		elapsed = paint(sh.Muted, Elapsed(now.Sub(s.Started)))
	}
	detail := stream.SanitizeLine(s.Detail)

	model := stream.SanitizeLine(s.Model)
	if model == "" {
		model = "no model"
	}
	ident := paint(sh.Model, model)
	if e := stream.SanitizeLine(s.Effort); e != "" {
		ident += paint(sh.Muted, " · "+e)
	}
	if p := providerLabel(s.Provider); p == "demo" {
		// the demo is no model: its badge, and the name its answers
		// carry (as /status says), not the configured model's
		gap := " "
		if sh.Badge.GetPaddingRight() > 0 {
			gap = "" // the badge carries its own
		}
		ident = sh.Badge.Render("DEMO") + paint(sh.Muted, gap+model)
	} else if n := stream.SanitizeLine(s.ProviderName); n != "" && n != "default" {
		ident += paint(sh.Muted, " @"+n) // the name is shorter than a host, and is what /provider takes
	} else if p != "" {
		ident += paint(sh.Muted, " @"+p)
	}
	if s.Mouse != "" {
		ident = paint(sh.Detail, s.Mouse) + sep + ident
	}
	if mcp := stream.SanitizeLine(s.MCP); mcp != "" {
		ident = paint(sh.Muted, mcp) + sep + ident
	}
	var turn, session, meter string
	if s.Meter != "" {
		meter = paint(sh.Muted, stream.SanitizeLine(s.Meter))
	}
	if !s.TurnUsage.IsZero() {
		turn = paint(sh.Muted, s.TurnUsage.String())
	}
	if !s.SessionUsage.IsZero() && s.SessionUsage != s.TurnUsage {
		session = paint(sh.Muted, "Σ "+s.SessionUsage.String())
	}

	inner := max(width-sh.Bar.GetHorizontalFrameSize(), 1)
	sepW := lipgloss.Width(sep)
	// Each step gives up one more piece, in the order the doc comment gives.
	for step := 0; ; step++ {
		left := []string{state}
		if elapsed != "" && step < 4 {
			left = append(left, elapsed)
		}
		var right []string
		if turn != "" && step < 2 {
			right = append(right, turn)
		}
		if session != "" && step < 1 {
			right = append(right, session)
		}
		if meter != "" && step < 4 {
			right = append(right, meter)
		}
		right = append(right, ident)
		l, r := strings.Join(left, sep), strings.Join(right, sep)
		if detail != "" && step < 3 {
			room := inner - lipgloss.Width(l) - lipgloss.Width(r) - sepW - 1
			dw := ansi.StringWidth(detail)
			switch {
			case dw <= room:
				l += sep + paint(sh.Detail, detail)
			case step == 2 && room >= 8:
				l += sep + paint(sh.Detail, ansi.Truncate(detail, room, "…"))
			default:
				continue // keep the detail whole until the usage is gone
			}
		}
		gap := inner - lipgloss.Width(l) - lipgloss.Width(r)
		if gap >= 1 || step >= 4 {
			line := l + paint(sh.Bar, strings.Repeat(" ", max(gap, 1))) + r
			if gap < 1 {
				line = ansi.Truncate(line, inner, "…")
				line += paint(sh.Bar, strings.Repeat(" ", max(inner-ansi.StringWidth(line), 0)))
			}
			return sh.Bar.Render(line)
		}
	}
}

// providerLabel is how the status line names a provider: "demo" as is, a
// base URL by its host, anything else sanitized.
func providerLabel(p string) string {
	p = stream.SanitizeLine(p)
	if rest, ok := strings.CutPrefix(p, "https://"); ok {
		p = rest
	} else if rest, ok := strings.CutPrefix(p, "http://"); ok {
		p = rest
	}
	host, _, _ := strings.Cut(p, "/")
	return host
}

// Hint is the one-line key hint for state with the default key map.
func Hint(width int, st *theme.Styles, state State) string {
	return DefaultKeyMap().Hint(width, st, state)
}

// Hint is the one-line key hint for state: what the keys do right now. Items
// that do not fit in width are dropped from the end.
func (k KeyMap) Hint(width int, st *theme.Styles, state State) string {
	return k.ModeHint(width, st, state, "")
}

// ModeHint is Hint in a mode of the keys (Status.Mode): in the
// transcript's navigation mode, its keys.
func (k KeyMap) ModeHint(width int, st *theme.Styles, state State, mode string) string {
	type item struct{ key, desc string }
	h := func(b key.Binding, desc string) item { return item{b.Help().Key, desc} }
	var items []item
	switch {
	case strings.HasPrefix(mode, "NAVIGATE"):
		n := k.Nav
		items = []item{h(n.Down, "down"), h(n.Up, "up"), {"]] [[", "turns"}, h(n.Search, "search"), h(n.Copy, "copy"), h(n.Toggle, "open"), h(n.Exit, "back")}
	case state == Idle:
		items = []item{h(k.Send, "send"), h(k.Newline, "newline"), {"/", "commands"}, h(k.Prev, "history"), h(k.Help, "keys")}
	case state == AwaitingApproval:
		for _, b := range []key.Binding{k.Approve, k.ApproveSession, k.Deny} { // the dialog's words
			items = append(items, h(b, b.Help().Desc))
		}
		items = append(items, item{"ctrl+c", "stop"}, h(k.ExpandTool, "details"), h(k.Help, "keys"))
	default:
		items = []item{h(k.Interrupt, "stop"), {"pgup/pgdn", "scroll"}, h(k.ToggleReasoning, "reasoning"), h(k.Help, "keys")}
	}
	sh := theme.ShellOf(st)
	sep := sh.HintSep.Render(" · ")
	sepW := lipgloss.Width(sep)
	var b strings.Builder
	used := 0
	for i, it := range items {
		piece := sh.HintKey.Render(it.key) + " " + sh.HintDesc.Render(it.desc)
		w := lipgloss.Width(piece)
		if i > 0 {
			w += sepW
		}
		if used+w > width {
			break
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(piece)
		used += w
	}
	return b.String()
}

// Elapsed formats a duration for the status line: "12s", "1m05s", "1h02m".
func Elapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return strconv.FormatInt(s, 10) + "s"
	case s < 3600:
		return strconv.FormatInt(s/60, 10) + "m" + pad2(s%60) + "s"
	default:
		return strconv.FormatInt(s/3600, 10) + "h" + pad2(s/60%60) + "m"
	}
}

func pad2(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// compactCount writes a token count in at most four characters plus a unit:
// 340, 1.2k, 12k, 340k, 1.2M.
func compactCount(n int64) string {
	switch {
	case n < 0:
		return "-" + compactCount(-n)
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case n < 10_000:
		return oneDecimal(n, 1000) + "k"
	case n < 1_000_000:
		return strconv.FormatInt(n/1000, 10) + "k"
	case n < 10_000_000:
		return oneDecimal(n, 1_000_000) + "M"
	default:
		return strconv.FormatInt(n/1_000_000, 10) + "M"
	}
}

// oneDecimal is n/unit rounded down to one decimal, without a trailing ".0".
func oneDecimal(n, unit int64) string {
	whole, tenth := n/unit, n%unit*10/unit
	if tenth == 0 {
		return strconv.FormatInt(whole, 10)
	}
	return strconv.FormatInt(whole, 10) + "." + strconv.FormatInt(tenth, 10)
}
