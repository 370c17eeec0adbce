package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
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
	keys     KeyMap // the keys it names
}

func newWelcome(o Options, model string, fs *frameState) *welcomeEntry {
	return &welcomeEntry{demo: o.Provider == "demo", model: stream.SanitizeLine(model), provider: providerLabel(o.Provider), fs: fs, keys: NewKeyMap(o.Keys)}
}

// welcomeRow is one row: a heading, or pairs of key and what it does.
type welcomeRow struct {
	head  string
	text  string
	pairs []string
}

func (e *welcomeEntry) rows() []welcomeRow {
	keys := welcomeKeys(e.keys)
	if e.demo {
		return []welcomeRow{
			{head: "runnel demo", text: " — no API key is set, so the answers come from a built-in script (" + e.model + "), not a model."},
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
	}
}

// welcomeKeys is the welcome's row of keys: only those the key hint under
// the status line does not show (it shows the keys of the moment, and
// says it in its own words, so the welcome does not repeat it), with the
// words "?" uses for them.
func welcomeKeys(k KeyMap) welcomeRow {
	var pairs []string
	for _, b := range []key.Binding{k.HistorySearch, k.Sessions, k.Navigate, k.Quit} {
		if b.Enabled() {
			pairs = append(pairs, b.Help().Key, b.Help().Desc)
		}
	}
	return welcomeRow{pairs: append(pairs, "runnel -c", "continue the last session")}
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
		if r.head != "" || r.text != "" {
			lines = append(lines, strings.Split(ansi.Wrap(b.String(), max(width, 1), " "), "\n")...)
		}
		lines = append(lines, pairRows(sh, r.pairs, max(width, 1))...)
	}
	e.width, e.styles, e.out = width, st, strings.Join(lines, "\n")
	return e.out
}

// pairRows lays out pairs of key and what it does in rows of at most width
// cells, breaking only between pairs, so no key is parted from what it
// does and no row starts with a separator; a pair wider than a row alone
// is wrapped.
func pairRows(sh theme.Shell, pairs []string, width int) []string {
	var rows []string
	var b strings.Builder
	used := 0
	sep := sh.Muted.Render(" · ")
	for i := 0; i+1 < len(pairs); i += 2 {
		piece := sh.HelpKey.Render(pairs[i]) + " " + sh.Muted.Render(pairs[i+1])
		w := ansi.StringWidth(piece)
		if used > 0 && used+3+w > width {
			rows = append(rows, b.String())
			b.Reset()
			used = 0
		}
		if used > 0 {
			b.WriteString(sep)
			used += 3
		}
		b.WriteString(piece)
		used += w
	}
	if used > 0 {
		rows = append(rows, b.String())
	}
	var out []string
	for _, r := range rows {
		out = append(out, strings.Split(ansi.Wrap(r, width, " "), "\n")...)
	}
	return out
}

func (e *welcomeEntry) Live() bool     { return false }
func (e *welcomeEntry) setIndex(i int) { e.idx = i }
