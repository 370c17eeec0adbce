package attach

import (
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
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

// PastedPath reports whether pasted text is shaped like a dropped path (one
// line, absolute, ~/, ./ or a file:// URL, after Expand) naming something
// that exists, or that cannot be looked at: a directory, a device or an
// unreadable file counts, so that Check can say why it cannot be attached.
// A bare word ("main.go") or a path to nothing is text.
func PastedPath(text string) (string, bool) {
	t := strings.TrimSpace(text)
	if t == "" || strings.ContainsAny(t, "\n\r") || len(t) > 4096 {
		return "", false
	}
	p := Expand(t)
	if !strings.HasPrefix(t, "file://") && !filepath.IsAbs(p) && !strings.HasPrefix(t, "~") && !strings.HasPrefix(p, ".") {
		// a bare word like "main.go" pasted is text; drops are absolute
		return "", false
	}
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return "", false
	}
	return p, true
}

// Mention is an @path in a text: its byte span (including the @ and any
// quotes) and path. A path with a space is written quoted: @"my dir/a.txt".
type Mention struct {
	Start, End int
	Path       string
	Quoted     bool // written @"…"; while being typed the closing quote may be missing
}

// MentionAt returns the @word ending at byte offset end of text (the cursor),
// if the word starts with @ after a space or the start of the text. An open
// quoted mention (@"my dir/fi, no closing quote yet) counts whole, spaces
// and all.
func MentionAt(text string, end int) (Mention, bool) {
	if end > len(text) || end < 1 {
		return Mention{}, false
	}
	if at := strings.LastIndex(text[:end], `@"`); at >= 0 && startsWord(text, at) && !strings.ContainsAny(text[at+2:end], "\"\n") {
		return Mention{Start: at, End: end, Path: text[at+2 : end], Quoted: true}, true
	}
	start := strings.LastIndexAny(text[:end], " \t\n") + 1
	if start >= end || text[start] != '@' {
		return Mention{}, false
	}
	return Mention{Start: start, End: end, Path: text[start+1 : end]}, true
}

// startsWord reports whether byte i of text starts a word.
func startsWord(text string, i int) bool {
	return i == 0 || strings.ContainsRune(" \t\n", rune(text[i-1]))
}

// Mentions returns every @word of text that names an existing regular file:
// @path, or @"path with spaces" (its closing quote followed by a space, the
// end of the text or punctuation).
func Mentions(text string) []Mention {
	var out []Mention
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || !startsWord(text, i) {
			continue
		}
		m, ok := mentionFrom(text, i)
		if !ok {
			continue
		}
		i = m.End - 1
		if fi, err := os.Stat(Expand(m.Path)); err == nil && fi.Mode().IsRegular() && m.Path != "" {
			out = append(out, m)
		}
	}
	return out
}

// mentionFrom reads the mention whose @ is at byte i of text.
func mentionFrom(text string, i int) (Mention, bool) {
	rest := text[i+1:]
	if q, ok := strings.CutPrefix(rest, `"`); ok {
		closing := strings.IndexAny(q, "\"\n")
		if closing < 0 || q[closing] != '"' {
			return Mention{}, false
		}
		end := i + 2 + closing + 1
		if end < len(text) && !strings.ContainsRune(" \t\n.,;:!?)]}'", rune(text[end])) {
			return Mention{}, false
		}
		return Mention{Start: i, End: end, Path: q[:closing], Quoted: true}, true
	}
	n := strings.IndexAny(rest, " \t\n")
	if n < 0 {
		n = len(rest)
	}
	return Mention{Start: i, End: i + 1 + n, Path: rest[:n]}, n > 0
}

// QuoteMention is how path is written after an @: as is, or quoted when it
// holds a space (open leaves the closing quote off, for a directory being
// completed further). ok is false for a path no mention can hold: one with
// a double quote or a line break.
func QuoteMention(path string, open bool) (string, bool) {
	if strings.ContainsAny(path, "\"\n\r") {
		return "", false
	}
	if !strings.ContainsAny(path, " \t") {
		return path, true
	}
	if open {
		return `"` + path, true
	}
	return `"` + path + `"`, true
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
