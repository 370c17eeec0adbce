package ui

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// fakeEntry is an Entry whose rendered lines are "<name> <k>", wrapped to the
// width like real text would be: each source line longer than width splits.
// It caches per width, as the Entry contract asks, and counts renders.
type fakeEntry struct {
	name    string
	n       int  // source lines
	long    bool // source lines are 70 cells, so they wrap on narrow widths
	live    bool
	cacheW  int
	cache   string
	renders int
}

func (e *fakeEntry) View(width int) string {
	if e.cacheW == width && e.cache != "" {
		return e.cache
	}
	e.renders++
	var lines []string
	for k := 0; k < e.n; k++ {
		l := e.name + " " + strconv.Itoa(k)
		if e.long {
			l += strings.Repeat(".", 70-len(l))
		}
		for len(l) > width {
			lines = append(lines, l[:width])
			l = l[width:]
		}
		lines = append(lines, l)
	}
	e.cacheW, e.cache = width, strings.Join(lines, "\n")
	return e.cache
}

func (e *fakeEntry) Live() bool { return e.live }

// grow adds lines to a live entry and drops its cache.
func (e *fakeEntry) grow(n int) { e.n += n; e.cacheW = 0 }

func press(s string) tea.KeyPressMsg {
	switch s {
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	}
	panic("press: unknown key " + s)
}

// checkShape asserts the View invariants: exactly height lines, none wider
// than width.
func checkShape(t *testing.T, tr Transcript) []string {
	t.Helper()
	v := tr.View()
	lines := strings.Split(v, "\n")
	if len(lines) != tr.Height() {
		t.Fatalf("View has %d lines; want %d:\n%s", len(lines), tr.Height(), v)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > tr.Width() {
			t.Fatalf("line %d is %d cells wide; width is %d: %q", i, w, tr.Width(), l)
		}
	}
	return lines
}

// lastContent is the last non-blank line of a view.
func lastContent(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(ansi.Strip(lines[i])) != "" {
			return ansi.Strip(lines[i])
		}
	}
	return ""
}

func TestTranscriptShortContentStartsAtTop(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(40, 10)
	tr.Append(&fakeEntry{name: "user", n: 1})
	tr.Append(&fakeEntry{name: "bot", n: 2})
	lines := checkShape(t, tr)
	want := []string{"user 0", "", "bot 0", "bot 1", "", "", "", "", "", ""}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("View = %q; want %q", lines, want)
	}
	if !tr.Following() {
		t.Error("a transcript that fits should follow")
	}
}

func TestTranscriptEmpty(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(20, 3)
	checkShape(t, tr)
	for _, k := range []string{"pgup", "pgdown", "home", "end", "up", "down"} {
		tr, _ = tr.Update(press(k))
		checkShape(t, tr)
	}
	tr.Invalidate(0) // out of range: ignored
	tr.Invalidate(-1)
}

func TestTranscriptFollowsAtBottom(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(40, 5)
	live := &fakeEntry{name: "bot", n: 1, live: true}
	tr.Append(&fakeEntry{name: "user", n: 3})
	tr.Append(live)
	for i := 0; i < 20; i++ {
		live.grow(1)
		tr.Invalidate(1)
		lines := checkShape(t, tr)
		if got, want := lines[len(lines)-1], fmt.Sprintf("bot %d", live.n-1); got != want {
			t.Fatalf("after growing to %d lines the bottom line is %q; want %q", live.n, got, want)
		}
	}
	tr.Append(&fakeEntry{name: "next", n: 2})
	if lines := checkShape(t, tr); lines[4] != "next 1" {
		t.Errorf("a new entry is not pinned to the bottom: %q", lines)
	}
}

func TestTranscriptScrolledUpDoesNotMove(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(40, 6)
	live := &fakeEntry{name: "bot", n: 30, live: true}
	tr.Append(&fakeEntry{name: "user", n: 1})
	tr.Append(live)

	tr, _ = tr.Update(press("pgup"))
	if tr.Following() {
		t.Fatal("pgup should stop following")
	}
	before := checkShape(t, tr)
	if tr.Unseen() != 0 {
		t.Fatalf("Unseen = %d right after scrolling up", tr.Unseen())
	}

	live.grow(4)
	tr.Invalidate(1)
	tr.Append(&fakeEntry{name: "notice", n: 1})
	after := checkShape(t, tr)
	// The top five rows are unchanged; the last one is the hint.
	if strings.Join(before[:5], "|") != strings.Join(after[:5], "|") {
		t.Errorf("view moved while scrolled up:\nbefore %q\n after %q", before, after)
	}
	if tr.Unseen() != 4+2 { // four lines, then a separator and a line
		t.Errorf("Unseen = %d; want 6", tr.Unseen())
	}
	if hint := ansi.Strip(after[5]); !strings.Contains(hint, "↓ 6 new lines") {
		t.Errorf("bottom line = %q; want the new-lines hint", hint)
	}

	tr, _ = tr.Update(press("end"))
	lines := checkShape(t, tr)
	if !tr.Following() || tr.Unseen() != 0 {
		t.Errorf("end: Following = %v, Unseen = %d", tr.Following(), tr.Unseen())
	}
	if lines[5] != "notice 0" {
		t.Errorf("end: bottom line = %q; want the last entry", lines[5])
	}
	live.grow(1)
	tr.Invalidate(1)
	if !tr.Following() {
		t.Error("following stopped after end")
	}
}

