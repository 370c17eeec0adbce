package vi

import (
	"strings"
	"testing"
)

// buf reads "ab|cd": the cursor is on the rune after "|".
func buf(s string) Buffer {
	i := strings.Index(s, "|")
	before := s[:i]
	row := strings.Count(before, "\n")
	col := len([]rune(before[strings.LastIndex(before, "\n")+1:]))
	return Buffer{Text: before + s[i+1:], Row: row, Col: col}
}

// show writes b the way buf reads it.
func show(b Buffer) string {
	ls := strings.Split(b.Text, "\n")
	r := []rune(ls[b.Row])
	ls[b.Row] = string(r[:b.Col]) + "|" + string(r[b.Col:])
	return strings.Join(ls, "\n")
}

// TestNormalMode: each motion and operator, from a buffer and cursor, by
// a list of keys, to a buffer, cursor and mode.
func TestNormalMode(t *testing.T) {
	cases := []struct {
		name, before, keys, after string
		mode                      Mode
	}{
		{"h", "ab|c", "h", "a|bc", Normal},
		{"h at start", "|abc", "h", "|abc", Normal},
		{"l", "a|bc", "l", "ab|c", Normal},
		{"l stops on the last rune", "ab|c", "l", "ab|c", Normal},
		{"j keeps the column", "ab|cd\nefgh", "j", "abcd\nef|gh", Normal},
		{"j to a shorter line", "abc|d\nef", "j", "abcd\ne|f", Normal},
		{"k", "ab\ncd|e", "k", "a|b\ncde", Normal},
		{"k on the first line", "a|b", "k", "a|b", Normal},
		{"0", "abc|d", "0", "|abcd", Normal},
		{"$", "|abcd", "$", "abc|d", Normal},
		{"w", "|foo bar", "w", "foo |bar", Normal},
		{"w over punctuation", "|foo.bar", "w", "foo|.bar", Normal},
		{"w to the next line", "fo|o\n  bar", "w", "foo\n  |bar", Normal},
		{"w at the end", "foo b|ar", "w", "foo ba|r", Normal},
		{"b", "foo ba|r", "b", "foo |bar", Normal},
		{"b to the word before", "foo |bar", "b", "|foo bar", Normal},
		{"b to the line before", "foo\n|bar", "b", "|foo\nbar", Normal},
		{"e", "|foo bar", "e", "fo|o bar", Normal},
		{"e to the next word", "fo|o bar", "e", "foo ba|r", Normal},
		{"x", "a|bc", "x", "a|c", Normal},
		{"x on the last rune", "ab|c", "x", "a|b", Normal},
		{"x on an empty line", "|", "x", "|", Normal},
		{"dd", "one\ntw|o\nthree", "dd", "one\n|three", Normal},
		{"dd the last line", "one\ntw|o", "dd", "|one", Normal},
		{"dd the only line", "o|ne", "dd", "|", Normal},
		{"dw", "|foo bar", "dw", "|bar", Normal},
		{"dw on the last word", "hello brave |world", "dw", "hello brave| ", Normal},
		{"dw on the last word's middle", "hello wo|rld", "dw", "hello w|o", Normal},
		{"dw before trailing spaces", "one |two  ", "dw", "one| ", Normal},
		{"dw on a line's last word", "|foo\nbar", "dw", "|\nbar", Normal},
		{"cw", "|foo bar", "cw", "| bar", Insert},
		{"cw mid-word", "f|oo bar", "cw", "f| bar", Insert},
		{"x then p", "|abc", "xp", "b|ac", Normal},
		{"dd then p", "|one\ntwo", "ddp", "two\n|one", Normal},
		{"dd then P", "one\n|two", "ddP", "|two\none", Normal},
		{"yy then p", "|one", "yyp", "one\n|one", Normal},
		{"dw then P", "|foo bar", "dw$p", "barfoo| ", Normal},
		{"u undoes x", "a|bc", "xu", "a|bc", Normal},
		{"u undoes dd", "one\n|two", "ddu", "one\n|two", Normal},
		{"u twice", "|abc", "xxuu", "|abc", Normal},
		{"u with nothing to undo", "a|b", "u", "a|b", Normal},
		{"i", "a|bc", "i", "a|bc", Insert},
		{"a", "a|bc", "a", "ab|c", Insert},
		{"I", "  a|bc", "I", "  |abc", Insert},
		{"A", "a|bc", "A", "abc|", Insert},
		{"o", "a|b\ncd", "o", "ab\n|\ncd", Insert},
		{"O", "ab\nc|d", "O", "ab\n|\ncd", Insert},
		{"unknown pair is dropped", "a|bc", "dz", "a|bc", Normal},
		{"an unbound letter does nothing", "a|bc", "z", "a|bc", Normal},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var e Editor
			e.SetMode(Normal, Buffer{})
			b := buf(c.before)
			for _, k := range c.keys {
				var a Action
				b, a = e.Key(b, string(k))
				if a != Done {
					t.Fatalf("key %q: action %v, want Done", k, a)
				}
			}
			if got := show(b); got != c.after || e.Mode() != c.mode {
				t.Errorf("%q then %q: got %q (%v), want %q (%v)", c.before, c.keys, got, e.Mode(), c.after, c.mode)
			}
		})
	}
}

