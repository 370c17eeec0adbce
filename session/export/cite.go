package export

import (
	"strconv"
	"strings"

	"runnel/stream"
	"runnel/stream/cite"
)

// Citations and searches are written as the chat shows them, through
// package cite: an answer's cited spans become numbered markers ("[1]",
// linked to the cleaned URL), the answer is followed by one Sources list,
// cited URLs lose their tracking parameters, and consecutive hosted
// searches are one line ("Web search ×6: q1 · q2 (6 searches, 12
// sources)") instead of a panel each.

// answer returns an assistant message's markdown: its text with the
// citation markers put in and its Sources list, or ok false when it cites
// nothing (the message is written as stored).
func answer(it *stream.Item) (md string, ok bool) {
	text, refusal, parts := cite.Split(it.Content)
	refs := cite.Of(parts)
	if len(refs.Sources) == 0 {
		return "", false
	}
	body := cite.DropTrackingIn(refs.Marked(text, mdMarker))
	if strings.TrimSpace(refusal) != "" {
		body = strings.TrimRight(body, "\n") + "\n\n" + refusal
	}
	return closeFences(stream.Sanitize(body)) + "\n\n" + sourcesList(refs.Sources), true
}

// mdMarker writes a marker as an escaped "[n]", linked to the cited URL
// (SafeURL's: no spaces, controls or angle brackets) when there is one.
func mdMarker(n int, url string) string {
	text := `\[` + strconv.Itoa(n) + `\]`
	if url == "" {
		return text
	}
	return "[" + text + "](<" + url + ">)"
}

// sourcesList is the answer's sources as a numbered list under "Sources".
func sourcesList(sources []cite.Source) string {
	var b strings.Builder
	b.WriteString("**Sources**\n\n")
	for _, s := range sources {
		label := escapeMD(stream.SanitizeLine(s.Label()))
		b.WriteString(strconv.Itoa(s.N) + ". ")
		if s.URL != "" {
			b.WriteString("[" + label + "](<" + s.URL + ">)")
			if s.Title != "" {
				b.WriteString(" — " + code(s.URL))
			}
		} else {
			b.WriteString(label)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// escapeMD makes one line of text literal in markdown.
func escapeMD(s string) string { return mdEscaper.Replace(s) }

var mdEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "#", `\#`, "!", `\!`, "|", `\|`, "~", `\~`, "&", `\&`)

// search holds a hosted search to be written with the ones that follow it.
func (d *doc) search(it *stream.Item) { d.searches = append(d.searches, it) }

// endSearches writes the hosted searches held as one line (in HTML, one
// panel headed by the line, listing what was searched and the files found).
func (d *doc) endSearches() {
	if len(d.searches) == 0 {
		return
	}
	items := d.searches
	d.searches = nil
	t := cite.Tally(items)
	line := t.Line()
	if d.html == nil {
		md := "**" + t.Head() + "**"
		for i, q := range t.Queries {
			sep := " · "
			if i == 0 {
				sep = ": "
			}
			md += sep + code(q)
		}
		if f := t.Found(); f != "" {
			md += " (" + f + ")"
		}
		d.block(md)
		return
	}
	d.flush()
	d.html.summary = line
	var b strings.Builder
	for _, q := range t.Queries {
		b.WriteString("- " + code(q) + "\n")
	}
	for _, it := range items {
		for _, r := range it.Details().Results {
			b.WriteString("- " + code(r.Filename) + "\n")
		}
	}
	if b.Len() == 0 {
		b.WriteString(escapeMD(t.Line()) + "\n")
	}
	d.block(b.String())
	d.panel("web_search_call", line)
	d.html.summary = ""
}
