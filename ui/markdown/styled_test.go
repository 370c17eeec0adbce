package markdown

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// styledRows canonicalises a render: for every row, each cell's text with
// the style it shows in (colours, attributes, hyperlink), however the
// escape sequences that set it were written. Unstyled trailing spaces are
// dropped. Two renders with equal styledRows look the same on a terminal.
func styledRows(s string) []string {
	rows := strings.Split(s, "\n")
	for i, row := range rows {
		rows[i] = styledRow(row)
	}
	return rows
}

// sgrState is the style an SGR stream has set.
type sgrState struct {
	fg, bg                                         string
	bold, faint, italic, under, blink, rev, strike bool
	link                                           string
}

func (st sgrState) String() string {
	return fmt.Sprintf("%s/%s/%v%v%v%v%v%v%v/%s", st.fg, st.bg, st.bold, st.faint, st.italic, st.under, st.blink, st.rev, st.strike, st.link)
}

func styledRow(row string) string {
	var st sgrState
	var cells []string
	var plain []bool
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
			j := strings.IndexAny(row[i:], "\a\x1b\\")
			end := i + j + 1
			if j < 0 {
				end = len(row)
			} else if row[i+j] == '\x1b' {
				end++
			}
			body := row[i+2 : max(i+2, i+j)]
			if strings.HasPrefix(body, "8;") {
				if k := strings.IndexByte(body[2:], ';'); k >= 0 {
					st.link = body[2+k+1:]
				}
			}
			i = end
		default:
			r, n := rune(row[i]), 1
			for _, c := range row[i:] {
				r = c
				break
			}
			n = len(string(r))
			cells = append(cells, fmt.Sprintf("%c{%s}", r, st))
			plain = append(plain, r == ' ' && st.bg == "" && !st.under && !st.rev && !st.strike)
			i += n
		}
	}
	for len(cells) > 0 && plain[len(cells)-1] {
		cells = cells[:len(cells)-1]
	}
	return strings.Join(cells, "")
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
}
