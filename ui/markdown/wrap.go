package markdown

import (
	"strings"
	"unicode/utf8"

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

// wrap lays runs out in rows of at most width cells, breaking at spaces (a
// newline is one). A word wider than a row (a URL) gets a row of its own
// and breaks only where it must. Spaces at a break are dropped, at the very
// start and end kept (an H1's painted margin). Each row opens and closes
// its own styles. One pass, keeping only the row being filled: linear.
func wrap(sc *sgrCache, runs []run, width int) []string {
	w := wrapper{sc: sc, runs: runs, width: max(width, 1), first: true}
	w.feed(0)
	return w.finish()
}

// feed lays out runs[from:].
func (w *wrapper) feed(from int) {
	for i := from; i < len(w.runs); i++ {
		t := w.runs[i].text
		for len(t) > 0 {
			sp := t[0] == ' ' || t[0] == '\n'
			j := 1
			for j < len(t) && (t[j] == ' ' || t[j] == '\n') == sp {
				j++
			}
			seg := t[:j]
			t = t[j:]
			if !sp {
				w.addWord(piece{i, seg})
				continue
			}
			w.broken = false
			w.place()
			if strings.IndexByte(seg, '\n') >= 0 {
				seg = strings.Repeat(" ", len(seg))
			}
			w.pending = append(w.pending, piece{i, seg})
			w.pw += len(seg)
		}
	}
}

// finish places what is left and returns the rows.
func (w *wrapper) finish() []string {
	w.place()
	if w.used+w.pw <= w.width {
		w.row = append(w.row, w.pending...)
	}
	w.push()
	return w.out
}

// wrapper is wrap's state: the row being filled, the spaces and word unplaced.
type wrapper struct {
	sc      *sgrCache
	runs    []run
	width   int
	out     []string
	row     []piece
	used    int // cells in row
	pending []piece
	pw      int // cells in pending
	word    []piece
	ww      int  // cells in word
	first   bool // nothing placed yet: leading spaces are kept
	broken  bool // the row ends in a word wider than a row, still coming
}

// addWord adds a piece of a word; one wider than a row is broken at once,
// as place would, so a stream keeps its rows (rough.go).
func (w *wrapper) addWord(p piece) {
	if w.broken {
		w.breakPiece(p)
		return
	}
	w.word = append(w.word, p)
	if w.ww += cells(p.text); w.ww > w.width {
		w.place()
		w.broken = true
	}
}

func (w *wrapper) push() {
	w.out = append(w.out, paint(w.sc, w.runs, w.row))
	w.row, w.used = w.row[:0], 0
}

// place puts the word gathered so far on the row, after the pending
// spaces, or on a new row if it does not fit.
func (w *wrapper) place() {
	if len(w.word) == 0 {
		return
	}
	if w.used > 0 && w.used+w.pw+w.ww > w.width {
		w.push()
	}
	if w.used > 0 || w.first { // no spaces where a row breaks
		w.row = append(w.row, w.pending...)
		w.used += w.pw
	}
	w.pending, w.pw, w.first = w.pending[:0], 0, false
	if w.used+w.ww <= w.width {
		w.row = append(w.row, w.word...)
		w.used += w.ww
	} else {
		for _, p := range w.word { // break a word wider than the row
			w.breakPiece(p)
		}
	}
	w.word, w.ww = w.word[:0], 0
}

// breakPiece lays a piece of a word wider than a row out, filling rows.
func (w *wrapper) breakPiece(p piece) {
	for p.text != "" {
		if w.used == w.width {
			w.push()
		}
		head := truncate(p.text, w.width-w.used)
		if head == "" { // a wide character that does not fit
			if w.used > 0 {
				w.push()
				continue
			}
			_, size := utf8.DecodeRuneInString(p.text)
			head = p.text[:size]
		}
		w.row = append(w.row, piece{p.run, head})
		w.used += cells(head)
		p.text = p.text[len(head):]
	}
}

// truncate is xansi.Truncate(s, n, "") reading only what it needs of s
// (Truncate reads all of it: a long word would cost its length per row).
// Text without escape sequences is walked a cluster at a time, printable
// ASCII a byte at a time; anything else takes Truncate on a prefix.
func truncate(s string, n int) string {
	w, i := 0, 0
	for i < len(s) {
		c := s[i]
		if c == 0x1b {
			return truncateEsc(s, n)
		}
		if c >= 0x20 && c < 0x7f && (i+1 == len(s) || s[i+1] < 0x80) { // one cell, one cluster
			if w+1 > n {
				break
			}
			w, i = w+1, i+1
			continue
		}
		cl, cw := xansi.FirstGraphemeCluster(s[i:], xansi.GraphemeWidth)
		if w+cw > n || cl == "" {
			break
		}
		w, i = w+cw, i+len(cl)
	}
	return s[:i]
}

// truncateEsc is truncate for text holding escape sequences.
func truncateEsc(s string, n int) string {
	k := 8*n + 64
	for k < len(s) && len(xansi.Truncate(s[:k], n, ""))+64 > k {
		k *= 2
	}
	return xansi.Truncate(s[:min(k, len(s))], n, "")
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
