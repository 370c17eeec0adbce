package textwrap

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// MinColumn is the width below which Columns does not squeeze a
// column to keep another's URL whole: a column of 3-cell shards is worse
// than a broken URL.
const MinColumn = 8

// Columns returns the widths (frame included) that keep the words of
// the cells whole when the table is wider than width: the header (which
// lipgloss truncates to one row) and every word if a layout can, else
// every word, else every URL with the other columns at least MinColumn
// wide, else none; what is left is shared by content. All zeros (no width
// set: lipgloss's own layout) when the table fits, so lipgloss fills the
// width evenly as glamour's tables do, or when the width cannot hold a
// cell per column. table[0] is the header; cells may be styled; frame is
// a column's margins and padding; columns are one rule apart.
//
// lipgloss's own layout would do: it shrinks columns by their median
// width, blind to words, and its wrapping breaks at hyphens, so it splits
// URLs that fit their column. The caller wraps each cell at its width.
func Columns(table [][]string, width, frame int) []int {
	var nat, word, url, head []int // per column: widest cell, word, URL; the header's width
	for i, row := range table {
		for j, cell := range row {
			if j == len(nat) {
				nat, word, url, head = append(nat, 0), append(word, 0), append(url, 0), append(head, 0)
			}
			if i == 0 {
				head[j] = ansi.StringWidth(ansi.Strip(cell))
			}
			for _, line := range strings.Split(ansi.Strip(cell), "\n") {
				nat[j] = max(nat[j], ansi.StringWidth(line))
				for _, w := range strings.Fields(line) {
					word[j] = max(word[j], ansi.StringWidth(w))
					if isURL(w) {
						url[j] = max(url[j], ansi.StringWidth(w))
					}
				}
			}
		}
	}
	out := make([]int, len(nat))
	avail := width - (len(nat) - 1) - len(nat)*frame
	if len(nat) == 0 || sum(nat) <= avail {
		return out
	}
	tiers := [][]int{make([]int, len(nat)), word, make([]int, len(nat)), make([]int, len(nat)), make([]int, len(nat))}
	for j := range nat {
		tiers[0][j] = max(word[j], head[j])                // every word and the header whole
		tiers[2][j] = max(url[j], min(word[j], MinColumn)) // every URL whole
		tiers[3][j] = min(word[j], MinColumn)              // nothing whole: a share by content
		tiers[4][j] = 1
	}
	var need []int
	for _, need = range tiers {
		if sum(need) <= avail {
			break
		}
	}
	if sum(need) > avail {
		return out
	}
	spare, slack := avail-sum(need), sum(nat)-sum(need)
	given := 0
	for j := range nat {
		extra := spare * (nat[j] - need[j]) / slack
		out[j] = need[j] + extra
		given += extra
	}
	for j := 0; given < spare; j = (j + 1) % len(out) { // the rounding's leftover
		if out[j] < nat[j] {
			out[j]++
			given++
		}
	}
	for j := range out {
		out[j] += frame
	}
	return out
}

func sum(xs []int) (n int) {
	for _, x := range xs {
		n += x
	}
	return n
}

// isURL reports whether a word holds a URL (a scheme's "://" or "www.").
func isURL(w string) bool {
	return strings.Contains(w, "://") || strings.Contains(w, "www.")
}
