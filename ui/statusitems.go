package ui

// This file lays out the status line: the pieces Status.View draws (the
// default line or the items a [status_line] chose), and how they give way
// when room runs short (fitPieces).

import (
	"cmp"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/theme"
	"runnel/ui/pace"
)

// StatusLayout is a chosen status line ([status_line] items): the items of
// its right side in order, each one of StatusItems. Nobody changes it once
// built, so Status can point at it and stay comparable.
type StatusLayout struct {
	Items []string
}

// StatusItems are the items a [status_line] may choose, in the order the
// README lists them (session/config checks the names against its own copy
// of this list).
var StatusItems = []string{"model", "provider", "cost", "context", "tokens", "cache", "tier", "branch", "cwd", "git_branch", "time"}

// The ranks at which pieces give way when room is short, lowest first. A
// piece with no drop rank never goes: the state, the context fill, the cost
// and the provider.
const (
	rankSession  = 1 + iota // the session's usage (Σ …) goes
	rankMCPBrief            // the MCP summary shortens: "mcp 13 ⚠1"
	rankTurn                // the turn's usage goes
	rankCut                 // the detail and the command's output are cut
	rankDetail              // the detail goes
	rankCache               // the cache share goes
	rankEffort              // the effort goes
	rankElapsed             // the elapsed time goes
	rankExtras              // cwd, git branch, branch, time and the command's output go
	rankMouse               // "mouse off" goes
	rankMCP                 // the MCP summary goes
	rankModelCut            // the model's name is cut
	rankTier                // the fast mark goes
	rankModel               // the model's name goes
)

// piece is one part of the status line.
type piece struct {
	text, short     string         // styled; short is the form at shortAt ("" none)
	plain           string         // flex: the unstyled text, cut to the room left at shortAt
	style           lipgloss.Style // flex: the style of the cut text
	flex            int            // flex: the fewest cells worth showing; less and it waits for its drop
	shortAt, dropAt int            // ranks; 0 never
	right           bool           // on the right side
	lead            string         // joined with lead (" ") to the piece before when that one is glue and shows
	glue            bool           // a lead piece after it joins it: the model and its effort
}

// spins reports whether the status line shows the spinner: while the
// chat is busy in any way (not idle).
func (s Status) spins() bool { return s.State != Idle }

// spinnerFrame is the spinner's glyph d into a turn.
func spinnerFrame(d time.Duration) string {
	return spinnerFrames[int(d/pace.SpinnerStep)%len(spinnerFrames)]
}

// pieces are the status line's parts, in order: the left side, then the
// right.
func (s Status) pieces(now time.Time, sh theme.Shell) []piece {
	paint := func(style lipgloss.Style, text string) string { return style.Inherit(sh.Bar).Render(text) }
	plain := func(style lipgloss.Style, text string, shortAt, dropAt int) piece {
		return piece{text: paint(style, text), shortAt: shortAt, dropAt: dropAt}
	}
	var ps []piece

	label, glyph, stateStyle := s.State.String(), "●", sh.State
	switch {
	case !s.spins():
		label = "ready"
	case s.State == AwaitingApproval:
		stateStyle = sh.Alert
		fallthrough
	default:
		glyph = spinnerFrame(max(now.Sub(s.Started), 0))
	}
	if s.Mode != "" {
		ps = append(ps, plain(sh.Model, stream.SanitizeLine(s.Mode), 0, 0))
	}
	ps = append(ps, plain(stateStyle, glyph+" "+label, 0, 0))
	if s.State.Busy() && !s.Started.IsZero() {
		ps = append(ps, plain(sh.Muted, Elapsed(now.Sub(s.Started)), 0, rankElapsed))
	}
	if d := stream.SanitizeLine(s.Detail); d != "" {
		ps = append(ps, piece{text: paint(sh.Detail, d), plain: d, style: sh.Detail.Inherit(sh.Bar), flex: 8, shortAt: rankCut, dropAt: rankDetail})
	}

	var right []piece
	add := func(p ...piece) {
		for i := range p {
			p[i].right = true
		}
		right = append(right, p...)
	}
	if c := stream.SanitizeLine(s.Command); c != "" {
		add(piece{text: paint(sh.Detail, c), plain: c, style: sh.Detail.Inherit(sh.Bar), flex: 6, shortAt: rankCut, dropAt: rankExtras})
	}
	items := []string{"tokens", "context", "cost", "cache", "mcp", "mouse", "tier", "model", "provider"}
	if s.Layout != nil {
		items = append([]string{"mcp", "mouse"}, s.Layout.Items...)
	}
	for _, item := range items {
		add(s.item(item, sh, paint)...)
	}
	return append(ps, right...)
}

