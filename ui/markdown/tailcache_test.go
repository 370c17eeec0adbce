package markdown

import (
	"strings"
	"testing"

	"runnel/theme"
)

// TestTableCacheKeysEveryInput: two tables that differ in one thing a
// drawing reads (an earlier row that widens a column, an alignment, a
// cell's style, a row too wide for the screen, one row more), drawn one
// after the other by the same renderer, are each drawn as a renderer of
// their own draws them: no table is taken for another.
func TestTableCacheKeysEveryInput(t *testing.T) {
	style := theme.New(theme.Dark()).Glamour()
	const head = "| k | v |\n|---|---|\n"
	pairs := map[string][2]string{
		"widened column": {head + "| a | 1 |\n| z | 9 |\n", head + "| a much wider cell | 1 |\n| z | 9 |\n"},
		"alignment":      {head + "| a | 1 |\n", "| k | v |\n|:-:|--:|\n| a | 1 |\n"},
		"style":          {head + "| a | 1 |\n", head + "| **a** | 1 |\n"},
		"too wide":       {head + "| a | 1 |\n| z | 9 |\n", head + "| " + strings.Repeat("wide words ", 12) + "| 1 |\n| z | 9 |\n"},
		"one row more":   {head + "| z | 9 |\n", head + "| z | 9 |\n| z | 9 |\n"},
		"a cell more":    {head + "| a | 1 |\n", "| k | v | w |\n|---|---|---|\n| a | 1 |\n"},
	}
	for name, p := range pairs {
		for _, width := range []int{30, 80} {
			r := newTestRenderer(t, style, width)
			for _, src := range []string{p[0], p[1], p[0]} {
				got, err := r.Render(src)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := newTestRenderer(t, style, width).Render(src)
				if got != want {
					t.Errorf("%s at width %d: %q is drawn as another table:\n%s", name, width, src, diffVisible(got, want))
				}
			}
			if r.tables.hits != 1 {
				t.Errorf("%s at width %d: %d tables taken from the cache, want 1 (the first again)", name, width, r.tables.hits)
			}
		}
	}
}