func TestTranscriptScrollingBackDownFollows(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(30, 4)
	for i := 0; i < 10; i++ {
		tr.Append(&fakeEntry{name: "e" + strconv.Itoa(i), n: 2})
	}
	tr, _ = tr.Update(press("up"))
	tr, _ = tr.Update(press("up"))
	if tr.Following() {
		t.Fatal("up should stop following")
	}
	tr.Append(&fakeEntry{name: "late", n: 1})
	tr, _ = tr.Update(press("down"))
	if tr.Following() {
		t.Fatal("one line down is not the bottom yet")
	}
	for i := 0; i < 5 && !tr.Following(); i++ {
		tr, _ = tr.Update(press("down"))
	}
	if !tr.Following() || tr.Unseen() != 0 {
		t.Fatalf("scrolling to the bottom: Following = %v, Unseen = %d", tr.Following(), tr.Unseen())
	}
	if got := lastContent(checkShape(t, tr)); got != "late 0" {
		t.Errorf("bottom line = %q", got)
	}
}

func TestTranscriptWheelAndPaging(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(30, 5)
	for i := 0; i < 20; i++ {
		tr.Append(&fakeEntry{name: "e" + strconv.Itoa(i), n: 1})
	}
	// 20 entries, 39 lines; the bottom view starts at line 34.
	tr, _ = tr.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if lines := checkShape(t, tr); lines[0] != "" || lines[1] != "e16 0" {
		t.Errorf("wheel up 3: %q", lines)
	}
	tr, _ = tr.Update(press("home"))
	if lines := checkShape(t, tr); lines[0] != "e0 0" {
		t.Errorf("home: %q", lines)
	}
	tr, _ = tr.Update(press("pgdown"))
	if lines := checkShape(t, tr); lines[0] != "e2 0" {
		t.Errorf("pgdown from the top (4 lines): %q", lines)
	}
	tr, _ = tr.Update(press("pgup"))
	tr, _ = tr.Update(press("pgup")) // past the top: clamps
	if lines := checkShape(t, tr); lines[0] != "e0 0" {
		t.Errorf("pgup past the top: %q", lines)
	}
	for i := 0; i < 20 && !tr.Following(); i++ {
		tr, _ = tr.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	}
	if !tr.Following() {
		t.Error("wheeling down to the end should follow")
	}
	tr, _ = tr.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown}) // at the end: no-op
	if got := lastContent(checkShape(t, tr)); got != "e19 0" {
		t.Errorf("bottom line = %q", got)
	}
}

func TestTranscriptResize(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(80, 8)
	var es []*fakeEntry
	for i := 0; i < 50; i++ {
		e := &fakeEntry{name: "e" + strconv.Itoa(i), n: 3, long: true}
		es = append(es, e)
		tr.Append(e)
	}
	for _, e := range es {
		e.renders = 0
	}
	tr.SetSize(30, 8)
	lines := checkShape(t, tr)
	// Each 70-cell line wraps into three rows at 30 cells.
	if got := lines[5]; !strings.HasPrefix(got, "e49 2") || len(got) != 30 {
		t.Errorf("last source line after narrowing starts with %q; want e49 2 cut at 30", got)
	}
	rendered := 0
	for _, e := range es {
		rendered += e.renders
	}
	if rendered > 2 {
		t.Errorf("resize re-rendered %d entries; only the visible ones (≤2) should be", rendered)
	}

	// Scrolled up, a resize keeps the top entry on screen.
	tr, _ = tr.Update(press("home"))
	tr.SetSize(60, 6)
	if lines := checkShape(t, tr); !strings.HasPrefix(lines[0], "e0 0") {
		t.Errorf("top line after resize = %q", lines[0])
	}
	tr.SetSize(0, 0) // degenerate sizes clamp to one cell
	checkShape(t, tr)
}

func TestTranscriptCutsWideLines(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(10, 3)
	tr.Append(staticEntry("a line far wider than ten cells\n\tx\n日本語のテキストです"))
	lines := checkShape(t, tr)
	if lines[0] != "a line far" || lines[1] != "    x" {
		t.Errorf("lines = %q", lines)
	}
}

func TestTranscriptEmptyEntriesTakeNoLines(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(20, 4)
	tr.Append(staticEntry("a"))
	tr.Append(staticEntry(""))
	tr.Append(staticEntry("b"))
	lines := checkShape(t, tr)
	if want := []string{"a", "", "b", ""}; strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("lines = %q; want %q", lines, want)
	}
}

