package output

import (
	"io"
	"strconv"
	"strings"

	"runnel/stream"
	"runnel/stream/cite"
)

// The text and markdown formats write citations and hosted searches as the
// chat shows them, through package cite: a cited span becomes a numbered
// marker, an answer that cites ends with one Sources list (URLs without
// their tracking parameters), and consecutive hosted searches are one
// summary line.
//
// A marker can only replace text not yet written, and its annotation comes
// after the text it cites: so the text of a paragraph from its first "["
// (where a cited link may start) is held until the paragraph ends.

// holdLinks returns how much of pending (all settled) can be written now:
// up to the first "[" of its last, unfinished paragraph, and the "(" and
// spaces before it (a cited span is "([site](url))").
func holdLinks(pending string) int {
	start := 0
	if i := strings.LastIndex(pending, "\n\n"); i >= 0 {
		start = i + 2
	}
	i := strings.IndexByte(pending[start:], '[')
	if i < 0 {
		return len(pending)
	}
	n := start + i
	for n > start && (pending[n-1] == '(' || pending[n-1] == ' ') {
		n--
	}
	return n
}

// refsOf reads a message's citations for text, its raw text from code
// point base on (the accumulator keeps no text: cite.Window); none when it
// holds a refusal (the written offsets would not line up with its text).
func refsOf(it *stream.Item, text string, base int) cite.Refs {
	_, refusal, parts := cite.Split(it.Content)
	if refusal != "" {
		return cite.Refs{}
	}
	return cite.Window(parts, text, base)
}

// writeSources writes the Sources list of an answer that cites: "[n] title
// — url" a line (markdown: a numbered list).
func (p *textPrinter) writeSources(it *stream.Item) {
	src := refsOf(it, "", 0).Sources
	if len(src) == 0 {
		return
	}
	var b strings.Builder
	if !p.endsNL {
		b.WriteString("\n")
	}
	b.WriteString("\nSources\n")
	if !p.inline {
		b.WriteString("\n")
	}
	for _, s := range src {
		n := strconv.Itoa(s.N)
		if p.inline {
			b.WriteString("[" + n + "] ")
		} else {
			b.WriteString(n + ". ")
		}
		b.WriteString(stream.SanitizeLine(s.Label()))
		if s.URL != "" && s.Title != "" {
			b.WriteString(" — " + s.URL)
		}
		b.WriteString("\n")
	}
	io.WriteString(p.out, b.String())
	p.endsNL, p.lastItem = true, nil
}

// search holds a finished hosted search for the line of the group it ends
// up in.
func (p *textPrinter) search(it *stream.Item) {
	p.summed[it] = true
	p.searches = append(p.searches, it)
}

// endSearches writes the line of the hosted searches held: "• Web search
// ×6: q1 · q2 (12 sources)".
func (p *textPrinter) endSearches() {
	if len(p.searches) == 0 {
		return
	}
	line := "• " + cite.Tally(p.searches).Line()
	p.searches = nil
	p.line(line)
}
