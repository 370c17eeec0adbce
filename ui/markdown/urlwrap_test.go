package markdown

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"runnel/theme"
	"runnel/ui/textwrap"
)

// placedURL is a URL a generated document shows, with the room its
// context leaves it: the widest row it can have to itself.
type placedURL struct {
	url  string
	room int
}

// genURL returns a URL of about n bytes.
func genURL(rng *rand.Rand, n int) string {
	u := "https://example.com/"
	for len(u) < n {
		u += word(rng) + []string{"/", "-", "_", "?q=", "#"}[rng.IntN(5)]
	}
	return u + "end"
}

// genURLDoc returns a document with URLs in paragraphs, list items (tight
// and nested), quotes, links and two-column tables at width, and where
// each URL is, with its room.
func genURLDoc(rng *rand.Rand, width int) (string, []placedURL) {
	var b strings.Builder
	var urls []placedURL
	url := func(room int) string {
		u := genURL(rng, 12+rng.IntN(width+width/2))
		urls = append(urls, placedURL{u, room})
		return u
	}
	text := func(k int) string { return sentence(rng, k, k+6, false) }
	for k := 0; k < 8; k++ {
		switch rng.IntN(6) {
		case 0:
			fmt.Fprintf(&b, "%s %s %s\n", text(2), url(width), text(3))
		case 1:
			fmt.Fprintf(&b, "- %s %s %s\n- %s\n  - %s %s\n", text(1), url(width-2), text(2), text(1), text(1), url(width-4))
		case 2:
			fmt.Fprintf(&b, "1. %s %s\n2. %s\n", text(1), url(width-3), text(2))
		case 3:
			fmt.Fprintf(&b, "> %s %s %s\n", text(1), url(width-2), text(1))
		case 4:
			fmt.Fprintf(&b, "See [%s](%s) and <%s>.\n", word(rng), url(width), url(width))
		case 5:
			// two columns, one rule and two cells' margins apart; the
			// other column keeps at least textwrap.MinColumn cells
			fmt.Fprintf(&b, "| %s | link |\n|---|---|\n| %s | %s %s |\n", word(rng), text(3), word(rng), url(width-1-4-textwrap.MinColumn))
		}
		b.WriteString("\n")
	}
	return b.String(), urls
}

// TestURLsKeepTheirRow is the wrapping property for URLs: a URL that fits
// the room its context leaves (a paragraph's width, a list item's or a
// quote's inner width, a table column that can grow) shows whole on one
// row; one that does not breaks, and every row with a piece of it keeps
// the OSC 8 hyperlink to the whole URL, so it stays clickable. Checked on
// whole renders and streamed views, at widths from 24 to 99.
func TestURLsKeepTheirRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, p := range []theme.Palette{theme.Dark(), theme.NoColor()} {
		style := theme.New(p).Glamour()
		for _, width := range []int{24, 31, 40, 60, 77, 99} {
			r := newTestRenderer(t, style, width)
			for seed := 0; seed < 8; seed++ {
				doc, urls := genURLDoc(rng, width)
				whole, err := r.Render(doc)
				if err != nil {
					t.Fatal(err)
				}
				s := NewStream(r)
				for _, c := range chunks(doc) {
					s.Append(c)
				}
				for name, out := range map[string]string{"whole": whole, "streamed": s.View()} {
					checkURLs(t, fmt.Sprintf("%s/%d/%s", p.Name, width, name), out, urls, doc)
				}
			}
		}
	}
}

func checkURLs(t *testing.T, name, out string, urls []placedURL, doc string) {
	t.Helper()
	vis := visible(out)
	for _, u := range urls {
		if len(u.url) <= u.room {
			found := false
			for _, v := range vis {
				found = found || strings.Contains(v, u.url)
			}
			if !found {
				t.Errorf("%s: URL of %d cells (room %d) split:\n%s\nin\n%s\nfrom\n%s", name, len(u.url), u.room, u.url, strings.Join(vis, "\n"), doc)
				return
			}
			continue
		}
		if !strings.Contains(linkedText(out, u.url), u.url) {
			t.Errorf("%s: a URL of %d cells (room %d) broken without its hyperlink on every piece: %s\nin %q", name, len(u.url), u.room, u.url, out)
		}
	}
}

// linkedText is the visible text of out, rows joined, that is inside an
// OSC 8 hyperlink to url.
func linkedText(out, url string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(out); {
		switch {
		case strings.HasPrefix(out[i:], "\x1b]8;"):
			end := strings.IndexByte(out[i:], '\a')
			body := out[i+4 : i+end]
			in = body[strings.IndexByte(body, ';')+1:] == url
			i += end + 1
		case strings.HasPrefix(out[i:], "\x1b["):
			j := i + 2
			for j < len(out) && (out[j] < 0x40 || out[j] > 0x7e) {
				j++
			}
			i = j + 1
		default:
			if in && out[i] != '\n' {
				b.WriteByte(out[i])
			}
			i++
		}
	}
	return b.String()
}

// TestListItemsHang: every row of a list item after its first starts under
// the item's text (the marker's width further in), at every width, for
// bullets, numbers up to two digits and nested lists.
func TestListItemsHang(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, p := range []theme.Palette{theme.Dark(), theme.NoColor()} {
		for _, width := range []int{24, 40, 77} {
			r := newTestRenderer(t, theme.New(p).Glamour(), width)
			var b strings.Builder
			for i := 1; i <= 11; i++ {
				fmt.Fprintf(&b, "%d. %s %s\n", i, sentence(rng, 6, 14, false), genURL(rng, 10+rng.IntN(width)))
			}
			b.WriteString("\n- " + sentence(rng, 8, 16, false) + "\n  - " + sentence(rng, 8, 16, false) + "\n")
			out, err := r.Render(b.String())
			if err != nil {
				t.Fatal(err)
			}
			pad := ""
			for _, row := range visible(out) {
				trimmed := strings.TrimLeft(row, " ")
				lead := row[:len(row)-len(trimmed)]
				if m := regexp.MustCompile(`^(\d+\. |• )`).FindString(trimmed); m != "" {
					pad = lead + strings.Repeat(" ", cells(m))
					continue
				}
				if row != "" && !strings.HasPrefix(row, pad) {
					t.Errorf("%s/%d: row %q does not hang under its item (%d columns)\n%s", p.Name, width, row, len(pad), strings.Join(visible(out), "\n"))
				}
			}
		}
	}
}
