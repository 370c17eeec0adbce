package modellist

// This file is the figures columns `runnel models` prints and the /model
// picker draws: one formatting, so both show the same figures the same way.

import (
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"

	"runnel/session/models"
)

// Heads are the figures columns' headings, in the order of Columns' cells.
var Heads = []string{"CONTEXT", "INPUT $/M", "CACHED $/M", "OUTPUT $/M"}

// CachedColumn is the index of the cached price in Heads: the column a
// narrow picker gives up first.
const CachedColumn = 2

// Columns are the figures of ids as the table t knows them: for each id
// its cells under Heads (the context window, then the input, cached input
// and output prices per million tokens, "-" where nothing is known). Each
// column is padded to one width, at least its heading's: windows to the
// right, prices on their decimal point, so the figures line up however they
// are joined (Join).
func Columns(t models.Table, ids []string) [][]string {
	lines := make([]Line, len(ids))
	for i, id := range ids {
		lines[i] = lineOf(t, id)
	}
	return columns(lines)
}

// Known reports whether any row of cols has a figure (not "-").
func Known(cols [][]string) bool {
	for _, r := range cols {
		for _, c := range r {
			if strings.TrimSpace(c) != "-" {
				return true
			}
		}
	}
	return false
}

// Join writes the cells of a row (or Heads), leaving out the columns in
// skip, two spaces apart.
func Join(cells []string, skip ...int) string {
	var kept []string
	for i, c := range cells {
		if !contains(skip, i) {
			kept = append(kept, c)
		}
	}
	return strings.Join(kept, "  ")
}

func contains(s []int, i int) bool {
	for _, x := range s {
		if x == i {
			return true
		}
	}
	return false
}

// lineOf is what the table knows of id (Configured and Listed unset).
func lineOf(t models.Table, id string) Line {
	l := Line{ID: id, Chat: models.Chat(id)}
	info, ok := t.Lookup(id)
	if !ok {
		return l
	}
	l.Source = info.Source
	if info.ContextWindow > 0 {
		l.ContextWindow = &info.ContextWindow
	}
	if info.Priced() {
		l.InputPrice, l.OutputPrice = &info.Input, &info.Output
		cached := info.CachedInput
		if cached <= 0 {
			cached = info.Input // priced as input, as the cost is
		}
		l.CachedInputPrice = &cached
	}
	return l
}

// columns formats lines' figures under Heads (see Columns).
func columns(lines []Line) [][]string {
	rows := make([][]string, len(lines))
	win := make([]string, len(lines))
	prices := [3][]*float64{}
	for i, l := range lines {
		win[i] = window(l.ContextWindow)
		prices[0] = append(prices[0], l.InputPrice)
		prices[1] = append(prices[1], l.CachedInputPrice)
		prices[2] = append(prices[2], l.OutputPrice)
	}
	cols := [][]string{padLeft(win, len(Heads[0]))}
	for j, p := range prices {
		cols = append(cols, priceColumn(p, len(Heads[j+1])))
	}
	for i := range lines {
		for _, c := range cols {
			rows[i] = append(rows[i], c[i])
		}
	}
	return rows
}

// window is a context window: "400k", "1M", "1047k"; "-" when unknown.
func window(n *int64) string {
	if n == nil {
		return "-"
	}
	switch v := *n; {
	case v >= 1_000_000 && v%1_000_000 == 0:
		return strconv.FormatInt(v/1_000_000, 10) + "M"
	case v >= 1000:
		return strconv.FormatInt(v/1000, 10) + "k"
	default:
		return strconv.FormatInt(v, 10)
	}
}

// price is a price in dollars with at least two decimals, as money is
// written ("1.25", "10.00"), and as many more as it has ("0.125",
// "0.005"): nothing is rounded away. "-" when unknown.
func price(p *float64) string {
	if p == nil {
		return "-"
	}
	s := strconv.FormatFloat(*p, 'f', -1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	for len(frac) < 2 {
		frac += "0"
	}
	return whole + "." + frac
}

// priceColumn writes a column of prices aligned on the decimal point (an
// unknown "-" stands where the units would), the column at least least cells wide
// and right-aligned within it.
func priceColumn(ps []*float64, least int) []string {
	wholes, fracs := make([]string, len(ps)), make([]string, len(ps))
	wW, fW := 0, 0
	for i, p := range ps {
		s := price(p)
		w, f, ok := strings.Cut(s, ".")
		if ok {
			f = "." + f
		}
		wholes[i], fracs[i] = w, f
		wW, fW = max(wW, len(w)), max(fW, len(f))
	}
	out := make([]string, len(ps))
	for i := range ps {
		out[i] = strings.Repeat(" ", wW-len(wholes[i])) + wholes[i] + fracs[i] + strings.Repeat(" ", fW-len(fracs[i]))
	}
	return padLeft(out, least)
}

// padLeft right-aligns cells to one width, at least least cells.
func padLeft(cells []string, least int) []string {
	w := least
	for _, c := range cells {
		w = max(w, runewidth.StringWidth(c))
	}
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = runewidth.FillLeft(c, w)
	}
	return out
}
