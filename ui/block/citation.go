package block

import (
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"runnel/stream"
	"runnel/ui/markdown"
)

// source is one numbered reference of a message: a cited URL or file.
type source struct {
	n     int
	title string // cleaned; may be empty
	url   string // http or https only, validated; empty for files
	file  string // file name for file citations (cleaned)
	note  string // "file", "container file", or an unknown annotation type
}

// mark is a reference marker to put into a message's text: text[from:at]
// (byte offsets in the message's joined raw text) is replaced by the
// marker; from == at inserts it.
type mark struct {
	from int // where the cited span starts, when the marker replaces it
	at   int // where the marker goes (the end of the span it replaces)
	n    int // source number
	url  string
}

// refs are the references of one message: its sources in number order and
// the markers to insert.
type refs struct {
	sources []source
	marks   []mark // sorted by at, then n
}

// citations reads the annotations of a message's parts. Equal sources (same
// URL, same file) share a number; numbers follow first appearance.
// Annotations with no usable position (xAI sends URLs only; an image citation
// at 0..0) get a source but no marker.
func citations(parts []stream.Part) refs {
	var r refs
	byKey := map[string]int{}
	base := 0
	for _, p := range parts {
		for _, raw := range p.Annotations {
			if len(raw) == 0 {
				continue
			}
			var a map[string]json.RawMessage
			if json.Unmarshal(raw, &a) != nil {
				continue
			}
			src, key := annotationSource(a)
			if key == "" {
				continue
			}
			n, ok := byKey[key]
			if !ok {
				n = len(r.sources) + 1
				byKey[key] = n
				src.n = n
				r.sources = append(r.sources, src)
			}
			if from, at, ok := annotationPos(a, p.Text, r.sources[n-1].url); ok {
				r.marks = append(r.marks, mark{from: base + from, at: base + at, n: n, url: r.sources[n-1].url})
			}
		}
		base += len(p.Text)
	}
	sort.SliceStable(r.marks, func(i, j int) bool {
		if r.marks[i].at != r.marks[j].at {
			return r.marks[i].at < r.marks[j].at
		}
		return r.marks[i].from > r.marks[j].from // an insertion before a replacement ending there
	})
	return r
}

// annotationSource turns an annotation into a source and its identity key;
// the key is "" for an annotation with nothing to show.
func annotationSource(a map[string]json.RawMessage) (source, string) {
	typ := stream.JSONString(a["type"])
	var s source
	s.title = cleanLine(stream.JSONString(a["title"]))
	if u, ok := safeURL(stream.JSONString(a["url"])); ok {
		s.url = u
	}
	s.file = cleanLine(stream.JSONString(a["filename"]))
	fileID := stream.JSONString(a["file_id"])
	switch typ {
	case "url_citation":
	case "file_citation":
		s.note = "file"
	case "container_file_citation":
		s.note = "container file"
	default:
		s.note = cleanLine(typ)
	}
	switch {
	case s.url != "":
		return s, "url:" + s.url
	case fileID != "":
		if s.file == "" {
			s.file = cleanLine(fileID)
		}
		return s, "file:" + fileID
	case s.file != "":
		return s, "file:" + s.file
	case s.title != "":
		return s, "title:" + s.title
	}
	return s, ""
}

// annotationPos returns where in text an annotation's marker goes, as byte
// offsets: the marker replaces text[from:at] when the cited span
// (start_index to end_index, counted in code points as the API counts them)
// is only a markdown link to the cited URL, "([site](url))" as OpenAI's web
// search writes it, which would otherwise show the URL twice; else it goes
// after end_index (or index), clamped to the text, and from == at. A
// position inside code, inside a link's target or in the middle of a word
// is moved to the end of its paragraph.
func annotationPos(a map[string]json.RawMessage, text, url string) (from, at int, ok bool) {
	idx, ok := intField(a["end_index"])
	if !ok {
		if idx, ok = intField(a["index"]); !ok {
			return 0, 0, false
		}
	}
	start, _ := intField(a["start_index"])
	if idx <= 0 && start <= 0 {
		return 0, 0, false // no position (an attached file)
	}
	at = runeOffset(text, idx)
	if from := runeOffset(text, start); url != "" && from < at && linkTo(text[from:at], url) && goodMarkSpot(text, from) {
		return from, at, true
	}
	if !goodMarkSpot(text, at) {
		at = paragraphEnd(text, at)
	}
	return at, at, true
}

// linkTo reports whether span is one markdown link to url (tracking
// parameters aside), in parentheses or not: "([site](url))", "[site](url)".
func linkTo(span, url string) bool {
	s := strings.TrimSpace(span)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") && strings.HasPrefix(s[1:], "[") {
		s = s[1 : len(s)-1]
	}
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, ")") || strings.ContainsAny(s, "\n`") {
		return false
	}
	label, dest, ok := strings.Cut(s[1:len(s)-1], "](")
	if !ok || strings.ContainsAny(label, "[]") {
		return false
	}
	u, ok := safeURL(strings.Trim(dest, "<>"))
	return ok && u == url
}