// item is the pieces of one status line item (statusItems; none for a
// name it does not list).
func (s Status) item(name string, sh theme.Shell, paint func(lipgloss.Style, string) string) []piece {
	if f := statusItems[name]; f != nil {
		return f(statusPen{sh, paint}, s)
	}
	return nil
}

// statusPen is what a status line item draws with.
type statusPen struct {
	sh    theme.Shell
	paint func(lipgloss.Style, string) string
}

// one is text as one piece in style that gives way at rank dropAt; none
// for "".
func (p statusPen) one(style lipgloss.Style, text string, dropAt int) []piece {
	if text == "" {
		return nil
	}
	return []piece{{text: p.paint(style, text), dropAt: dropAt}}
}

// prefixed is one piece of prefix and text, muted; none when text is "".
func (p statusPen) prefixed(prefix, text string, dropAt int) []piece {
	if text == "" {
		return nil
	}
	return p.one(p.sh.Muted, prefix+text, dropAt)
}

// statusItems draws each status line item from the status: what it shows,
// in which style, and at which rank it gives way (see fitPieces).
var statusItems = map[string]func(statusPen, Status) []piece{
	"tokens": statusPen.tokensItem,
	"context": func(p statusPen, s Status) []piece {
		return p.prefixed("ctx ", stream.SanitizeLine(s.Meter.Ctx), 0)
	},
	"cost": func(p statusPen, s Status) []piece { return p.one(p.sh.Muted, stream.SanitizeLine(s.Meter.Cost), 0) },
	"cache": func(p statusPen, s Status) []piece {
		return p.one(p.sh.Muted, stream.SanitizeLine(s.Meter.Cache), rankCache)
	},
	"mcp":      statusPen.mcpItem,
	"mouse":    func(p statusPen, s Status) []piece { return p.one(p.sh.Detail, s.Mouse, rankMouse) },
	"tier":     statusPen.tierItem,
	"model":    statusPen.modelItem,
	"provider": statusPen.providerItem,
	"branch": func(p statusPen, s Status) []piece {
		return p.one(p.sh.Muted, stream.SanitizeLine(s.Branch), rankExtras)
	},
	"cwd": func(p statusPen, s Status) []piece {
		c := stream.SanitizeLine(s.Cwd)
		if c == "" {
			return nil
		}
		return []piece{{text: p.paint(p.sh.Muted, c), plain: c, style: p.sh.Muted.Inherit(p.sh.Bar), flex: 8, shortAt: rankCut, dropAt: rankExtras}}
	},
	"git_branch": func(p statusPen, s Status) []piece {
		return p.prefixed("git:", stream.SanitizeLine(s.GitBranch), rankExtras)
	},
	"time": func(p statusPen, s Status) []piece { return p.one(p.sh.Muted, s.Clock, rankExtras) },
}

// tokensItem is the turn's usage, and the session's when it differs.
func (p statusPen) tokensItem(s Status) []piece {
	var ps []piece
	if !s.TurnUsage.IsZero() {
		ps = append(ps, piece{text: p.paint(p.sh.Muted, s.TurnUsage.String()), dropAt: rankTurn})
	}
	if !s.SessionUsage.IsZero() && s.SessionUsage != s.TurnUsage {
		ps = append(ps, piece{text: p.paint(p.sh.Muted, "Σ "+s.SessionUsage.String()), dropAt: rankSession})
	}
	return ps
}

// mcpItem is the MCP servers' state, with its brief form for a short line.
func (p statusPen) mcpItem(s Status) []piece {
	full := stream.SanitizeLine(s.MCP)
	if full == "" {
		return nil
	}
	pc := piece{text: p.paint(p.sh.Muted, full), dropAt: rankMCP}
	if b := stream.SanitizeLine(s.MCPBrief); b != "" && b != full {
		pc.short, pc.shortAt = p.paint(p.sh.Muted, b), rankMCPBrief
	}
	return []piece{pc}
}

// tierItem is the service tier: "fast" for priority (/fast).
func (p statusPen) tierItem(s Status) []piece {
	switch t := stream.SanitizeLine(s.Tier); t {
	case "":
		return nil
	case "priority":
		return p.one(p.sh.State, "fast", rankTier) // /fast
	default:
		return p.one(p.sh.Muted, "tier "+t, rankTier)
	}
}