// TestInsertMode: insert mode hands keys back; esc returns to normal mode a
// rune back, and u undoes what the insert typed.
func TestInsertMode(t *testing.T) {
	var e Editor
	b := buf("ab|")
	if _, a := e.Key(b, "x"); a != Pass {
		t.Fatalf("insert mode took x: %v", a)
	}
	e.SetMode(Normal, b)
	if b, _ = e.Key(buf("a|b"), "i"); e.Mode() != Insert || show(b) != "a|b" {
		t.Fatalf("i: %q %v", show(b), e.Mode())
	}
	b = Buffer{Text: "aXYb", Row: 0, Col: 3} // the composer typed XY
	b, a := e.Key(b, "esc")
	if a != Done || e.Mode() != Normal || show(b) != "aX|Yb" {
		t.Fatalf("esc: %q %v %v", show(b), e.Mode(), a)
	}
	b, _ = e.Key(b, "u")
	if show(b) != "a|b" {
		t.Fatalf("u after insert: %q, want a|b", show(b))
	}
}

// TestNormalModeSendsAndPasses: enter sends; esc and ctrl keys are the
// caller's.
func TestNormalModeSendsAndPasses(t *testing.T) {
	var e Editor
	e.SetMode(Normal, Buffer{})
	for k, want := range map[string]Action{"enter": Send, "esc": Pass, "ctrl+k": Pass, "ctrl+c": Pass} {
		if _, a := e.Key(buf("a|b"), k); a != want {
			t.Errorf("%s: %v, want %v", k, a, want)
		}
	}
}

// TestBadCursor: a cursor outside the text is clamped, never a panic.
func TestBadCursor(t *testing.T) {
	var e Editor
	e.SetMode(Normal, Buffer{})
	for _, k := range []string{"h", "l", "j", "k", "w", "b", "e", "x", "0", "$", "p", "u"} {
		for _, b := range []Buffer{{Text: "ab", Row: 5, Col: 9}, {Text: "", Row: -1, Col: -3}, {Text: "a\n\nb", Row: 1, Col: 4}} {
			e.Key(b, k)
		}
	}
	e.Key(Buffer{Text: "ab"}, "d")
	e.Key(Buffer{Text: "ab", Row: 3}, "d")
}

// TestEveryKeySequenceKeepsTheCursorInside: every sequence of three keys
// on a few buffers (empty lines, wide runes, punctuation) ends with the
// cursor inside the text; none panics.
func TestEveryKeySequenceKeepsTheCursorInside(t *testing.T) {
	keys := []string{"h", "j", "k", "l", "w", "b", "e", "0", "$", "x", "d", "c", "y", "p", "P", "u", "i", "a", "A", "o", "O", "esc", "enter"}
	bufs := []string{"|", "a|b\n\nc", "héllo, wörld|!\n  日本語 x", "|\n\n", "x.y_z (w)|"}
	for _, s := range bufs {
		for _, k1 := range keys {
			for _, k2 := range keys {
				for _, k3 := range keys {
					var e Editor
					e.SetMode(Normal, Buffer{})
					b := buf(s)
					for _, k := range []string{k1, k2, k3} {
						b, _ = e.Key(b, k)
					}
					ls := strings.Split(b.Text, "\n")
					if b.Row < 0 || b.Row >= len(ls) || b.Col < 0 || b.Col > len([]rune(ls[b.Row])) {
						t.Fatalf("%q then %s %s %s: cursor %d,%d outside %q", s, k1, k2, k3, b.Row, b.Col, b.Text)
					}
				}
			}
		}
	}
}
