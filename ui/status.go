package ui

import (
	"cmp"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/theme"
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
// it. It holds no behaviour: time comes in as a parameter. It stays
// comparable (the status bar memoizes on it): Layout is a pointer to a
// layout nobody changes.
type Status struct {
	Model, Provider         string    // Model as the server reported it (configured until it has); Provider "demo" gets a badge
	ProviderName            string    // the provider's name in the config ("ollama"); "default" and "" show Provider's host
	Effort                  string    // the reasoning effort asked for; "" when the server chooses
	MCP                     string    // "mcp: 2 servers, 14 tools" when local MCP servers run
	MCPBrief                string    // the same when room is short: "mcp 14 ⚠1"
	State                   State     // what the chat is doing
	Detail                  string    // the reasoning title, "retry in 3s", …; untrusted
	Started                 time.Time // the turn's start, for the elapsed time
	TurnUsage, SessionUsage Usage
	Meter                   Meter  // context fill, cost and cache share (models.go)
	Mouse                   string // "mouse off" while the terminal has the mouse (selection.go)
	Mode                    string // the keys' mode: NORMAL, INSERT, NAVIGATE (vi preset); "" for none
	Tier                    string // the service tier asked for: "priority" (/fast) shows a mark

	// what a chosen status line ([status_line], statusitems.go) adds
	Layout    *StatusLayout // nil: the default line
	Branch    string        // "2/3": the branch shown, of how many; "" when there is one
	Cwd       string        // the working directory, ~ for home
	GitBranch string        // the git branch of the working directory, "" outside one
	Command   string        // the first line of the status command's output, sanitized
	Clock     string        // "15:04", when the line shows the time
}

// Meter is the metering child's figures for the status line, each ""
// when unknown: the context window's fill ("42%"), the session's cost
// ("$0.0045", "≥ $0.0045" when a response's usage never came) and its
// prompt-cache share ("cache 83%").
type Meter struct{ Ctx, Cost, Cache string }

// spinnerFrames animate busy states; the frame is chosen from the clock so
// View stays pure and the root's frame tick is the only timer.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// View draws the status line: what is happening on the left; usage, cost
// and the model on the right (or the items a [status_line] chose). It is one
// line of exactly width cells and never wraps. When room runs short each
// piece gives way in the order of its rank (statusitems.go): the session
// usage goes first, the MCP summary shortens ("mcp 13 ⚠1"), the turn usage
// goes, the detail is cut then goes, and so on; the state, the context
// fill, the cost and the provider stay at every width from 60 columns, the
// model's name cut first. Below that the line is cut.
func (s Status) View(width int, now time.Time, st *theme.Styles) string {
	if width <= 0 {
		return ""
	}
	sh := theme.ShellOf(st)
	pieces := s.pieces(now, sh)
	inner := max(width-sh.Bar.GetHorizontalFrameSize(), 1)
	line := fitPieces(pieces, inner, sh)
	return sh.Bar.Render(line)
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
// transcript's navigation mode, its keys. When they do not all fit, the
// words that have a shorter form take it ("a/y once · s session · d/n
// deny" while an approval waits) when those items would not fit whole, so
// the answers stay.
func (k KeyMap) ModeHint(width int, st *theme.Styles, state State, mode string) string {
	type item struct{ key, desc, short string }
	h := func(b key.Binding, desc string) item { return item{b.Help().Key, desc, ""} }
	var items []item
	switch {
	case strings.HasPrefix(mode, "NAVIGATE"):
		n := k.Nav
		items = []item{h(n.Down, "down"), h(n.Up, "up"), {"]] [[", "turns", ""}, h(n.Search, "search"), h(n.Copy, "copy"), h(n.Toggle, "open"), h(n.Exit, "back")}
	case state == Idle:
		items = []item{h(k.Send, "send"), h(k.Newline, "newline"), {"/", "commands", ""}, h(k.Prev, "history"), h(k.Help, "keys")}
	case state == AwaitingApproval:
		for _, b := range []key.Binding{k.Approve, k.ApproveSession, k.Deny} { // the dialog's words
			short := cmp.Or(shortAnswer(b.Help().Desc), b.Help().Desc) // every answer counts in the room they need
			items = append(items, item{b.Help().Key, b.Help().Desc, short})
		}
		items = append(items, item{"ctrl+c", "stop", ""}, h(k.ExpandTool, "details"), h(k.Help, "keys"))
	default:
		items = []item{h(k.Interrupt, "stop"), {"pgup/pgdn", "scroll", ""}, h(k.ToggleReasoning, "reasoning"), h(k.Help, "keys")}
	}
	sh := theme.ShellOf(st)
	sep := sh.HintSep.Render(" · ")
	sepW := lipgloss.Width(sep)
	need, last := 0, 0 // the cells up to the last item with a shorter form
	for i, it := range items {
		need += ansi.StringWidth(it.key) + 1 + ansi.StringWidth(it.desc)
		if i > 0 {
			need += sepW
		}
		if it.short != "" {
			last = need
		}
	}
	if last > width {
		for i := range items {
			if items[i].short != "" {
				items[i].desc = items[i].short
			}
		}
	}
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

// shortAnswer is an approval answer's word when room is short: "approve
// once" → "once", "approve for the session" → "session"; "" keeps it.
func shortAnswer(desc string) string {
	switch desc {
	case "approve once":
		return "once"
	case "approve for the session":
		return "session"
	}
	return ""
}
