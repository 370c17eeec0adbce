package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/theme"
)

// welcomeEntry is the first screen's text, before the first message: what
// runnel is, how to start, and in demo mode what the demo can show and how
// to reach a real model. It stays at the top of the transcript.
//
// Invariants: lines are fixed when it is built (the model and provider
// sanitized); out caches the render for (width, styles).
type welcomeEntry struct {
	demo     bool
	model    string
	provider string
	fs       *frameState
	idx      int
	width    int
	styles   *theme.Styles
	out      string
}

func newWelcome(o Options, model string, fs *frameState) *welcomeEntry {
	return &welcomeEntry{demo: o.Provider == "demo", model: stream.SanitizeLine(model), provider: providerLabel(o.Provider), fs: fs}
}

// welcomeRow is one row: a heading, or pairs of key and what it does.
type welcomeRow struct {
	head  string
	text  string
	pairs []string
}

func (e *welcomeEntry) rows() []welcomeRow {
	keys := welcomeRow{pairs: []string{"enter", "send", "ctrl+j", "new line", "/", "commands", "?", "every key", "ctrl+c ×2", "quit"}}
	if e.demo {
		return []welcomeRow{
			{head: "runnel demo", text: " — no API key is set, so the answers come from a built-in script, not a model."},
			{text: "Ask anything for a tour, or name a showcase: markdown · weather (tool calls, web search) · mcp · deploy (approvals) · fail (errors)."},
			{text: "To talk to a model, set OPENAI_API_KEY (or api_key_env / api_key_command in the config) and start runnel again."},
			keys,
		}
	}
	where := ""
	if e.provider != "" {
		where = " at " + e.provider
	}
	model := e.model
	if model == "" {
		model = "the configured model"
	}
	return []welcomeRow{
		{head: "runnel", text: " — a terminal chat with " + model + where + ". Type a message and press enter."},
		keys,
		{pairs: []string{"↑", "earlier prompts", "ctrl+g", "search them", "ctrl+s", "saved sessions", "runnel -c", "continue the last one"}},
	}
}

func (e *welcomeEntry) View(width int) string {
	st := e.fs.styles
	if e.out != "" && e.width == width && e.styles == st {
		return e.out
	}
	sh := theme.ShellOf(st)
	var lines []string
	for _, r := range e.rows() {
		var b strings.Builder
		if r.head != "" {
			b.WriteString(sh.HelpTitle.Render(r.head))
		}
		if r.text != "" {
			b.WriteString(sh.HelpDesc.Render(r.text))
		}
		for i := 0; i+1 < len(r.pairs); i += 2 {
			if i > 0 {
				b.WriteString(sh.Muted.Render(" · "))
			}
			b.WriteString(sh.HelpKey.Render(r.pairs[i]) + " " + sh.Muted.Render(r.pairs[i+1]))
		}
		lines = append(lines, strings.Split(ansi.Wrap(b.String(), max(width, 1), " "), "\n")...)
	}
	e.width, e.styles, e.out = width, st, strings.Join(lines, "\n")
	return e.out
}

func (e *welcomeEntry) Live() bool     { return false }
func (e *welcomeEntry) setIndex(i int) { e.idx = i }
