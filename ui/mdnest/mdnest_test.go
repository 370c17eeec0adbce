package mdnest

import (
	"strings"
	"testing"
)

// TestGuardLeavesOrdinaryMarkdown: markdown that nests as people write it
// is left as it is, code fences included.
func TestGuardLeavesOrdinaryMarkdown(t *testing.T) {
	doc := "# T\n\n> a [link](http://x.y/(z)) and [[wiki]]\n> > nested\n\n- a\n  - b\n    1. c\n\n```\n" +
		strings.Repeat("[", 100) + "\n```\n\n" + strings.Repeat("(a) ", 100)
	b := []byte(doc)
	if note := Guard(b); note != "" || string(b) != doc {
		t.Fatalf("guarded ordinary markdown: %q", note)
	}
}

// TestGuardNeutralizesPastTheLimit: past MaxNest, brackets, parentheses,
// quote markers and deep list markers become neutral, each kind with a
// note; a blank line starts the count again.
func TestGuardNeutralizesPastTheLimit(t *testing.T) {
	deepList := strings.Repeat("  ", MaxNest) + "- x\n"
	for _, tc := range []struct {
		doc  string
		kept int // bytes kept in front of the first neutral one
	}{
		{strings.Repeat("[", 40), MaxNest},
		{strings.Repeat("[a](", 40), 4*MaxNest + 3},
		{strings.Repeat("> ", 40) + "x", 2 * MaxNest},
		{deepList, 2 * MaxNest},
		{strings.Repeat("[", 20) + "\n\n" + strings.Repeat("[", 20), -1},
	} {
		b := []byte(tc.doc)
		note := Guard(b)
		at := strings.IndexByte(string(b), neutral)
		if at != tc.kept || (note == "") != (tc.kept < 0) {
			t.Errorf("%.30q: first neutral byte at %d, want %d; note %q", tc.doc, at, tc.kept, note)
		}
	}
}
