package markdown

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/util"
)

// refDefs holds the reference definitions seen so far in a message, so a
// block rendered on its own can resolve `[text][label]` links whose
// definition lives in another block (models put them at the end).
//
// Only strict one-line definitions are collected ("[label]: dest" with an
// optional title on the same line); footnotes ("[^1]: ...") are not
// definitions. A definition that spans lines still works inside its own
// block, it just is not shared.
//
// A definition counts once its line is complete: while it arrives, links
// that use it show as written (see Stream.partialDef).
//
// Invariant: lines holds the first definition of each normalised label, as
// in CommonMark; later ones never replace it.
type refDefs struct {
	lines map[string]string // normalised label → definition line
}

// add keeps d unless its label is already defined. It reports whether the
// set changed.
func (r *refDefs) add(d defAt) bool {
	if _, ok := r.lines[d.label]; ok {
		return false
	}
	if r.lines == nil {
		r.lines = make(map[string]string)
	}
	r.lines[d.label] = d.line
	return true
}

// prefix returns the definitions that labels use, one per line, to put in
// front of a block's source. An empty result means none apply.
func (r *refDefs) prefix(labels []string) string {
	if len(labels) == 0 || len(r.lines) == 0 {
		return ""
	}
	var b strings.Builder
	for _, l := range labels {
		if line, ok := r.lines[l]; ok {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// labelsIn returns the sorted, normalised contents of every innermost
// bracket pair in src: a superset of the reference labels src can use.
// Definitions for labels a block does not use are never added to it, and
// adding one it does not need changes nothing.
func labelsIn(src string) []string {
	var out []string
	open := -1
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '[':
			open = i
		case ']':
			if open >= 0 && i-open > 1 && i-open <= 1000 {
				if l := util.ToLinkReference([]byte(src[open+1 : i])); l != "" {
					out = append(out, l)
				}
			}
			open = -1
		case '\n':
			if i+1 < len(src) && src[i+1] == '\n' {
				open = -1 // labels do not span blank lines
			}
		}
	}
	return sortedUnique(out)
}

// sortedUnique sorts labels and drops duplicates, in place.
func sortedUnique(labels []string) []string {
	slices.Sort(labels)
	return slices.Compact(labels)
}

// usesAny reports whether the sorted labels contain one of changed.
func usesAny(labels, changed []string) bool {
	for _, c := range changed {
		if _, ok := slices.BinarySearch(labels, c); ok {
			return true
		}
	}
	return false
}

// parseDef recognises a strict one-line link reference definition and
// returns its normalised label.
func parseDef(line string) (string, bool) {
	line = strings.TrimRight(line, "\r")
	cols, i := leadingSpaces(line)
	if cols > 3 || i >= len(line) || line[i] != '[' {
		return "", false
	}
	i++
	start := i
	for ; i < len(line) && line[i] != ']'; i++ {
		switch line[i] {
		case '\\':
			i++
		case '[':
			return "", false
		}
	}
	if i >= len(line) || i == start || i-start > 999 || line[start] == '^' {
		return "", false
	}
	label := util.ToLinkReference([]byte(line[start:i]))
	if label == "" {
		return "", false
	}
	i++ // ']'
	if i >= len(line) || line[i] != ':' {
		return "", false
	}
	rest := strings.TrimLeft(line[i+1:], " \t")
	rest, ok := skipDestination(rest)
	if !ok {
		return "", false
	}
	if isBlank(rest) {
		return label, true
	}
	// A title needs whitespace before it and nothing after it.
	trimmed := strings.TrimLeft(rest, " \t")
	if len(trimmed) == len(rest) {
		return "", false
	}
	rest, ok = skipTitle(trimmed)
	if !ok || !isBlank(rest) {
		return "", false
	}
	return label, true
}

// skipDestination consumes a link destination and returns what follows.
func skipDestination(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	if s[0] == '<' {
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '<':
				return "", false
			case '>':
				return s[i+1:], true
			}
		}
		return "", false
	}
	depth := 0
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c < 0x20 || c == 0x7f {
			break
		}
		switch c {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return "", false
			}
		}
	}
	if i == 0 || depth != 0 {
		return "", false
	}
	if i > len(s) {
		i = len(s)
	}
	return s[i:], true
}

// skipTitle consumes a complete link title and returns what follows.
func skipTitle(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	closer := s[0]
	switch closer {
	case '"', '\'':
	case '(':
		closer = ')'
	default:
		return "", false
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case closer:
			return s[i+1:], true
		}
	}
	return "", false
}
