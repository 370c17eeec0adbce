package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// genAnswer returns a deterministic, realistic model answer of at least size
// bytes: sections with headings, one-line paragraphs of 2-5 sentences with
// inline code, emphasis and links, tight and loose lists, fenced code in
// several languages, tables, quotes, and a few reference links whose
// definitions come at the end, as models write them.
func genAnswer(size int) string {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	section := 0
	for b.Len() < size {
		section++
		fmt.Fprintf(&b, "## %d. %s\n\n", section, sentence(rng, 3, 6, false))
		for k := 0; k < 6 && b.Len() < size; k++ {
			switch rng.IntN(8) {
			case 0, 1, 2:
				b.WriteString(paragraph(rng))
			case 3:
				for i := 0; i < 3+rng.IntN(4); i++ {
					fmt.Fprintf(&b, "- **%s**: %s\n", word(rng), sentence(rng, 6, 16, true))
				}
			case 4:
				loose := rng.IntN(2) == 0
				for i := 1; i < 4+rng.IntN(4); i++ {
					fmt.Fprintf(&b, "%d. %s\n", i, sentence(rng, 8, 20, true))
					if loose {
						b.WriteString("\n")
					}
				}
			case 5:
				b.WriteString(codeBlock(rng))
			case 6:
				b.WriteString(table(rng))
			case 7:
				if rng.IntN(2) == 0 {
					fmt.Fprintf(&b, "> %s\n> %s\n", sentence(rng, 8, 14, true), sentence(rng, 8, 14, true))
				} else {
					fmt.Fprintf(&b, "### %s\n", sentence(rng, 2, 5, false))
				}
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("---\n\n[docs]: https://example.com/docs\n[spec]: https://example.com/spec \"Spec\"\n")
	return b.String()
}

var words = strings.Fields(`the a stream render terminal buffer request response
model token cache latency window width block paragraph client server error
retry backoff schedule request handler config value option default context
cancel timeout deadline channel goroutine frame view update message event
delta output input schema field decode encode parse format style theme`)

func word(rng *rand.Rand) string { return words[rng.IntN(len(words))] }

func sentence(rng *rand.Rand, lo, hi int, inline bool) string {
	n := lo + rng.IntN(hi-lo+1)
	parts := make([]string, n)
	for i := range parts {
		w := word(rng)
		if inline {
			switch rng.IntN(24) {
			case 0:
				w = "`" + w + "()`"
			case 1:
				w = "**" + w + "**"
			case 2:
				w = "*" + w + "*"
			case 3:
				w = fmt.Sprintf("[%s](https://example.com/%s)", w, w)
			case 4:
				// Reference links are rarer than inline ones in model
				// answers; their definitions come at the end.
				if rng.IntN(12) == 0 {
					w = "[" + w + "][docs]"
				}
			}
		}
		parts[i] = w
	}
	s := strings.Join(parts, " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

func paragraph(rng *rand.Rand) string {
	var b strings.Builder
	for i := 0; i < 2+rng.IntN(4); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sentence(rng, 8, 22, true))
		b.WriteByte('.')
	}
	b.WriteByte('\n')
	return b.String()
}

func codeBlock(rng *rand.Rand) string {
	var b strings.Builder
	switch rng.IntN(4) {
	case 0:
		b.WriteString("```go\n")
		for i := 0; i < 4+rng.IntN(20); i++ {
			fmt.Fprintf(&b, "\t%s := %s(ctx, %q) // %s\n", word(rng), word(rng), word(rng), sentence(rng, 2, 5, false))
		}
	case 1:
		b.WriteString("```python\n")
		for i := 0; i < 4+rng.IntN(20); i++ {
			fmt.Fprintf(&b, "    %s = %s(%d, \"%s\")  # %s\n", word(rng), word(rng), rng.IntN(100), word(rng), word(rng))
		}
	case 2:
		b.WriteString("```bash\n")
		for i := 0; i < 2+rng.IntN(6); i++ {
			fmt.Fprintf(&b, "runnel --%s=%s --%s %d\n", word(rng), word(rng), word(rng), rng.IntN(1000))
		}
	default:
		b.WriteString("```json\n{\n")
		n := 2 + rng.IntN(8)
		for i := 0; i < n; i++ {
			sep := ","
			if i == n-1 {
				sep = ""
			}
			fmt.Fprintf(&b, "  %q: %q%s\n", word(rng), word(rng), sep)
		}
		b.WriteString("}\n")
	}
	b.WriteString("```\n")
	return b.String()
}

func table(rng *rand.Rand) string {
	var b strings.Builder
	cols := 2 + rng.IntN(3)
	row := func(f func() string) {
		b.WriteString("|")
		for c := 0; c < cols; c++ {
			b.WriteString(" " + f() + " |")
		}
		b.WriteString("\n")
	}
	row(func() string { w := word(rng); return strings.ToUpper(w[:1]) + w[1:] })
	row(func() string { return "---" })
	for i := 0; i < 2+rng.IntN(5); i++ {
		row(func() string { return sentence(rng, 1, 4, false) })
	}
	return b.String()
}