func TestTranscriptInvalidateAll(t *testing.T) {
	t.Parallel()
	tr := NewTranscript(20, 4)
	e := &fakeEntry{name: "x", n: 1}
	tr.Append(e)
	e.renders = 0
	tr.InvalidateAll()
	e.cacheW = 0 // the theme changed: the entry's own cache is stale too
	checkShape(t, tr)
	if e.renders != 1 {
		t.Errorf("renders after InvalidateAll = %d; want 1", e.renders)
	}
}

// staticEntry is a settled entry with fixed output.
type staticEntry string

func (s staticEntry) View(int) string { return string(s) }
func (s staticEntry) Live() bool      { return false }

func TestTranscriptHintFitsStyled(t *testing.T) {
	t.Parallel()
	for _, st := range testStyles(t) {
		for _, w := range []int{1, 5, 12, 40} {
			for _, h := range []int{1, 2, 5} {
				tr := NewTranscript(w, h)
				tr.SetStyles(st)
				for i := 0; i < 6; i++ {
					tr.Append(&fakeEntry{name: "e", n: 2})
				}
				tr, _ = tr.Update(press("home"))
				tr.Append(&fakeEntry{name: "new", n: 1})
				lines := checkShape(t, tr)
				want := "↓ 2"
				if w >= 16 {
					want = "↓ 2 new lines"
				}
				if w >= 5 && !strings.Contains(ansi.Strip(lines[h-1]), want) {
					t.Errorf("w=%d h=%d: hint line = %q", w, h, ansi.Strip(lines[h-1]))
				}
			}
		}
	}
}

// textEntry is an Entry that shows a given text.
type textEntry struct{ text string }

func (e *textEntry) View(int) string { return e.text }
func (e *textEntry) Live() bool      { return true }

// TestReadFitsEveryLineAsAFreshRead: a slot re-read after its entry changed
// (lines added, changed and dropped; tabs, wide and wide-character lines)
// holds the lines a first read of the same text gives, and re-reading a
// long entry with tabs allocates nothing once it is cached.
func TestReadFitsEveryLineAsAFreshRead(t *testing.T) {
	pieces := []string{"plain", "\tindented\twith tabs", strings.Repeat("wide ", 20), "漢字" + strings.Repeat("字", 30), "", "\x1b[1mbold\x1b[m\tthen"}
	e := &textEntry{}
	s := &slot{e: e}
	var lines []string
	for step := 0; step < 200; step++ {
		switch k := (step * 7) % 11; {
		case k < 6 || len(lines) == 0:
			lines = append(lines, pieces[step%len(pieces)])
		case k < 9:
			lines[step%len(lines)] = pieces[(step+1)%len(pieces)] + strconv.Itoa(step)
		default:
			lines = lines[:len(lines)/2]
		}
		e.text = strings.Join(lines, "\n")
		width := 40
		if step%50 == 49 {
			width = 30 // a width change reads afresh
		}
		s.read(width)
		fresh := &slot{e: e}
		fresh.read(width)
		if strings.Join(s.lines, "\n") != strings.Join(fresh.lines, "\n") || len(s.lines) != len(fresh.lines) {
			t.Fatalf("step %d: re-read lines differ from a fresh read:\n%q\nwant\n%q", step, s.lines, fresh.lines)
		}
		for k, l := range s.lines {
			if strings.Contains(l, "\t") || ansi.StringWidth(l) > width {
				t.Fatalf("step %d: line %d not fitted: %q", step, k, l)
			}
		}
	}
	e.text = strings.Repeat("\tfunc f() {}\n"+strings.Repeat("x", 60)+"\n", 1000)
	s.read(40)
	if n := testing.AllocsPerRun(10, func() { s.read(40) }); n != 0 {
		t.Errorf("re-reading an unchanged entry allocated %v times", n)
	}
}

// TestReadKeepsNoDroppedRow: rows an entry no longer has are forgotten,
// not left past the end of the slot's slices, where each would keep the
// whole render it came from alive (a long answer's pages have fewer rows
// after a page is sealed: 20 MiB of old frames at the response limit).
func TestReadKeepsNoDroppedRow(t *testing.T) {
	e := &textEntry{text: strings.Repeat("a row of the long render\n", 100) + "end"}
	s := &slot{e: e}
	s.read(40)
	e.text = "fewer\nrows"
	s.read(40)
	for k, l := range s.raw[len(s.raw):cap(s.raw)] {
		if l != "" {
			t.Fatalf("raw keeps dropped row %d: %q", len(s.raw)+k, l)
		}
	}
	for k, l := range s.lines[len(s.lines):cap(s.lines)] {
		if l != "" {
			t.Fatalf("lines keeps dropped row %d: %q", len(s.lines)+k, l)
		}
	}
}