// modelItem is the model and its reasoning effort; none in the demo, whose
// badge (its provider item) names both.
func (p statusPen) modelItem(s Status) []piece {
	if providerLabel(s.Provider) == "demo" {
		return nil
	}
	model := cmp.Or(stream.SanitizeLine(s.Model), "no model")
	ps := []piece{{text: p.paint(p.sh.Model, model), plain: model, style: p.sh.Model.Inherit(p.sh.Bar), flex: 6, shortAt: rankModelCut, dropAt: rankModel, glue: true}}
	if e := stream.SanitizeLine(s.Effort); e != "" {
		ps = append(ps, piece{text: p.paint(p.sh.Muted, "· "+e), lead: " ", dropAt: rankEffort, glue: true})
	}
	return ps
}

// providerItem is the provider: its configured name, else its host's
// label; in the demo its badge and the model its answers carry.
func (p statusPen) providerItem(s Status) []piece {
	if providerLabel(s.Provider) == "demo" {
		// the demo is no model: its badge, and the name its answers
		// carry (as /status says), not the configured model's
		gap := " "
		if p.sh.Badge.GetPaddingRight() > 0 {
			gap = "" // the badge carries its own
		}
		return []piece{{text: p.sh.Badge.Render("DEMO") + p.paint(p.sh.Muted, gap+cmp.Or(stream.SanitizeLine(s.Model), "no model")), lead: " "}} // WithDemo names the demo's model
	}
	if n := stream.SanitizeLine(s.ProviderName); n != "" && n != "default" {
		return []piece{{text: p.paint(p.sh.Muted, "@"+n), lead: " "}} // the name is shorter than a host, and is what /provider takes
	}
	if l := providerLabel(s.Provider); l != "" {
		return []piece{{text: p.paint(p.sh.Muted, "@"+l), lead: " "}}
	}
	return nil
}

// fitPieces joins the pieces into a line of exactly inner cells: the left
// side, a gap, the right side. While they do not fit, the next rank gives
// way: its pieces take their short form (a flex piece is cut to the room
// left) or go. What still does not fit is cut.
func fitPieces(ps []piece, inner int, sh theme.Shell) string {
	paint := func(style lipgloss.Style, text string) string { return style.Inherit(sh.Bar).Render(text) }
	sep := paint(sh.Muted, " · ")
	sepW := lipgloss.Width(sep)
	const (
		full = iota
		short
		gone
	)
	form := make([]int, len(ps))
	text := make([]string, len(ps))
	for i, p := range ps {
		text[i] = p.text
	}
	// join writes one side, skipping index skip; its width comes too
	join := func(right bool, skip int) (string, int) {
		var b strings.Builder
		w, prev := 0, -1
		for i, p := range ps {
			if p.right != right || form[i] == gone || i == skip {
				continue
			}
			switch {
			case prev < 0:
			case p.lead != "" && ps[prev].glue && ps[prev].right == p.right:
				b.WriteString(paint(sh.Muted, p.lead))
				w += ansi.StringWidth(p.lead)
			default:
				b.WriteString(sep)
				w += sepW
			}
			b.WriteString(text[i])
			w += lipgloss.Width(text[i])
			prev = i
		}
		return b.String(), w
	}
	// cut fits each flex piece in its short form to the room the others leave
	cut := func() {
		for i, p := range ps {
			if p.flex == 0 || form[i] != short {
				continue
			}
			_, lw := join(false, i)
			_, rw := join(true, i)
			room := inner - lw - rw - sepW - 1
			if room >= p.flex {
				text[i] = p.style.Render(ansi.Truncate(p.plain, room, "…"))
			} else {
				text[i] = p.style.Render(ansi.Truncate(p.plain, p.flex, "…")) // too long still: its drop comes
			}
		}
	}
	fits := func() (string, bool) {
		cut()
		l, lw := join(false, -1)
		r, rw := join(true, -1)
		gap := inner - lw - rw
		return l + paint(sh.Bar, strings.Repeat(" ", max(gap, 1))) + r, gap >= 1
	}
	line, ok := fits()
	for rank := 1; !ok && rank <= rankModel; rank++ {
		for i, p := range ps {
			switch {
			case p.dropAt == rank:
				form[i] = gone
			case p.shortAt == rank && (p.short != "" || p.flex > 0):
				form[i] = short
				if p.short != "" {
					text[i] = p.short
				}
			}
		}
		line, ok = fits()
	}
	if !ok {
		line = ansi.Truncate(line, inner, "…")
		line += paint(sh.Bar, strings.Repeat(" ", max(inner-ansi.StringWidth(line), 0)))
	}
	return line
}
