// Package cite reads the citations of an answer (the annotations of its
// message parts) into numbered sources and the markers to put into its
// text, and cleans cited URLs (SafeURL: http or https only, tracking
// parameters dropped). It also groups consecutive hosted searches
// (search.go). The chat (ui/block), the exports (session/export) and the
// plain output (ui/output) all number, mark and clean the same way through
// it; each only chooses how a marker and the Sources list are written.
//
// It does not render anything or know about terminals or markdown
// renderers.
package cite

import (
	"encoding/json"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"runnel/stream"
)

// Source is one numbered reference of a message: a cited URL or file.
type Source struct {
	N     int
	Title string // cleaned; may be empty
	URL   string // http or https only, validated (SafeURL); empty for files
	File  string // file name for file citations (cleaned)
	Note  string // "file", "container file", or an unknown annotation type
}

// Mark is a reference marker to put into a message's text: text[from:at]
// (byte offsets in the message's joined raw text) is replaced by the
// marker; from == at inserts it.
type Mark struct {
	From int // where the cited span starts, when the marker replaces it
	At   int // where the marker goes (the end of the span it replaces)
	N    int // source number
	URL  string
}

// Refs are the references of one message: its sources in number order and
// the markers to insert.
type Refs struct {
	Sources []Source
	Marks   []Mark // sorted by At, then N
}

// Of reads the annotations of a message's parts. Equal sources (same
// URL, same file) share a number; numbers follow first appearance.
// Annotations with no usable position (xAI sends URLs only; an image citation
// at 0..0) get a source but no marker.
func Of(parts []stream.Part) Refs {
	r, _ := of(parts)
	return r
}

// of is Of, with the number of each source's identity key.
func of(parts []stream.Part) (Refs, map[string]int) {
	var r Refs
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
				n = len(r.Sources) + 1
				byKey[key] = n
				src.N = n
				r.Sources = append(r.Sources, src)
			}
			if from, at, ok := annotationPos(a, p.Text, r.Sources[n-1].URL); ok {
				r.Marks = append(r.Marks, Mark{From: base + from, At: base + at, N: n, URL: r.Sources[n-1].URL})
			}
		}
		base += len(p.Text)
	}
	sortMarks(r.Marks)
	return r, byKey
}

// sortMarks orders marks by At; at the same At an insertion comes before a
// replacement ending there.
func sortMarks(ms []Mark) {
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].At != ms[j].At {
			return ms[i].At < ms[j].At
		}
		return ms[i].From > ms[j].From
	})
}

