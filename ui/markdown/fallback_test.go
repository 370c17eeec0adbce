package markdown

import (
	"strings"
	"testing"
	"unicode/utf8"

	"runnel/theme"
)

// checkNote fails unless note is one line that says markdown was drawn as
// plain text.
func checkNote(t *testing.T, note string) {
	t.Helper()
	if note == "" || strings.ContainsAny(note, "\n\r") {
		t.Fatalf("note %q: want one line", note)
	}
	if !strings.Contains(note, "markdown could not be drawn") || !strings.Contains(note, "plain text") {
		t.Fatalf("note %q does not say the answer is shown as plain text", note)
	}
}

// TestRenderFailureIsNoted: a whole render that fails (a renderer whose
// parser is missing panics on any input) returns an error, and its renderer
// notes it in one line; a second failure keeps the first note.
func TestRenderFailureIsNoted(t *testing.T) {
	r := &Renderer{} // not made by NewRenderer: no parser
	if r.Note() != "" {
		t.Fatalf("a note before any render: %q", r.Note())
	}
	out, err := r.Render("# Title\n\nsome *text*")
	if err == nil || out != "" {
		t.Fatalf("Render = %q, %v: want an error", out, err)
	}
	note := r.Note()
	checkNote(t, note)
	if _, err := r.Render("again"); err == nil || r.Note() != note {
		t.Fatalf("the second failure: %v, note %q (was %q)", err, r.Note(), note)
	}
}

// TestStreamFailureShowsPlainTextAndIsNoted: a streamed message whose
// render fails shows its source as plain text, frame after frame as it
// grows; Stream.Err keeps the first failure and its renderer notes it in
// one line, once.
func TestStreamFailureShowsPlainTextAndIsNoted(t *testing.T) {
	s := NewStream(&Renderer{})
	s.Append("# Title\n\nsome *text*")
	if v := s.View(); v != "# Title\n\nsome *text*" {
		t.Fatalf("View = %q, want the source", v)
	}
	first := s.Err()
	if first == nil {
		t.Fatal("no Err after a failed render")
	}
	note := s.Renderer().Note()
	checkNote(t, note)
	s.Append(" and more")
	if v := s.View(); v != "# Title\n\nsome *text* and more" {
		t.Fatalf("View = %q, want the grown source", v)
	}
	if s.Err() != first || s.Renderer().Note() != note {
		t.Fatalf("after a second failure: Err %v (was %v), note %q (was %q)", s.Err(), first, s.Renderer().Note(), note)
	}
}

// TestDraftFailureIsNotedByTheQuickRenderer: a draft that fails shows the
// source and notes it on the renderer that drew it.
func TestDraftFailureIsNotedByTheQuickRenderer(t *testing.T) {
	r, err := NewRenderer(theme.New(theme.Dark()).Glamour(), 40)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStream(r)
	s.Append("```go\nfunc f() {}\n")
	quick := &Renderer{}
	if v := s.Draft(quick); v != "```go\nfunc f() {}\n" {
		t.Fatalf("Draft = %q, want the source", v)
	}
	checkNote(t, quick.Note())
	if s.Renderer() != r || r.Note() != "" {
		t.Fatalf("the stream's own renderer changed (%v) or was noted: %q", s.Renderer() != r, r.Note())
	}
}

// TestNoteCauseIsOneLine: whatever a panic says, the note quotes it on one
// line, bounded, cut at a word or (one long word) at a rune.
func TestNoteCauseIsOneLine(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes, one word
	for _, c := range []struct{ in, want string }{
		{"index out of range [5] with length 3", "index out of range [5] with length 3"},
		{"line one\nline two\r\n\tthree  ", "line one line two three"},
		{"", ""},
		{strings.Repeat("word ", 60), strings.TrimSpace(strings.Repeat("word ", 40)) + " …"},
		{long, strings.Repeat("é", 100) + " …"},
		{strings.Repeat("x", maxNoteCause), strings.Repeat("x", maxNoteCause)},
	} {
		got := noteCause(c.in, maxNoteCause)
		if got != c.want {
			t.Errorf("noteCause(%q) = %q, want %q", c.in, got, c.want)
		}
		if !utf8.ValidString(got) || len(got) > maxNoteCause+len(" …") {
			t.Errorf("noteCause(%q) = %q: invalid or too long", c.in, got)
		}
	}
	checkNote(t, panicNote("a\nb"))
}
