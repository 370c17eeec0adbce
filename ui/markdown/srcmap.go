package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"
)

// This file maps rendered rows back to the markdown source that produced
// them, for a selection that copies the source rather than the screen.

// NoSource marks a cell that no source byte produced: a bullet, a table
// border, a quote bar, padding, an indent or a hard wrap.
const NoSource = -1

// mapLines is how many source lines, blank ones aside, the search for one
// rendered character may pass: a table's delimiter row or a fence line
// sits between two rendered rows, and nothing longer ever does.
const mapLines = 2

// mapBytes bounds how far find looks: what it scans per cell.
const mapBytes = 4096

// SourceMap returns, for each rendered row, the source byte offset of each
// of its cells (NoSource for what the renderer added), in cells: a wide rune
// fills two cells with one offset. rows are styled rows as a Renderer or
// Stream drew src (escape sequences are skipped).
//
// The rows are aligned with the source in one pass, never going back: each
// rendered character is the next equal character of the source, looked for
// no further than mapLines non-blank source lines ahead (what the renderer
// adds, like "•" or "│", is found nowhere near and maps to NoSource); a
// rendered space is a source space only when the source is at one. Markdown
// keeps its text in order (markers are dropped, wraps fall on spaces), so
// every character of the text maps to the byte that wrote it: the span
// between two mapped cells is exactly the source between them, soft line
// breaks and markers included, with no wrap or indent the renderer added.
// It costs O(len(src) + cells × mapBytes) at worst (a decoration is looked
// for at most mapBytes ahead), once per selection, not per frame.
func SourceMap(src string, rows []string) [][]int {
	out := make([][]int, len(rows))
	p := 0
	for i, row := range rows {
		plain := ansi.Strip(row)
		cells := make([]int, 0, len(plain))
		for _, r := range plain {
			w := runewidth.RuneWidth(r)
			if w == 0 {
				continue
			}
			at := NoSource
			if r == ' ' {
				if p < len(src) && src[p] == ' ' {
					at, p = p, p+1
				}
			} else if q := find(src, p, r); q >= 0 {
				at, p = q, q+utf8.RuneLen(r)
			}
			for range w {
				cells = append(cells, at)
			}
		}
		out[i] = cells
	}
	return out
}

// find is the offset of r in src at or after p, no further than mapLines
// non-blank lines past p's nor mapBytes past p (markup the renderer drops
// between two characters, a link's URL, is shorter: a decoration on every
// row of one long quoted line must not scan the rest of it), or -1.
func find(src string, p int, r rune) int {
	lines := 0
	for q := p; q < len(src) && q-p < mapBytes; {
		c, n := utf8.DecodeRuneInString(src[q:])
		if c == r {
			return q
		}
		if c == '\n' {
			if rest := src[q+1:]; strings.TrimLeft(firstLine(rest), " \t") != "" {
				lines++
				if lines > mapLines {
					return -1
				}
			}
		}
		q += n
	}
	return -1
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Span is the source between two cells of a SourceMap, inclusive: from
// the first mapped cell at or after (row0, col0) to the end of the last
// mapped cell at or before (row1, col1). ok is false when no cell between
// them maps to the source.
func Span(src string, m [][]int, row0, col0, row1, col1 int) (from, to int, ok bool) {
	from, to = -1, -1
	for r := max(row0, 0); r <= row1 && r < len(m) && from < 0; r++ {
		c0 := 0
		if r == row0 {
			c0 = col0
		}
		for c := max(c0, 0); c < len(m[r]); c++ {
			if r == row1 && c > col1 {
				break
			}
			if m[r][c] >= 0 {
				from = m[r][c]
				break
			}
		}
	}
	for r := min(row1, len(m)-1); r >= row0 && r >= 0 && to < 0; r-- {
		c1 := len(m[r]) - 1
		if r == row1 {
			c1 = min(col1, c1)
		}
		for c := c1; c >= 0; c-- {
			if r == row0 && c < col0 {
				break
			}
			if m[r][c] >= 0 {
				_, n := utf8.DecodeRuneInString(src[m[r][c]:])
				to = m[r][c] + n
				break
			}
		}
	}
	if from < 0 || to <= from {
		return 0, 0, false
	}
	return from, to, true
}
