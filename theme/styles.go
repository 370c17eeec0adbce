package theme

import (
	"charm.land/lipgloss/v2"
)

// Styles are the lipgloss styles of every part of the interface, built once
// from a palette by New.
type Styles struct {
	Palette Palette

	Base, Muted, Subtle, Bold, Italic lipgloss.Style
	Accent, Accent2                   lipgloss.Style

	User       lipgloss.Style // the user's prompt block
	UserLabel  lipgloss.Style
	Assistant  lipgloss.Style
	Refusal    lipgloss.Style
	Commentary lipgloss.Style // commentary-phase messages, dimmer than answers

	ReasoningHeader lipgloss.Style // the collapsed one-liner
	ReasoningBody   lipgloss.Style

	Panel        lipgloss.Style // rounded border around a tool or MCP panel
	PanelTitle   lipgloss.Style
	PanelIcon    lipgloss.Style
	PanelRunning lipgloss.Style
	PanelDone    lipgloss.Style
	PanelFailed  lipgloss.Style
	PanelLabel   lipgloss.Style // "args", "output", …
	Preview      lipgloss.Style // output preview text
	DiffAdd      lipgloss.Style
	DiffDel      lipgloss.Style

	Error, Warning, Notice, Success lipgloss.Style
	Link                            lipgloss.Style
	Selection                       lipgloss.Style
	Highlight                       lipgloss.Style // search matches

	StatusBar     lipgloss.Style
	StatusModel   lipgloss.Style
	StatusState   lipgloss.Style
	StatusElapsed lipgloss.Style
	StatusUsage   lipgloss.Style
	StatusDemo    lipgloss.Style // the "demo" badge
	Hint          lipgloss.Style
	HintKey       lipgloss.Style
	NewLines      lipgloss.Style // "↓ N new lines"
}

// New builds the styles of a palette.
func New(p Palette) Styles {
	fg := func(c any) lipgloss.Style { return lipgloss.NewStyle().Foreground(asColor(c)) }
	s := Styles{Palette: p}
	s.Base = fg(p.Fg)
	s.Muted = fg(p.Muted)
	s.Subtle = fg(p.Subtle)
	s.Bold = lipgloss.NewStyle().Bold(true)
	s.Italic = lipgloss.NewStyle().Italic(true)
	s.Accent = fg(p.Accent).Bold(true)
	s.Accent2 = fg(p.Accent2)

	s.User = fg(p.User).BorderStyle(lipgloss.ThickBorder()).BorderLeft(true).BorderForeground(p.User).PaddingLeft(1)
	s.UserLabel = fg(p.User).Bold(true)
	s.Assistant = fg(p.Assistant)
	s.Refusal = fg(p.Error).Italic(true)
	s.Commentary = fg(p.Muted).Italic(true)

	s.ReasoningHeader = fg(p.Reasoning).Italic(true)
	s.ReasoningBody = fg(p.Muted).BorderStyle(lipgloss.NormalBorder()).BorderLeft(true).BorderForeground(p.Reasoning).PaddingLeft(1)

	s.Panel = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Border).Padding(0, 1)
	s.PanelTitle = fg(p.Tool).Bold(true)
	s.PanelIcon = fg(p.Tool)
	s.PanelRunning = fg(p.Warning)
	s.PanelDone = fg(p.Success)
	s.PanelFailed = fg(p.Error).Bold(true)
	s.PanelLabel = fg(p.Muted)
	s.Preview = fg(p.Muted)
	s.DiffAdd = fg(p.Success)
	s.DiffDel = fg(p.Error)

	s.Error = fg(p.Error).Bold(true)
	s.Warning = fg(p.Warning)
	s.Notice = fg(p.Muted).Italic(true)
	s.Success = fg(p.Success)
	s.Link = fg(p.Link).Underline(true)
	s.Selection = lipgloss.NewStyle().Background(asColor(p.Selection)).Bold(true)
	s.Highlight = fg(p.Accent).Bold(true).Underline(true)

	s.StatusBar = fg(p.Muted)
	s.StatusModel = fg(p.Accent).Bold(true)
	s.StatusState = fg(p.Accent2)
	s.StatusElapsed = fg(p.Muted)
	s.StatusUsage = fg(p.Subtle)
	s.StatusDemo = lipgloss.NewStyle().Foreground(asColor(p.Warning)).Bold(true).Reverse(true).Padding(0, 1)
	s.Hint = fg(p.Subtle)
	s.HintKey = fg(p.Muted).Bold(true)
	s.NewLines = fg(p.Accent).Bold(true).Reverse(true).Padding(0, 1)
	if p.NoColor {
		s.Selection = lipgloss.NewStyle().Reverse(true)
		s.StatusDemo = lipgloss.NewStyle().Bold(true).Reverse(true).Padding(0, 1)
	}
	return s
}
