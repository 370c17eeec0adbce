package markdown

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// sgrState is the style an SGR stream has set.
type sgrState struct {
	fg, bg                                         string
	bold, faint, italic, under, blink, rev, strike bool
	link                                           string
}

func (st sgrState) String() string {
	return fmt.Sprintf("%s/%s/%v%v%v%v%v%v%v/%s", st.fg, st.bg, st.bold, st.faint, st.italic, st.under, st.blink, st.rev, st.strike, st.link)
}

// styledRow canonicalises a row of a render: each cell's text with the
// style it shows in (colours, attributes, hyperlink), however the escape
// sequences that set it were written. Unstyled trailing spaces are
// dropped. Two rows with equal styledRow look the same on a terminal.
// A row is read from an unstyled start.
func styledRow(row string) string {
	type cell struct {
		r  rune
		st sgrState
	}
	var st sgrState
	var cells []cell
	for i := 0; i < len(row); {
		switch {
		case strings.HasPrefix(row[i:], "\x1b["):
			j := i + 2
			for j < len(row) && (row[j] < 0x40 || row[j] > 0x7e) {
				j++
			}
			if j < len(row) && row[j] == 'm' {
				st = applySGR(st, row[i+2:j])
			}
			i = j + 1
		case strings.HasPrefix(row[i:], "\x1b]"):
			// an OSC ends at BEL or at ST (ESC \); a hyperlink's
			// (8;params;url) sets the link of the cells after it
			body, end := row[i+2:], len(row)
			if j := strings.IndexAny(body, "\a\x1b"); j >= 0 {
				body, end = body[:j], i+2+j+1
				if row[i+2+j] == '\x1b' {
					end++
				}
			}
			if strings.HasPrefix(body, "8;") {
				if k := strings.IndexByte(body[2:], ';'); k >= 0 {
					st.link = body[2+k+1:]
				}
			}
			i = end
		default:
			r, n := utf8.DecodeRuneInString(row[i:])
			cells = append(cells, cell{r, st})
			i += n
		}
	}
	for len(cells) > 0 {
		c := cells[len(cells)-1]
		if c.r != ' ' || c.st.bg != "" || c.st.under || c.st.rev || c.st.strike {
			break
		}
		cells = cells[:len(cells)-1]
	}
	// each run of cells in one style is written once, after its style
	// (behind a NUL, which no render shows): two rows give the same string
	// exactly when every cell has the same rune in the same style
	var b strings.Builder
	for k, c := range cells {
		if k == 0 || c.st != cells[k-1].st {
			b.WriteString("\x00{" + c.st.String() + "}")
		}
		b.WriteRune(c.r)
	}
	return b.String()
}

func applySGR(st sgrState, params string) sgrState {
	link := st.link
	ps := strings.Split(params, ";")
	for k := 0; k < len(ps); k++ {
		n, _ := strconv.Atoi(ps[k])
		switch {
		case n == 0:
			st = sgrState{link: link}
		case n == 1:
			st.bold = true
		case n == 2:
			st.faint = true
		case n == 3:
			st.italic = true
		case n == 4:
			st.under = true
		case n == 5:
			st.blink = true
		case n == 7:
			st.rev = true
		case n == 9:
			st.strike = true
		case n == 22:
			st.bold, st.faint = false, false
		case n == 23:
			st.italic = false
		case n == 24:
			st.under = false
		case n == 27:
			st.rev = false
		case n == 29:
			st.strike = false
		case n == 39:
			st.fg = ""
		case n == 49:
			st.bg = ""
		case n >= 30 && n <= 37 || n >= 90 && n <= 97:
			st.fg = ps[k]
		case n >= 40 && n <= 47 || n >= 100 && n <= 107:
			st.bg = ps[k]
		case (n == 38 || n == 48) && k+1 < len(ps):
			var c string
			if ps[k+1] == "5" && k+2 < len(ps) {
				c, k = "5;"+ps[k+2], k+2
			} else if ps[k+1] == "2" && k+4 < len(ps) {
				c, k = "2;"+strings.Join(ps[k+2:k+5], ";"), k+4
			}
			if n == 38 {
				st.fg = c
			} else {
				st.bg = c
			}
		}
	}
	return st
}

// TestStyledRowsSeeColour checks the comparison itself: a colour change
// is a difference, a different spelling of the same style is not.
func TestStyledRowsSeeColour(t *testing.T) {
	a := "\x1b[1;38;5;39mab\x1b[m c"
	same := "\x1b[38;5;39m\x1b[1ma\x1b[0m\x1b[1;38;5;39mb\x1b[m c   "
	other := "\x1b[1;38;5;40mab\x1b[m c"
	if diffVisible(a, same) != "" {
		t.Errorf("same style differs: %s", diffVisible(a, same))
	}
	if diffVisible(a, other) == "" {
		t.Error("a colour change is not seen")
	}
	if diffVisible("\x1b[4mx\x1b[m", "x") == "" {
		t.Error("an attribute change is not seen")
	}
	link := "\x1b]8;;https://a.example\ax\x1b]8;;\a y"
	if d := diffVisible(link, "\x1b]8;;https://a.example\x1b\\x\x1b]8;;\x1b\\ y"); d != "" {
		t.Errorf("a link ended by ST differs from one ended by BEL: %s", d)
	}
	if diffVisible(link, "\x1b]8;;https://b.example\ax\x1b]8;;\a y") == "" || diffVisible(link, "x y") == "" {
		t.Error("a link change is not seen")
	}
}
