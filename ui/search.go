package ui

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/store"
	"runnel/stream"
	"runnel/theme"
)

// SearchResults lists the hits of /search QUERY: per hit the session's
// title, the turn and a snippet with the matched words highlighted. up/down
// select, enter opens the session at that turn, esc closes.
//
// Invariants:
//   - hits are in the order given (best first); their text is cut at the
//     match spans and cleaned piece by piece when the dialog is built, so
//     View only measures and styles.
//   - cur is a listCursor over hits (cur.Len() == len(hits)).
type SearchResults struct {
	styles *theme.Styles
	query  string // sanitized
	hits   []searchHit
	cur    listCursor
	keys   SearchKeys
	help   bool // "?" shows the keys
}

// searchHit is a hit made ready to draw.
type searchHit struct {
	session store.SessionID
	turn    int         // the stored turn's Seq, to open it at
	number  int         // the user turn it belongs to, as lists count turns
	title   string      // sanitized
	snippet []snipPiece // cleaned pieces, the matches marked
}

// snipPiece is a run of text that is safe to print, a match or not.
type snipPiece struct {
	text string
	mark bool
}

// NewSearchResults shows hits (as store.Search returns them) for query.
func NewSearchResults(query string, hits []store.Hit, st *theme.Styles) SearchResults {
	r := SearchResults{styles: st, query: stream.SanitizeLine(query), keys: DefaultSearchKeys()}
	for _, h := range hits {
		title := stream.SanitizeLine(h.Title)
		if title == "" {
			title = "untitled"
		}
		number := h.UserTurn
		if number == 0 {
			number = h.Turn
		}
		r.hits = append(r.hits, searchHit{session: h.Session, turn: h.Turn, number: number, title: title, snippet: markedPieces(h.Snippet, h.Marks)})
	}
	r.cur = newListCursor(len(r.hits))
	return r
}

// Update handles keys.
func (r SearchResults) Update(msg tea.Msg) (SearchResults, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return r, nil
	}
	if r.help {
		r.help = helpToggle(k, r.keys.Help)
		return r, nil
	}
	switch {
	case key.Matches(k, r.keys.Close):
		return r, msgCmd(DialogClosedMsg{})
	case key.Matches(k, r.keys.Open):
		if len(r.hits) == 0 {
			return r, nil
		}
		h := r.hits[r.cur.Sel()]
		return r, msgCmd(OpenSessionMsg{ID: h.session, Turn: h.turn})
	case key.Matches(k, r.keys.Help):
		r.help = true
	default:
		r.keys.List.Move(k, &r.cur)
	}
	return r, nil
}

// View draws the title, two lines per visible hit (the selected one kept in
// view) and a key hint.
func (r SearchResults) View(width, height int) string {
	if r.help {
		return dialogHelpView(r.styles, "Search", r.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(r.styles)
	title := d.Title.Render("Search") + d.Meta.Render(" “"+r.query+"”")
	if len(r.hits) == 0 {
		return fitLines([]string{title, d.Empty.Render("no matches for “" + r.query + "”"), dialogHint(d, width, "esc", "close")}, width, height)
	}
	lines := []string{title + d.Meta.Render(" · "+countNoun(len(r.hits), "match", "matches"))}
	rows := max((height-2)/2, 1)
	first := r.cur.Window(rows)
	for i := first; i < min(first+rows, len(r.hits)); i++ {
		h := r.hits[i]
		base, mark := d.Item, "  "
		if i == r.cur.Sel() {
			base, mark = d.Selected, d.Marker.Render("› ")
		}
		turn := "turn " + strconv.Itoa(h.number)
		room := max(width-4-ansi.StringWidth(turn), 1)
		lines = append(lines,
			mark+base.Render(ansi.Truncate(h.title, room, "…"))+d.Meta.Render(" · "+turn),
			"    "+fitSnippet(h.snippet, max(width-4, 1), d.Preview, d.Match))
	}
	return fitFoot(lines, []string{dialogHint(d, width, "↑/↓", "select", "enter", "open", "esc", "close", "?", "keys")}, width, height)
}

// markedPieces cuts s at the byte spans marks (clamped to s, sorted,
// overlaps merged) and only then cleans each piece: sanitizing first would
// move the bytes the spans point at. Newlines and tabs become spaces; empty
// pieces are dropped.
func markedPieces(s string, marks []store.Span) []snipPiece {
	var out []snipPiece
	add := func(text string, mark bool) {
		text = stream.Sanitize(text)
		text = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\t' {
				return ' '
			}
			return r
		}, text)
		if text != "" {
			out = append(out, snipPiece{text, mark})
		}
	}
	at := 0
	for _, sp := range cleanSpans(marks, len(s)) {
		if sp.Start > at {
			add(s[at:sp.Start], false)
		}
		add(s[sp.Start:sp.End], true)
		at = sp.End
	}
	if at < len(s) {
		add(s[at:], false)
	}
	return out
}

// cleanSpans clamps spans to [0, n), drops empty ones, sorts them and
// merges overlapping or touching ones.
func cleanSpans(spans []store.Span, n int) []store.Span {
	var out []store.Span
	for _, sp := range spans {
		sp.Start, sp.End = max(sp.Start, 0), min(sp.End, n)
		if sp.Start < sp.End {
			out = append(out, sp)
		}
	}
	slices.SortFunc(out, func(a, b store.Span) int { return cmp.Compare(a.Start, b.Start) })
	merged := out[:0]
	for _, sp := range out {
		if k := len(merged) - 1; k >= 0 && sp.Start <= merged[k].End {
			merged[k].End = max(merged[k].End, sp.End)
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// renderPieces styles each piece: marks with hl, the rest with base.
func renderPieces(segs []snipPiece, base, hl lipgloss.Style) string {
	var b strings.Builder
	for _, s := range segs {
		if s.mark {
			b.WriteString(hl.Render(s.text))
		} else {
			b.WriteString(base.Render(s.text))
		}
	}
	return b.String()
}

// fitSnippet draws segs in width cells. When the first match would fall
// past the right edge, the front is cut (and marked "…") so that the match
// sits about a third of the way in; the end is cut with "…" as needed.
func fitSnippet(segs []snipPiece, width int, base, hl lipgloss.Style) string {
	total, markEnd := 0, -1
	for _, s := range segs {
		total += ansi.StringWidth(s.text)
		if s.mark && markEnd < 0 {
			markEnd = total
		}
	}
	if total > width && markEnd > width-1 {
		drop := markEnd - width*2/3
		var kept []snipPiece
		for _, s := range segs {
			w := ansi.StringWidth(s.text)
			switch {
			case drop >= w:
				drop -= w
				continue
			case drop > 0:
				s.text = ansi.TruncateLeft(s.text, drop, "")
				drop = 0
			}
			kept = append(kept, s)
		}
		segs = append([]snipPiece{{text: "…"}}, kept...)
	}
	return ansi.Truncate(renderPieces(segs, base, hl), width, "…")
}
