package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"runnel/session/store"
	"runnel/theme"
)

// drawnIn splits a styled line into its visible text and, per visible byte,
// whether it was drawn right after the SGR sequence open (and before any
// other SGR sequence).
func drawnIn(line, open string) (text string, in []bool) {
	var b strings.Builder
	on := false
	for i := 0; i < len(line); {
		if loc := sgrOnly.FindStringIndex(line[i:]); loc != nil && loc[0] == 0 {
			on = line[i:i+loc[1]] == open
			i += loc[1]
			continue
		}
		b.WriteByte(line[i])
		in = append(in, on)
		i++
	}
	return b.String(), in
}

// hitFor marks every occurrence of the words in snippet, by byte.
func hitFor(id store.SessionID, turn int, title, snippet string, words ...string) store.Hit {
	h := store.Hit{Session: id, Turn: turn, Title: title, Snippet: snippet}
	for _, w := range words {
		for from := 0; ; {
			i := strings.Index(snippet[from:], w)
			if i < 0 {
				break
			}
			h.Marks = append(h.Marks, store.Span{Start: from + i, End: from + i + len(w)})
			from += i + len(w)
		}
	}
	slices.SortFunc(h.Marks, func(a, b store.Span) int { return a.Start - b.Start })
	return h
}

func TestSearchHighlightsExactlyTheMarkedBytes(t *testing.T) {
	t.Parallel()
	st := dlgStyles()
	d := theme.DialogOf(st)
	open, _, _ := strings.Cut(d.Match.Render("x"), "x")
	if open == "" {
		t.Fatal("the Match style emits no SGR; the test cannot see highlights")
	}
	for _, h := range []store.Hit{
		hitFor("s1", 3, "SSE work", "…the stream reconnects after a streaming error and the stream resumes…", "stream"),
		hitFor("s2", 1, "Unicode", "naïve café — ünïcode data in the café’s stream", "café", "ünïcode"),
		hitFor("s3", 7, "Edges", "stream at both ends stream", "stream"),
		hitFor("s4", 2, "Wide", "日本語のテキストで検索する 検索 テスト", "検索"),
	} {
		r := NewSearchResults("q", []store.Hit{h}, st)
		lines := strings.Split(r.View(100, 20), "\n")
		text, in := drawnIn(lines[2], open)
		text, in = strings.TrimPrefix(text, "    "), in[4:]
		if text != h.Snippet {
			t.Errorf("%s: snippet drawn as %q, want %q", h.Session, text, h.Snippet)
			continue
		}
		for i := range text {
			want := slices.ContainsFunc(h.Marks, func(s store.Span) bool { return i >= s.Start && i < s.End })
			if in[i] != want {
				t.Errorf("%s: byte %d (%q) highlighted = %v, want %v", h.Session, i, text[i:], in[i], want)
				break
			}
		}
		for _, m := range h.Marks {
			if seg := d.Match.Render(h.Snippet[m.Start:m.End]); !strings.Contains(lines[2], seg) {
				t.Errorf("%s: no styled segment around %q in %q", h.Session, h.Snippet[m.Start:m.End], lines[2])
			}
		}
	}
}

func TestSearchCleansPiecesAfterCutting(t *testing.T) {
	t.Parallel()
	st := dlgStyles()
	snippet := "a\x1b[31mred\x1b[0m b\x07\tc\x1b]0;title\x07 stream\r\nend"
	h := hitFor("s", 1, "ti\x1b[2Jtle\n", snippet, "red", "stream")
	// A span that starts inside an escape sequence, and spans that are
	// reversed, out of range or overlapping: none may panic or leak a byte
	// of control.
	i := strings.Index(snippet, "[31m")
	h.Marks = append(h.Marks, store.Span{Start: i, End: i + 6}, store.Span{Start: 9, End: 3}, store.Span{Start: -5, End: 2}, store.Span{Start: 40, End: 4000}, store.Span{Start: 2, End: 5})
	r := NewSearchResults("red \x1b[1m", []store.Hit{h}, st)
	for _, w := range []int{60, 100} {
		checkView(t, r.View(w, 20), w, 20)
	}
	v := ansi.Strip(r.View(100, 20))
	if strings.Contains(v, "title\x07") || !strings.Contains(v, "stream") || !strings.Contains(v, "ti tle") && !strings.Contains(v, "title") {
		t.Errorf("unexpected cleaned view:\n%q", v)
	}

	plain := NewSearchResults("q", []store.Hit{hitFor("s", 1, "t", "a\x1b[31mred\x1b[0m b", "red")}, st)
	text, in := drawnIn(strings.Split(plain.View(100, 20), "\n")[2], func() string { o, _, _ := strings.Cut(theme.DialogOf(st).Match.Render("x"), "x"); return o }())
	if text != "    ared b" || !in[5] || !in[7] || in[8] || in[4] {
		t.Errorf("escape sequences around a match: drawn %q, highlight %v", text, in)
	}
}

func sp(start, end int) store.Span { return store.Span{Start: start, End: end} }

func TestCleanSpans(t *testing.T) {
	t.Parallel()
	got := cleanSpans([]store.Span{sp(5, 3), sp(10, 100), sp(-2, 2), sp(1, 4), sp(4, 6), sp(8, 8)}, 12)
	want := []store.Span{sp(0, 6), sp(10, 12)}
	if !slices.Equal(got, want) {
		t.Errorf("cleanSpans = %v, want %v", got, want)
	}
}

