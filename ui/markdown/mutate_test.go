package markdown

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"runnel/theme"
)

// TestMutatedDocsStreamLikeWhole streams deterministic mutations of
// tricky documents (markers, fences, pipes and colons inserted, replaced
// or cut out) in steps of 1 to 16 bytes: the final view is styled as a
// whole render of the message.
func TestMutatedDocsStreamLikeWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: long fuzz-like run (400 mutated documents)")
	}
	t.Parallel() // a renderer of its own
	r, _ := NewRenderer(theme.New(theme.Dark()).Glamour(), 40)
	edge, _ := os.ReadFile("testdata/edge.md")
	seeds := []string{string(edge), genAnswer(1 << 10), "- a\n\n  b\n\n- c", "<!--\n\n-->", "[a]: /u\n\n[a]", "| a |\n|---|\n\n", "Term\n\n: def", "\t\t- x\n\n\t\t```\n", "[x][y]\n\n[y]: <>"}
	rng := rand.New(rand.NewPCG(5, 6))
	alpha := "-*`~#>|:[]()<!\n \t1.ab"
	for k := 0; k < 400; k++ {
		doc := []byte(seeds[rng.IntN(len(seeds))])
		for m := 0; m < 1+rng.IntN(4); m++ {
			if len(doc) == 0 {
				break
			}
			i := rng.IntN(len(doc))
			switch rng.IntN(3) {
			case 0:
				doc[i] = alpha[rng.IntN(len(alpha))]
			case 1:
				doc = append(doc[:i], doc[min(len(doc), i+1+rng.IntN(8)):]...)
			default:
				doc = append(doc[:i], append([]byte(string(alpha[rng.IntN(len(alpha))])), doc[i:]...)...)
			}
		}
		d := strings.ToValidUTF8(string(doc), "\uFFFD")
		n := 1 + k%16
		s := NewStream(r)
		s.long.min = 64 // exercise the long-block path on short input
		for i := 0; i < len(d); i += n {
			s.Append(d[i:min(i+n, len(d))])
			_ = s.View()
		}
		unrough(s)
		want, _ := r.Render(d)
		if diff := diffVisible(s.View(), want); diff != "" {
			t.Errorf("doc %q step %d: %s", d, n, diff)
		}
	}
}
