package block

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/ui/textwrap"
)

// tabWidth is how many spaces a tab becomes. Tabs are expanded before any
// width is measured: a terminal moves a tab to its next stop, so a line
// measured with tabs as zero columns could overflow.
const tabWidth = 4

// clean makes untrusted multi-line text safe to style: escape sequences and
// controls go (stream.Sanitize), tabs become spaces.
func clean(s string) string {
	s = stream.Sanitize(s)
	if strings.IndexByte(s, '\t') >= 0 {
		s = strings.ReplaceAll(s, "\t", strings.Repeat(" ", tabWidth))
	}
	return s
}

// growing cleans a text that grows at its end (a streaming message): the
// part already cleaned is not scanned, nor copied, again. While clean leaves
// the text as it is, the text is its own clean; from its first tab or
// control on, the clean text is kept in out, which only grows, so each call
// writes what is new (a Go answer's first tab made every later call copy
// the whole answer: 21 MB of a paced 40 KB answer's 127).
//
// Invariants: clean(raw) == clean(raw[:done]) + clean(raw[done:]) however
// raw grows (done is where stream.SafeLen stopped); when own, out holds
// clean(raw[:done]), else raw[:done] is its own clean.
type growing struct {
	raw  string
	done int
	own  bool
	out  strings.Builder // never reset in place: the strings it gave out share its bytes
}

// clean returns clean(s), scanning only what follows the part cleaned
// already, when s still starts with it.
func (g *growing) clean(s string) string {
	if g.done > len(s) || s[:g.done] != g.raw[:g.done] {
		*g = growing{}
	}
	g.raw = s
	rest := s[g.done:]
	n := stream.SafeLen(rest)
	if !g.own {
		k := n
		if i := strings.IndexByte(rest[:n], '\t'); i >= 0 {
			k = i
		}
		g.done += k
		if g.done == len(s) {
			return s
		}
		g.own = true // a tab or a control: from here on clean copies
		g.out.WriteString(s[:g.done])
		rest, n = rest[k:], n-k
	}
	piece := rest[:n]
	if strings.IndexByte(piece, '\t') >= 0 {
		piece = strings.ReplaceAll(piece, "\t", strings.Repeat(" ", tabWidth))
	}
	g.out.WriteString(piece)
	g.done += n
	if g.done == len(s) {
		return g.out.String()
	}
	return g.out.String() + clean(s[g.done:]) // from a control on: scanned again until the text changes
}

// cleanLine is clean for one-line values (names, titles, URLs, errors):
// whitespace runs fold to one space.
func cleanLine(s string) string { return stream.SanitizeLine(s) }

// wrap breaks plain text (already cleaned) into lines of at most width
// columns, at spaces where it can and inside words wider than a line
// where it must (textwrap.Words: a URL that fits a line is not split).
func wrap(s string, width int) []string {
	width = max(width, 1)
	out := textwrap.Words(s, width, 0)
	for i, l := range out {
		out[i] = fit(strings.TrimRight(l, " "), width)
	}
	return out
}

// fit truncates a (possibly styled) line to width columns.
func fit(line string, width int) string {
	if ansi.StringWidth(line) <= width {
		return line
	}
	return ansi.Truncate(line, max(width, 0), "…")
}

// pad right-pads a (possibly styled) line with spaces to width columns.
func pad(line string, width int) string {
	if w := ansi.StringWidth(line); w < width {
		return line + strings.Repeat(" ", width-w)
	}
	return line
}

// splitLines splits rendered output into rows; "" has none.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// paint styles each line on its own, so a style never spans a newline (and
// lipgloss never pads the lines of a block to a common width).
func paint(render func(...string) string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == "" {
			continue
		}
		out[i] = render(l)
	}
	return out
}

// plural returns "1 part", "2 parts".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
