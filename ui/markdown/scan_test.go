package markdown

import (
	"slices"
	"strings"
	"testing"
)

func TestParseDef(t *testing.T) {
	cases := []struct {
		line  string
		label string
		ok    bool
	}{
		{"[docs]: https://example.com/docs", "docs", true},
		{"[Spec Ref]: <https://example.com/spec> \"The spec\"", "spec ref", true},
		{"   [a]: /url 'title'", "a", true},
		{"[a]: /url (title)", "a", true},
		{"[a]: /url(x)", "a", true}, // parentheses belong to the destination
		{"[a]:/url", "a", true},
		{"[a]: /url \"title", "", false},  // unterminated title
		{"[a]: /url\"title\"", "a", true}, // the quotes belong to the destination
		{"[a]: /url title", "", false},    // not a title
		{"[a]:", "", false},
		{"[a]: <x", "", false},
		{"[^1]: a footnote", "", false},
		{"[^1]: https://x", "^1", true}, // without the footnote extension, a definition
		{"    [a]: /url", "", false},    // indented code
		{"[]: /url", "", false},
		{"[a][b]: /url", "", false},
		{"text [a]: /url", "", false},
		{"[a b\t C]: /u", "a b c", true},
	}
	for _, c := range cases {
		label, ok := parseDef(c.line)
		if ok != c.ok || label != c.label {
			t.Errorf("parseDef(%q) = %q, %v; want %q, %v", c.line, label, ok, c.label, c.ok)
		}
	}
}

func TestLabelsIn(t *testing.T) {
	got := labelsIn("See [the docs][Docs], [x] and ![img][pic].\n[not\n\nclosed] \\[escaped]")
	want := []string{"docs", "img", "pic", "the docs", "x"} // a superset: alt text too
	if !slices.Equal(got, want) {
		t.Errorf("labelsIn = %q, want %q", got, want)
	}
}

func TestFences(t *testing.T) {
	for _, c := range []struct {
		line string
		ch   byte
		n    int
		ok   bool
	}{
		{"```go", '`', 3, true},
		{"````", '`', 4, true},
		{"~~~ text with ``` inside", '~', 3, true},
		{"   ```", '`', 3, true},
		{"    ```", 0, 0, false},
		{"``", 0, 0, false},
		{"```a`b", 0, 0, false},
	} {
		f, ok := fenceOpener(c.line)
		if ok != c.ok || f.ch != c.ch || f.n != c.n {
			t.Errorf("fenceOpener(%q) = %+v, %v", c.line, f, ok)
		}
	}
	f := fence{ch: '`', n: 4}
	for line, want := range map[string]bool{"````": true, "`````  ": true, "```": false, "    ````": false, "~~~~": false, "```` x": false} {
		if isCloser(line, f) != want {
			t.Errorf("isCloser(%q) = %v", line, !want)
		}
	}
}

func TestListMarkers(t *testing.T) {
	for _, c := range []struct {
		line          string
		bullet, delim byte
		num           int
		ok            bool
	}{
		{"- a", '-', 0, 0, true},
		{"* a", '*', 0, 0, true},
		{"+\tb", '+', 0, 0, true},
		{"-", '-', 0, 0, true},
		{"1. a", 0, '.', 1, true},
		{"12) a", 0, ')', 12, true},
		{"1.5 is a number", 0, 0, 0, false},
		{"**bold**", 0, 0, 0, false},
		{"- - -", 0, 0, 0, false}, // thematic break
		{"***", 0, 0, 0, false},
		{"1234567890. too long", 0, 0, 0, false},
	} {
		b, d, n, ok := listMarker(c.line)
		if b != c.bullet || d != c.delim || n != c.num || ok != c.ok {
			t.Errorf("listMarker(%q) = %q %q %d %v", c.line, b, d, n, ok)
		}
	}
}

// TestPartialLineDecisions checks when the first characters of the line
// after a blank line settle whether it may continue a list.
func TestPartialLineDecisions(t *testing.T) {
	s := newScanner()
	s.lastList, s.topMarker = 0, [2]byte{0, '.'}
	for _, c := range []struct {
		partial       string
		hold, decided bool
	}{
		{"", false, false},
		{"  ", false, false},
		{"T", false, true},
		{"1", false, false},
		{"1.", false, false},
		{"1. ", true, true},
		{"1.5", false, true},
		{"-", false, false},
		{"- ", false, true}, // another list type starts a new list
		{"-x", false, true},
		{"  more", true, true},
	} {
		hold, decided := s.holdAfterBlank(c.partial, false)
		if hold != c.hold || decided != c.decided {
			t.Errorf("holdAfterBlank(%q) = %v, %v; want %v, %v", c.partial, hold, decided, c.hold, c.decided)
		}
	}
}

// TestCutsInsideBlocks checks that a cut never falls inside a block whose
// last line is not one of its text lines (an HTML block's closing line), and
// that every valid candidate is returned.
func TestCutsInsideBlocks(t *testing.T) {
	bp := newBlockParser()
	src := "Para one.\n\n<!-- a comment\n\nwith a blank line inside -->\n\n> A quote.\n\nPara two.\n"
	at := func(s string) int { return strings.Index(src, s) }
	cands := []int{at("<!--"), at("with a blank"), at("> A quote"), at("Para two")}
	got := bp.cuts(src, 0, cands)
	want := []int{at("<!--"), at("> A quote"), at("Para two")}
	if !slices.Equal(got, want) {
		t.Errorf("cuts = %v, want %v", got, want)
	}
}

// TestCutsSeeEmptyListItems: an empty list item holds no text, so its list's
// span ends before it; the cut after the blank line must not be confirmed
// while that item lies between it and the next block (found by FuzzStream).
func TestCutsSeeEmptyListItems(t *testing.T) {
	bp := newBlockParser()
	src := "* 0\n\n  0)\n0\n\n  * 0"
	if got := bp.cuts(src, 0, []int{5, 13}); len(got) != 1 || got[0] != 13 {
		t.Errorf("cuts = %v, want [13]", got)
	}
	fenced := "para\n\n```\ncode\n```\n"
	if got := bp.cuts(fenced, 0, []int{6}); len(got) != 1 {
		t.Errorf("cut before a fence without info: %v", got)
	}
	info := "para\n\n```go\ncode\n```\n"
	if got := bp.cuts(info, 0, []int{6}); len(got) != 1 {
		t.Errorf("cut before a fence with info: %v", got)
	}
}

// TestHTMLBlockHidesDefinitions: a definition-like line inside an HTML
// block that blank lines do not end is no definition (found by FuzzStream:
// an unclosed comment).
func TestHTMLBlockHidesDefinitions(t *testing.T) {
	for _, c := range []struct {
		src  string
		defs int
	}{
		{"<!-- open\n\n[a]: /x\n", 0},
		{"<!-- open\n\n-->\n\n[a]: /x\n", 1},
		{"<!-- closed -->\n\n[a]: /x\n", 1},
		{"<PRE>\n\n[a]: /x\n\n</pre>\n\n[b]: /y\n", 1},
		{"<?php\n\n[a]: /x\n?>\n\n[b]: /y\n", 1},
		{"<div>\n\n[a]: /x\n", 1}, // a blank line ends a <div> block
	} {
		sc := newScanner()
		sc.scan(c.src, 0)
		if len(sc.defsFound) != c.defs {
			t.Errorf("%q: %d definitions, want %d", c.src, len(sc.defsFound), c.defs)
		}
	}
}