// annotationSource turns an annotation into a source and its identity key;
// the key is "" for an annotation with nothing to show.
func annotationSource(a map[string]json.RawMessage) (Source, string) {
	typ := stream.JSONString(a["type"])
	var s Source
	s.Title = stream.SanitizeLine(stream.JSONString(a["title"]))
	if u, ok := SafeURL(stream.JSONString(a["url"])); ok {
		s.URL = u
	}
	s.File = stream.SanitizeLine(stream.JSONString(a["filename"]))
	fileID := stream.JSONString(a["file_id"])
	switch typ {
	case "url_citation":
	case "file_citation":
		s.Note = "file"
	case "container_file_citation":
		s.Note = "container file"
	default:
		s.Note = stream.SanitizeLine(typ)
	}
	switch {
	case s.URL != "":
		return s, "url:" + s.URL
	case fileID != "":
		if s.File == "" {
			s.File = stream.SanitizeLine(fileID)
		}
		return s, "file:" + fileID
	case s.File != "":
		return s, "file:" + s.File
	case s.Title != "":
		return s, "title:" + s.Title
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
	start, idx, ok := position(a)
	if !ok {
		return 0, 0, false
	}
	return place(text, start, idx, url)
}

// position reads an annotation's cited span in code points: start (0 when
// not given) to idx (end_index, else index); ok is false with no position
// (an attached file; xAI's URLs).
func position(a map[string]json.RawMessage) (start, idx int, ok bool) {
	idx, ok = intField(a["end_index"])
	if !ok {
		if idx, ok = intField(a["index"]); !ok {
			return 0, 0, false
		}
	}
	start, _ = intField(a["start_index"])
	if idx <= 0 && start <= 0 {
		return 0, 0, false
	}
	return start, idx, true
}

// place turns a span in code points into annotationPos's byte offsets; a
// negative start (a span that began before the text) never replaces.
func place(text string, start, idx int, url string) (from, at int, ok bool) {
	at = runeOffset(text, idx)
	if start >= 0 {
		if from := runeOffset(text, start); url != "" && from < at && linkTo(text[from:at], url) && goodMarkSpot(text, from) {
			return from, at, true
		}
	}
	if !goodMarkSpot(text, at) {
		at = paragraphEnd(text, at)
	}
	return at, at, true
}

// Window reads the citations of a one-part message for a printer that
// keeps only the text it has not written yet: text is the part's text
// from code point base on. The sources are all of them, numbered as Of
// numbers them; the marks are those whose position falls in text, as byte
// offsets in it. A message of more parts gets its sources and no marks.
func Window(parts []stream.Part, text string, base int) Refs {
	r, byKey := of(parts)
	r.Marks = nil
	if len(parts) != 1 {
		return r
	}
	end := base + utf8.RuneCountInString(text)
	for _, raw := range parts[0].Annotations {
		var a map[string]json.RawMessage
		if len(raw) == 0 || json.Unmarshal(raw, &a) != nil {
			continue
		}
		src, key := annotationSource(a)
		start, idx, ok := position(a)
		if key == "" || !ok || idx < base || idx > end {
			continue
		}
		n := byKey[key]
		if n == 0 {
			continue
		}
		if start < base {
			start = -1
		} else {
			start -= base
		}
		if from, at, ok := place(text, start, idx-base, src.URL); ok {
			r.Marks = append(r.Marks, Mark{From: from, At: at, N: n, URL: src.URL})
		}
	}
	sortMarks(r.Marks)
	return r
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
	u, ok := SafeURL(strings.Trim(dest, "<>"))
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
	if t := strings.TrimLeft(line, " "); FenceRun(t) >= 3 {
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

// Marked returns text with the markers of r put in, each as marker(n,
// url) writes it. A span that overlaps one already replaced gets its marker
// inserted instead.
func (r Refs) Marked(text string, marker func(n int, url string) string) string {
	if len(r.Marks) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 6*len(r.Marks))
	last := 0
	for _, m := range r.Marks {
		at := min(max(m.At, last), len(text))
		from := at
		if m.From >= last && m.From < at {
			from = m.From
		}
		b.WriteString(text[last:from])
		b.WriteString(marker(m.N, m.URL))
		last = at
	}
	b.WriteString(text[last:])
	return b.String()
}

// Chunk keeps the markers of r that fall in the raw text [from, to) (to
// included for the last chunk), shifted to the chunk. A marker whose span
// began in a chunk already written is inserted, not replacing.
func (r Refs) Chunk(from, to int, last bool) Refs {
	var out Refs
	for _, m := range r.Marks {
		if m.At >= from && (m.At < to || (last && m.At == to)) {
			c := Mark{From: m.At - from, At: m.At - from, N: m.N, URL: m.URL}
			if m.From >= from {
				c.From = m.From - from
			}
			out.Marks = append(out.Marks, c)
		}
	}
	return out
}

// Label is what a source is listed as: its title, else its file name,
// else its URL, with its note in parentheses.
func (s Source) Label() string {
	label := s.Title
	if label == "" {
		label = s.File
	}
	if label == "" {
		label = s.URL
	}
	if s.Note != "" {
		label += " (" + s.Note + ")"
	}
	return label
}

// Plain is the marker of plain text and markdown documents: "[n]", escaped
// for markdown when md is set (so it is never taken for a link).
func Plain(md bool) func(n int, url string) string {
	return func(n int, _ string) string {
		if md {
			return `\[` + strconv.Itoa(n) + `\]`
		}
		return "[" + strconv.Itoa(n) + "]"
	}
}

// SafeURL returns a URL that is safe to print, to put in a hyperlink and in
// a markdown link: http or https with a host, its tracking parameters
// (utm_*) dropped, and no controls, spaces, angle brackets or backslashes
// (percent-encoded when the parser left them). ok is false for anything
// else.
func SafeURL(raw string) (string, bool) {
	s := stream.SanitizeLine(raw)
	if s == "" || strings.ContainsAny(s, " \x7f") {
		return "", false
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	u.RawQuery = DropTracking(u.RawQuery)
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

// DropTracking removes the utm_* parameters from a raw query, keeping the
// others as they were written, in their order.
func DropTracking(q string) string {
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

// FenceRun counts the fence characters (` or ~) t starts with.
func FenceRun(t string) int {
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	return n
}

// Split separates a message's text parts (joined as text, and the parts
// Of reads, whose offsets count in text) from its refusal parts.
func Split(content []stream.Part) (text, refusal string, parts []stream.Part) {
	if len(content) == 1 && content[0].Type != "refusal" {
		return content[0].Text, "", content // no copy of a growing text
	}
	var t, r strings.Builder
	for _, p := range content {
		if p.Type == "refusal" {
			r.WriteString(p.Text)
			continue
		}
		t.WriteString(p.Text)
		parts = append(parts, p)
	}
	return t.String(), r.String(), parts
}

// DropTrackingIn returns text with the tracking parameters (utm_*) dropped
// from every http(s) URL in it, cited or not (a model writes links of its
// own with them too); the rest of each URL is kept as written.
func DropTrackingIn(text string) string {
	if !strings.Contains(strings.ToLower(text), "utm_") {
		return text
	}
	return urlInText.ReplaceAllStringFunc(text, dropTrackingURL)
}

var urlInText = regexp.MustCompile(`(?i)https?://[^\s<>()\[\]"'` + "`" + `]+`)

// dropTrackingURL drops the utm_* parameters of one URL as written.
func dropTrackingURL(u string) string {
	if t := strings.TrimRight(u, ".,;:!?"); t != u {
		return dropTrackingURL(t) + u[len(t):] // the sentence's punctuation, not the URL's
	}
	q := strings.IndexByte(u, '?')
	if q < 0 {
		return u
	}
	query, frag := u[q+1:], ""
	if h := strings.IndexByte(query, '#'); h >= 0 {
		query, frag = query[:h], query[h:]
	}
	query = DropTracking(query)
	out := u[:q]
	if query != "" {
		out += "?" + query
	}
	return out + frag
}
