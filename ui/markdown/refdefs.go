package markdown

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// refDefs holds the reference definitions seen so far in a message, so a
// block rendered on its own can resolve `[text][label]` links whose
// definition lives in another block (models put them at the end).
//
// Only one-line definitions are collected ("[label]: dest" with an optional
// title on the same line, as goldmark reads it), and only where a block may
// start (not as a paragraph's continuation); "[^1]: text" is not one. A
// definition that spans lines still works inside its own block, it just is
// not shared.
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

// defParser is goldmark's plain CommonMark parser, read-only after
// construction; parseDef asks it whether a line is a definition, so the
// answer is exactly what glamour's parse would give.
var defParser = goldmark.New().Parser()

// parseDef recognises a one-line link reference definition (as goldmark
// parses it on its own) and returns its normalised label.
func parseDef(line string) (string, bool) {
	cols, i := leadingSpaces(line)
	if cols > 3 || i >= len(line) || line[i] != '[' || !strings.Contains(line, "]:") {
		return "", false
	}
	pc := parser.NewContext()
	doc := defParser.Parse(text.NewReader([]byte(line)), parser.WithContext(pc))
	refs := pc.References()
	if len(refs) != 1 {
		return "", false
	}
	// Goldmark leaves the emptied paragraph behind: nothing else may remain.
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Lines().Len() > 0 || c.FirstChild() != nil {
			return "", false
		}
	}
	label := util.ToLinkReference(refs[0].Label())
	return label, label != ""
}
