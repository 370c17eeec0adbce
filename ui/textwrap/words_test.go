package textwrap

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// genWrapText returns a line of words, URLs and paths of varied length,
// some longer than width, a few CJK words, with single and double spaces,
// and perhaps leading indentation.
func genWrapText(rng *rand.Rand, width int) string {
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", rng.IntN(3)*2))
	for k := 0; k < 4+rng.IntN(20); k++ {
		if k > 0 {
			b.WriteString(strings.Repeat(" ", 1+rng.IntN(4)/3))
		}
		switch rng.IntN(6) {
		case 0:
			u := "https://example.com/"
			for len(u) < 10+rng.IntN(width+width/2) {
				u += []string{"a-b", "path", "x_y", "q?k=v", "-"}[rng.IntN(5)]
			}
			b.WriteString(u)
		case 1:
			b.WriteString("/usr/local/share/my-app/" + strings.Repeat("d/", rng.IntN(width/2)))
		case 2:
			b.WriteString(strings.Repeat("界", 1+rng.IntN(4)))
		default:
			b.WriteString([]string{"ls", "--format=json", "-la", "the", "quick", "brown", "'a b'", "fox"}[rng.IntN(8)])
		}
	}
	return b.String()
}

// TestWordsKeepsWordsWhole is Words' property: every row fits;
// nothing is lost or reordered; every word that fits a continuation row
// shows whole on one row; continuation rows carry the hanging indent; and
// when no word had to break (nor a break fall on two spaces), the rows give
// the line back exactly.
func TestWordsKeepWordsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 3000; n++ {
		width, hang := 6+rng.IntN(80), rng.IntN(6)
		line := genWrapText(rng, width)
		rows := Words(line, width, hang)
		lead := len(line) - len(strings.TrimLeft(line, " "))
		indent := min(lead+hang, width/2)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("width %d hang %d, line %q:\n%s\n"+format, append([]any{width, hang, line, strings.Join(rows, "|\n")}, args...)...)
		}
		var got strings.Builder
		broken := false
		for i, row := range rows {
			if w := ansi.StringWidth(row); w > width {
				fail("row %d is %d cells", i, w)
			}
			if i > 0 && strings.TrimLeft(row, " ") != "" && !strings.HasPrefix(row, strings.Repeat(" ", indent)) {
				fail("row %d lacks the hanging indent of %d", i, indent)
			}
			got.WriteString(strings.ReplaceAll(row, " ", ""))
		}
		if want := strings.ReplaceAll(line, " ", ""); got.String() != want {
			fail("text changed:\n%q\n%q", got.String(), want)
		}
		rowWords := map[string]bool{}
		for _, row := range rows {
			for _, w := range strings.Fields(row) {
				rowWords[w] = true
			}
		}
		for _, w := range strings.Fields(line) {
			if ansi.StringWidth(w) > width-indent {
				broken = true
				continue
			}
			if !rowWords[w] {
				fail("word %q (%d cells) split", w, ansi.StringWidth(w))
			}
		}
		if !broken && !strings.Contains(strings.TrimLeft(line, " "), "  ") {
			joined := rows[0]
			for _, row := range rows[1:] {
				if len(row) < indent {
					fail("an empty continuation row")
				}
				joined += " " + row[indent:]
			}
			if joined != strings.TrimRight(line, " ") {
				fail("joined back:\n%q\nwant\n%q", joined, line)
			}
		}
	}
}

func TestWordsURLMovesWhole(t *testing.T) {
	url := "https://example.com/some-path-with-hyphens/x"
	rows := Words("see the "+url+" now", 46, 0)
	if len(rows) != 3 || rows[1] != url {
		t.Errorf("rows %q: the URL should have the second row to itself", rows)
	}
	if rows := Words("x "+url, 20, 2); rows[0] != "x" || rows[1] != "  https://example.co" {
		t.Errorf("a URL wider than the width starts its own row: %q", rows)
	}
}

// TestSpacedWordsGiveTheTextBack: the pieces SpacedWords yields join to the
// text, words hold no space, and every piece but the last has a word.
func TestSpacedWordsGiveTheTextBack(t *testing.T) {
	for _, s := range []string{"", "one", "  two  words ", "a  b", "   ", "x/y-z https://a.example/b?c=d  end"} {
		var b strings.Builder
		var got [][2]string
		for spaces, word := range SpacedWords(s) {
			b.WriteString(spaces + word)
			got = append(got, [2]string{spaces, word})
			if strings.Contains(word, " ") || strings.Trim(spaces, " ") != "" {
				t.Errorf("%q: piece %q %q", s, spaces, word)
			}
		}
		if b.String() != s {
			t.Errorf("%q: joined to %q", s, b.String())
		}
		for i, p := range got {
			if p[1] == "" && i != len(got)-1 {
				t.Errorf("%q: an empty word before the end: %q", s, got)
			}
		}
	}
}
