package markdown

import (
	"strings"

	"charm.land/lipgloss/v2"
	lgtable "charm.land/lipgloss/v2/table"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// table renders a GFM table as glamour does: a lipgloss table as wide as
// the text, rules between columns and under the header, no outer border.
// Links in cells show their text only (glamour lists their URLs under the
// table; here they are left out).
func (c *blockCtx) table(n *extast.Table, width int) []string {
	st := &c.r.style
	cellText := func(cell ast.Node) string {
		in := &inline{st: st, src: c.src, table: true}
		in.children(cell, c.r.base.with(st.Table.StylePrimitive), "")
		return strings.Join(wrap(&c.r.sgr, in.runs, 1<<20), "")
	}
	var header []string
	var rows [][]string
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, cellText(cell))
		}
		if _, ok := row.(*extast.TableHeader); ok {
			header = cells
		} else {
			rows = append(rows, cells)
		}
	}
	border := lipgloss.NormalBorder()
	if t := st.Table; t.RowSeparator != nil && t.ColumnSeparator != nil && t.CenterSeparator != nil {
		border = lipgloss.Border{Top: *t.RowSeparator, Bottom: *t.RowSeparator,
			Left: *t.ColumnSeparator, Right: *t.ColumnSeparator, Middle: *t.CenterSeparator}
	}
	tb := lgtable.New().Width(width).Wrap(true).Headers(header...).Rows(rows...).
		Border(border).BorderTop(false).BorderLeft(false).BorderRight(false).BorderBottom(false).
		StyleFunc(func(_, col int) lipgloss.Style {
			s := lipgloss.NewStyle().Inline(false).Margin(0, 1)
			if m := st.Table.Margin; m != nil {
				s = s.Padding(0, int(*m))
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
