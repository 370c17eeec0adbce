package markdown

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
)

// run is a piece of inline text with one style and, for links and images,
// the hyperlink (OSC 8) it points to.
type run struct {
	text string
	a    attrs
	link string
}

// piece is part of a word: the bytes of one run that fall in it.
type piece struct {
	run  int
	text string
}

// token is a unit of wrapping: a word (pieces of one or more runs, no
// space inside) or a run of spaces.
type token struct {
	space  bool
	pieces []piece
	w      int // cells
}

// splitWords splits runs into words and spaces. A newline counts as a space:
// glamour joins a paragraph's lines.
func splitWords(runs []run) []token {
	var out []token
	for i, r := range runs {
		t := r.text
		for len(t) > 0 {
			sp := t[0] == ' ' || t[0] == '\n'
			j := 1
			for j < len(t) && (t[j] == ' ' || t[j] == '\n') == sp {
				j++
			}
			seg := t[:j]
			t = t[j:]
			if sp {
				seg = strings.Repeat(" ", len(seg))
			}
			p := piece{i, seg}
			if n := len(out); n > 0 && out[n-1].space == sp && !sp {
				out[n-1].pieces = append(out[n-1].pieces, p)
				out[n-1].w += cells(seg)
				continue
			}
			out = append(out, token{space: sp, pieces: []piece{p}, w: cells(seg)})
		}
	}
	return out
}

// wrap lays runs out in rows of at most width cells, breaking at spaces.
// A word wider than a row (a long URL) starts a row of its own and is
// broken only where it must be. Spaces where a row breaks are dropped;
// spaces at the very start and end are kept (an H1's painted margin). Each
// row opens and closes its own styles, so any row can be shown alone.
func wrap(sc *sgrCache, runs []run, width int) []string {
	width = max(width, 1)
	var rows [][]piece
	var row []piece
	used := 0
	var pending []piece // spaces not yet placed
	pw := 0
	first := true
	for _, w := range splitWords(runs) {
		if w.space {
			pending = append(pending, w.pieces...)
			pw += w.w
			continue
		}
		if used > 0 && used+pw+w.w > width {
			rows = append(rows, row)
			row, used = nil, 0
		}
		if used == 0 && !first { // no spaces where a row breaks
			pending, pw = pending[:0], 0
		}
		row = append(row, pending...)
		used += pw
		pending, pw = pending[:0], 0
		first = false
		if used+w.w <= width {
			row = append(row, w.pieces...)
			used += w.w
			continue
		}
		for _, p := range w.pieces { // break a word wider than the row
			for p.text != "" {
				if used == width {
					rows = append(rows, row)
					row, used = nil, 0
				}
				head := xansi.Truncate(p.text, width-used, "")
				if head == "" { // a wide character that does not fit
					if used > 0 {
						rows = append(rows, row)
						row, used = nil, 0
						continue
					}
					_, size := firstRune(p.text)
					head = p.text[:size]
				}
				row = append(row, piece{p.run, head})
				used += cells(head)
				p.text = p.text[len(head):]
			}
		}
	}
	if used+pw <= width {
		row = append(row, pending...)
	}
	rows = append(rows, row)
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = paint(sc, runs, r)
	}
	return out
}

func firstRune(s string) (rune, int) {
	for i, r := range s {
		if i > 0 {
			return r, i
		}
	}
	return 0, len(s)
}

// paint writes a row's pieces, each stretch of one style and link opened
// and closed on its own, and drops unpainted trailing spaces.
func paint(sc *sgrCache, runs []run, ps []piece) string {
	for len(ps) > 0 {
		last := ps[len(ps)-1]
		r := runs[last.run]
		if r.a.bg != "" || r.a.underline || r.a.inverse || r.a.strike || strings.TrimRight(last.text, " ") != "" {
			break
		}
		ps = ps[:len(ps)-1]
	}
	var b strings.Builder
	for i := 0; i < len(ps); {
		r := runs[ps[i].run]
		j := i + 1
		for j < len(ps) && runs[ps[j].run].a == r.a && runs[ps[j].run].link == r.link {
			j++
		}
		if r.link != "" {
			b.WriteString(xansi.SetHyperlink(r.link))
		}
		sgr := sc.sgr(r.a)
		b.WriteString(sgr)
		for _, p := range ps[i:j] {
			b.WriteString(p.text)
		}
		if sgr != "" {
			b.WriteString(reset)
		}
		if r.link != "" {
			b.WriteString(xansi.ResetHyperlink())
		}
		i = j
	}
	return b.String()
}
