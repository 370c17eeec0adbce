package block

import "testing"

func TestSettledCut(t *testing.T) {
	cases := []struct {
		src  string
		want string // the settled prefix
	}{
		{"para one\n\npara two", "para one\n\n"},
		{"para one\n\n", ""},                               // the next block has not begun
		{"para one\n\n  indented", ""},                     // could continue anything
		{"- a\n- b\n\n- c\n\nnext", "- a\n- b\n\n- c\n\n"}, // "n" cannot start a list item
		{"- a\n- b\n\n- c\n\nnext\n", "- a\n- b\n\n- c\n\n"},
		{"- a\n\n1", ""},    // a digit might start a list item
		{"- a\n\n1. x", ""}, // a list item after a list joins it
		{"```go\nx\n\ny\n```\n\nafter", "```go\nx\n\ny\n```\n\n"},
		{"```go\nx\n\ny", ""}, // blank line inside an open fence
		{"~~~\n```\n\n~~~\n\nz", "~~~\n```\n\n~~~\n\n"},
		{"# H\n\np\n\nq", "# H\n\np\n\n"},
		{"", ""},
	}
	for _, c := range cases {
		got := c.src[:settledCut(c.src, 0)]
		if got != c.want {
			t.Errorf("settledCut(%q) settled %q, want %q", c.src, got, c.want)
		}
	}
	// From an offset: nothing before it is considered again.
	src := "a\n\nb\n\nc"
	if got := settledCut(src, 3); src[3:got] != "b\n\n" {
		t.Errorf("from 3: settled %q", src[3:got])
	}
}
