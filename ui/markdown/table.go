package markdown

import (
	"strings"

	"charm.land/lipgloss/v2"
	lgtable "charm.land/lipgloss/v2/table"
	extast "github.com/yuin/goldmark/extension/ast"

	"runnel/ui/textwrap"
)

// table renders a GFM table as glamour does: a lipgloss table as wide as
// the text, rules between columns and under the header, no outer border.
// Links in cells show their text only. A table wider than width keeps its
// URLs whole where it can (column widths from textwrap.Columns).
func (c *blockCtx) table(n *extast.Table, width int) []string {
	st := &c.r.style
	var runs [][][]run // the header's cells, then each row's
	var rows [][]string
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		runs, rows = append(runs, nil), append(rows, nil)
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			in := &inline{st: st, src: c.src, table: true}
			in.children(cell, c.r.base.with(st.Table.StylePrimitive), "")
			runs[len(runs)-1] = append(runs[len(runs)-1], in.runs)
			rows[len(rows)-1] = append(rows[len(rows)-1], strings.Join(wrap(&c.r.sgr, in.runs, 1<<20), ""))
		}
	}
	pad := int(val(st.Table.Margin, 0))
	fixed := textwrap.Columns(rows, width, 2+2*pad)
	for i := 1; i < len(rows); i++ {
		for j := range rows[i] {
			if fixed[j] > 0 {
				rows[i][j] = strings.Join(wrap(&c.r.sgr, runs[i][j], fixed[j]-2-2*pad), "\n")
			}
		}
	}
	header, rows := rows[0], rows[1:]
	aligns := make([]int, len(n.Alignments))
	for i, a := range n.Alignments {
		aligns[i] = int(a)
	}
	return c.r.tables.get(tableKey(width, pad, fixed, aligns, header, rows), func() []string {
		return c.r.drawTable(n, width, pad, fixed, header, rows)
	})
}

// drawTable draws a table's cells with lipgloss (see table).
func (r *Renderer) drawTable(n *extast.Table, width, pad int, fixed []int, header []string, rows [][]string) []string {
	border := lipgloss.NormalBorder()
	if t := r.style.Table; t.RowSeparator != nil && t.ColumnSeparator != nil && t.CenterSeparator != nil {
		border = lipgloss.Border{Top: *t.RowSeparator, Bottom: *t.RowSeparator,
			Left: *t.ColumnSeparator, Right: *t.ColumnSeparator, Middle: *t.CenterSeparator}
	}
	tb := lgtable.New().Width(width).Wrap(true).Headers(header...).Rows(rows...).
		Border(border).BorderTop(false).BorderLeft(false).BorderRight(false).BorderBottom(false).
		StyleFunc(func(_, col int) lipgloss.Style {
			s := lipgloss.NewStyle().Inline(false).Margin(0, 1).Padding(0, pad).Width(fixed[col])
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
