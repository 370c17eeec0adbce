package attach

import (
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// Expand turns what a user typed or a terminal pasted into a path: a leading
// ~/ is the home directory, surrounding quotes are removed, backslash escapes
// (drag-and-drop's "my\ file.png") are undone and a file:// URL becomes its
// path.
func Expand(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		s = s[1 : len(s)-1]
	} else if strings.Contains(s, `\`) && !isWindowsPath(s) {
		s = unescape(s)
	}
	if strings.HasPrefix(s, "file://") {
		if u, err := url.Parse(s); err == nil && (u.Host == "" || u.Host == "localhost") {
			s = u.Path
		}
	}
	if s == "~" || strings.HasPrefix(s, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			s = filepath.Join(home, s[1:])
		}
	}
	return s
}

func isWindowsPath(s string) bool {
	return len(s) > 2 && s[1] == ':' && s[2] == '\\'
}

// unescape undoes shell backslash escapes: "\ " is a space, "\\" a backslash.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Pasted reports whether pasted text is the path of an existing regular file
// (what dropping a file on a terminal sends): one line, after Expand. It
// returns the path to attach.
func Pasted(text string) (string, bool) {
	t := strings.TrimSpace(text)
	if t == "" || strings.ContainsAny(t, "\n\r") || len(t) > 4096 {
		return "", false
	}
	p := Expand(t)
	if !strings.HasPrefix(t, "file://") && !filepath.IsAbs(p) && !strings.HasPrefix(t, "~") && !strings.HasPrefix(p, ".") {
		// a bare word like "main.go" pasted is text; drops are absolute
		return "", false
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	return p, true
}

// Mention is an @path in a text: its byte span (including the @) and path.
type Mention struct {
	Start, End int
	Path       string
}

// MentionAt returns the @word ending at byte offset end of text (the cursor),
// if the word starts with @ after a space or the start of the text.
func MentionAt(text string, end int) (Mention, bool) {
	if end > len(text) || end < 1 {
		return Mention{}, false
	}
	start := strings.LastIndexAny(text[:end], " \t\n") + 1
	if start >= end || text[start] != '@' {
		return Mention{}, false
	}
	return Mention{Start: start, End: end, Path: text[start+1 : end]}, true
}

// Mentions returns every @word of text that names an existing regular file.
func Mentions(text string) []Mention {
	var out []Mention
	i := 0
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }) {
		at := strings.Index(text[i:], w) + i
		i = at + len(w)
		if len(w) < 2 || w[0] != '@' {
			continue
		}
		if fi, err := os.Stat(Expand(w[1:])); err == nil && fi.Mode().IsRegular() {
			out = append(out, Mention{Start: at, End: at + len(w), Path: w[1:]})
		}
	}
	return out
}

// Complete returns the paths that partial may complete to, sorted, at most
// limit of them: directories end in "/". Hidden files show only when partial
// names a dot.
func Complete(partial string, limit int) []string {
	dir, base := filepath.Split(partial)
	read := dir
	if read == "" {
		read = "."
	}
	entries, err := os.ReadDir(Expand(read))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, base) || strings.HasPrefix(n, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		p := dir + n
		if e.IsDir() {
			p += "/"
		} else if e.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(Expand(p)); err == nil && fi.IsDir() {
				p += "/"
			}
		}
		out = append(out, p)
	}
	sort.Strings(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// CommonPrefix is the longest prefix shared by every string.
func CommonPrefix(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	for len(p) > 0 && !utf8.ValidString(p) { // never half a rune
		p = p[:len(p)-1]
	}
	return p
}