func TestSearchKeepsTheMatchInViewWhenNarrow(t *testing.T) {
	t.Parallel()
	st := dlgStyles()
	snippet := strings.Repeat("filler words before it ", 5) + "needle" + " and a little after"
	r := NewSearchResults("needle", []store.Hit{hitFor("s", 4, "Long", snippet, "needle")}, st)
	open, _, _ := strings.Cut(theme.DialogOf(st).Match.Render("x"), "x")
	line := strings.Split(r.View(60, 10), "\n")[2]
	text, in := drawnIn(line, open)
	if !strings.HasPrefix(text, "    …") || !strings.Contains(text, "needle") {
		t.Fatalf("the match should be in view, the front cut: %q", text)
	}
	i := strings.Index(text, "needle")
	if !in[i] || !in[i+5] || in[i-1] {
		t.Errorf("needle not highlighted exactly in %q", text)
	}
	checkView(t, r.View(60, 10), 60, 10)
}

func TestSearchEnterOpensTheTurn(t *testing.T) {
	t.Parallel()
	hits := []store.Hit{hitFor("a", 2, "First", "one stream", "stream"), hitFor("b", 9, "Second", "two streams", "stream")}
	r := NewSearchResults("stream", hits, nil)
	if _, msgs := dlgPress(r, "enter"); len(msgs) != 1 || msgs[0] != (OpenSessionMsg{ID: "a", Turn: 2}) {
		t.Errorf("enter emitted %v, want a at turn 2", msgs)
	}
	r, _ = dlgPress(r, "down", "down", "down")
	if _, msgs := dlgPress(r, "enter"); len(msgs) != 1 || msgs[0] != (OpenSessionMsg{ID: "b", Turn: 9}) {
		t.Errorf("enter emitted %v, want b at turn 9", msgs)
	}
	r, _ = dlgPress(r, "up", "up")
	if r.Selected() != 0 {
		t.Errorf("selected %d after up at the top, want 0", r.Selected())
	}
	if _, msgs := dlgPress(r, "esc"); len(msgs) != 1 || msgs[0] != (DialogClosedMsg{}) {
		t.Errorf("esc emitted %v", msgs)
	}
	if v := ansi.Strip(r.View(60, 10)); !strings.Contains(v, "First · turn 2") || !strings.Contains(v, "2 matches") {
		t.Errorf("view:\n%s", v)
	}
}

func TestSearchEmpty(t *testing.T) {
	t.Parallel()
	r := NewSearchResults("no such \x1b[31mthing", nil, dlgStyles())
	v := r.View(60, 10)
	checkView(t, v, 60, 10)
	if !strings.Contains(ansi.Strip(v), "no matches for “no such thing”") {
		t.Errorf("empty view:\n%s", ansi.Strip(v))
	}
	if _, msgs := dlgPress(r, "down", "enter"); len(msgs) != 0 {
		t.Errorf("enter on no hits emitted %v", msgs)
	}
}

func TestSearchViewFits(t *testing.T) {
	t.Parallel()
	var hits []store.Hit
	for i := range 30 {
		hits = append(hits, hitFor(store.SessionID(rune('a'+i%26)), i+1, strings.Repeat("長い title ", 1+i%6),
			strings.Repeat("検索 words around the stream ", 1+i%8), "stream", "検索"))
	}
	for _, w := range []int{60, 100} {
		for _, h := range []int{3, 10, 40} {
			r := NewSearchResults(strings.Repeat("query ", 30), hits, dlgStyles())
			checkView(t, r.View(w, h), w, h)
			r, _ = dlgPress(r, "pgdown", "down", "end")
			checkView(t, r.View(w, h), w, h)
			if h >= 10 && !strings.Contains(r.View(w, h), "› ") {
				t.Errorf("%dx%d: the selected hit is not in view", w, h)
			}
		}
	}
}

// TestDialogsBidiAndZeroWidth: search results (titles, snippets) and the
// approval dialog (tool name, arguments) show no bidi or zero-width
// character from the stream or the store, and every row measures the same
// by grapheme and per rune, so the renderer draws it where it was laid out.
func TestDialogsBidiAndZeroWidth(t *testing.T) {
	t.Parallel()
	st := dlgStyles()
	hostileText := "stream " + bidiHostile + " ❤️👍🏽 \U0001F1EB end"
	views := map[string]func(w int) string{
		"search": func(w int) string {
			r := NewSearchResults("stream", []store.Hit{hitFor("s", 1, "title "+bidiHostile, hostileText, "stream")}, st)
			return r.View(w, 20)
		},
		"approval": func(w int) string {
			req := mcpRequest()
			req.Tool, req.Command = "fs\u202e", []string{"fs", "read\u2066_file"}
			req.Call.Arguments = `{"path":"` + hostileText + `"}`
			return NewApproval(req, st).View(w, 20)
		},
		"approval, function": func(w int) string {
			return NewApproval(shellRequest(`{"cmd":"`+hostileText+`"}`), st).View(w, 20)
		},
	}
	for name, view := range views {
		for _, w := range []int{50, 100} {
			v := view(w)
			checkNoFormatChars(t, name, v)
			for i, row := range strings.Split(v, "\n") {
				if gw, wc := ansi.StringWidth(row), ansi.StringWidthWc(row); gw != wc || gw > w {
					t.Errorf("%s at %d: row %d is %d cells, %d per rune: %q", name, w, i, gw, wc, ansi.Strip(row))
				}
			}
		}
	}
}
