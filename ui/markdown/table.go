package markdown

import (
	"strings"

	"charm.land/lipgloss/v2"
	lgtable "charm.land/lipgloss/v2/table"
	xansi "github.com/charmbracelet/x/ansi"
	extast "github.com/yuin/goldmark/extension/ast"
)

// table renders a GFM table as glamour does: a lipgloss table as wide as
// the text, rules between columns and under the header, no outer border.
// Links in cells show their text only (glamour lists their URLs under the
// table; here they are left out).
//
// When the table is wider than width, the columns' widths are chosen here
// (columnWidths) and body cells wrapped by wrap, as paragraphs are:
// lipgloss's own wrapping breaks at hyphens and its shrinking ignores
// words, so it would split a URL that fits its column.
func (c *blockCtx) table(n *extast.Table, width int) []string {
	st := &c.r.style
	var header []string
	var rows [][]string
	var bodyRuns [][][]run
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		var runs [][]run
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			in := &inline{st: st, src: c.src, table: true}
			in.children(cell, c.r.base.with(st.Table.StylePrimitive), "")
			cells = append(cells, strings.Join(wrap(&c.r.sgr, in.runs, 1<<20), ""))
			runs = append(runs, in.runs)
		}
		if _, ok := row.(*extast.TableHeader); ok {
			header = cells
		} else {
			rows, bodyRuns = append(rows, cells), append(bodyRuns, runs)
		}
	}
	border := lipgloss.NormalBorder()
	if t := st.Table; t.RowSeparator != nil && t.ColumnSeparator != nil && t.CenterSeparator != nil {
		border = lipgloss.Border{Top: *t.RowSeparator, Bottom: *t.RowSeparator,
			Left: *t.ColumnSeparator, Right: *t.ColumnSeparator, Middle: *t.CenterSeparator}
	}
	pad := 0
	if m := st.Table.Margin; m != nil {
		pad = int(*m)
	}
	fixed := columnWidths(append([][]string{header}, rows...), width, 2+2*pad)
	if fixed != nil {
		for i, cells := range bodyRuns {
			for j, runs := range cells {
				rows[i][j] = strings.Join(wrap(&c.r.sgr, runs, fixed[j]-2-2*pad), "\n")
			}
		}
	}
	tb := lgtable.New().Width(width).Wrap(true).Headers(header...).Rows(rows...).
		Border(border).BorderTop(false).BorderLeft(false).BorderRight(false).BorderBottom(false).
		StyleFunc(func(_, col int) lipgloss.Style {
			s := lipgloss.NewStyle().Inline(false).Margin(0, 1)
			if pad > 0 {
				s = s.Padding(0, pad)
			}
			if fixed != nil {
				s = s.Width(fixed[col])
			}
			if col < len(n.Alignments) {
				switch n.Alignments[col] {
				case extast.AlignLeft:
					s = s.Align(lipgloss.Left).PaddingRight(0)
				case extast.AlignCenter:
					s = s.Align(lipgloss.Center)
				case extast.AlignRight:
					s = s.Align(lipgloss.Right).PaddingLeft(0)
				}
			}
			return s
		})
	out := strings.Split(tb.String(), "\n")
	for i, row := range out {
		out[i] = strings.TrimRight(row, " ")
	}
	return out
}

// minColumn is the width below which columnWidths does not squeeze a
// column to keep another's URL whole: a column of 3-cell shards is worse
// than a broken URL.
const minColumn = 8

// columnWidths returns the widths (frame included) that keep the words of
// the cells whole when the table is wider than width: the header (which
// lipgloss truncates to one row) and every word if a layout can, else
// every word, else every URL with the other columns at least minColumn
// wide, else none; what is left is shared by content. nil when the table
// fits (lipgloss then fills the width evenly, as glamour's tables do) or
// the width cannot hold a cell per column. table[0] is the header; frame
// is a column's margins and padding; columns are one rule apart.
func columnWidths(table [][]string, width, frame int) []int {
	var nat, word, url, head []int // per column: widest cell, word, URL; the header's width
	for i, row := range table {
		for j, cell := range row {
			if j == len(nat) {
				nat, word, url, head = append(nat, 0), append(word, 0), append(url, 0), append(head, 0)
			}
			if i == 0 {
				head[j] = cells(xansi.Strip(cell))
			}
			for _, line := range strings.Split(xansi.Strip(cell), "\n") {
				nat[j] = max(nat[j], cells(line))
				for _, w := range strings.Fields(line) {
					word[j] = max(word[j], cells(w))
					if isURL(w) {
						url[j] = max(url[j], cells(w))
					}
				}
			}
		}
	}
	avail := width - (len(nat) - 1) - len(nat)*frame
	if len(nat) == 0 || sum(nat) <= avail {
		return nil
	}
	tiers := [][]int{make([]int, len(nat)), word, make([]int, len(nat)), make([]int, len(nat)), make([]int, len(nat))}
	for j := range nat {
		tiers[0][j] = max(word[j], head[j])                // every word and the header whole
		tiers[2][j] = max(url[j], min(word[j], minColumn)) // every URL whole
		tiers[3][j] = min(word[j], minColumn)              // nothing whole: a share by content
		tiers[4][j] = 1
	}
	var need []int
	for _, need = range tiers {
		if sum(need) <= avail {
			break
		}
	}
	if sum(need) > avail {
		return nil
	}
	spare, slack := avail-sum(need), sum(nat)-sum(need)
	out := make([]int, len(nat))
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