func intField(v json.RawMessage) (int, bool) {
	if len(v) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(stream.JSONText(v))
	if err != nil {
		return 0, false
	}
	return n, true
}

// runeOffset converts a code point index into a byte offset in s, clamped.
func runeOffset(s string, idx int) int {
	if idx <= 0 {
		return 0
	}
	for i := range s {
		if idx == 0 {
			return i
		}
		idx--
	}
	return len(s)
}

// goodMarkSpot reports whether a marker can go at byte offset at without
// breaking the markdown around it.
func goodMarkSpot(text string, at int) bool {
	if at == 0 || at >= len(text) {
		return true
	}
	before, _ := utf8.DecodeLastRuneInString(text[:at])
	after, _ := utf8.DecodeRuneInString(text[at:])
	if isWordRune(before) && isWordRune(after) {
		return false
	}
	if before == '\\' {
		return false
	}
	if inFence(text[:at]) {
		return false
	}
	line := text[strings.LastIndexByte(text[:at], '\n')+1 : at]
	if t := strings.TrimLeft(line, " "); fenceRun(t) >= 3 {
		return false // on a fence line: the marker would change the fence
	}
	if strings.Count(line, "`")%2 == 1 {
		return false // inside a code span
	}
	if o := strings.LastIndex(line, "]("); o >= 0 && !strings.Contains(line[o:], ")") {
		return false // inside a link target
	}
	return true
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// inFence reports whether the end of text is inside a fenced code block.
func inFence(text string) bool {
	var ch byte
	n := 0
	for line := range strings.Lines(text) {
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
			continue
		}
		run := len(t) - len(strings.TrimLeft(t, t[:1]))
		switch {
		case ch == 0 && run >= 3:
			ch, n = t[0], run
		case ch == t[0] && run >= n && strings.TrimSpace(t[run:]) == "":
			ch = 0
		}
	}
	return ch != 0
}

// paragraphEnd returns the offset of the end of the paragraph holding at:
// the next blank line where a marker fits (outside a fence, not on a fence
// line), or the end of the text.
func paragraphEnd(text string, at int) int {
	for i := at; i < len(text); {
		j := strings.Index(text[i:], "\n\n")
		if j < 0 {
			break
		}
		if end := i + j; goodMarkSpot(text, end) {
			return end
		}
		i += j + 2
	}
	return len(strings.TrimRight(text, "\n"))
}

// marked returns text with the markers of r put in (markerText). A span
// that overlaps one already replaced gets its marker inserted instead.
func (r refs) marked(text string) string {
	if len(r.marks) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 6*len(r.marks))
	last := 0
	for _, m := range r.marks {
		at := min(max(m.at, last), len(text))
		from := at
		if m.from >= last && m.from < at {
			from = m.from
		}
		b.WriteString(text[last:from])
		b.WriteString(markerText(m.n, m.url))
		last = at
	}
	b.WriteString(text[last:])
	return b.String()
}

// markerText is the markdown of a marker: "[n]" (escaped, so markdown never
// takes it for a link), and for a cited URL a link that ui/markdown draws as
// that text alone, hyperlinked (markdown.CiteTitle). The URL is safeURL's:
// no spaces, controls, angle brackets or backslashes.
func markerText(n int, url string) string {
	text := `\[` + strconv.Itoa(n) + `\]`
	if url == "" {
		return text
	}
	return "[" + text + "](<" + url + "> \"" + markdown.CiteTitle + "\")"
}

// safeURL returns a URL that is safe to print, to put in a hyperlink and in
// a markdown link: http or https with a host, its tracking parameters
// (utm_*) dropped, and no controls, spaces, angle brackets or backslashes
// (percent-encoded when the parser left them). ok is false for anything
// else.
func safeURL(raw string) (string, bool) {
	s := cleanLine(raw)
	if s == "" || strings.ContainsAny(s, " \x7f") {
		return "", false
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	u.RawQuery = dropTracking(u.RawQuery)
	u.ForceQuery = false
	out := urlEscaper.Replace(u.String())
	for i := 0; i < len(out); i++ {
		if out[i] <= 0x20 || out[i] == 0x7f {
			return "", false
		}
	}
	return out, true
}

var urlEscaper = strings.NewReplacer("<", "%3C", ">", "%3E", `\`, "%5C", "\"", "%22")

// dropTracking removes the utm_* parameters from a raw query, keeping the
// others as they were written, in their order.
func dropTracking(q string) string {
	if !strings.Contains(strings.ToLower(q), "utm_") {
		return q
	}
	var kept []string
	for p := range strings.SplitSeq(q, "&") {
		if p != "" && !strings.HasPrefix(strings.ToLower(p), "utm_") {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "&")
}
