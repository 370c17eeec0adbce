package ui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/ui/block"
	"runnel/ui/graphics"
)

var drawAt = regexp.MustCompile("^\x1b7\x1b\\[(\\d+);(\\d+)H\x1b\\]1337;File=inline=1;size=\\d+;width=(\\d+);height=(\\d+);preserveAspectRatio=1:[A-Za-z0-9+/=]+\a\x1b8$")

// TestITermImageFollowsItsRows: an iTerm2 image is drawn where its panel's
// blank rows are on screen, not again while they stay put, again where
// they moved to after scrolling, and not while they are off screen.
func TestITermImageFollowsItsRows(t *testing.T) {
	t.Parallel()
	m := replayFile(t, "vercel__ai/azure-image-generation-with-text.sse")
	m.items.images.support = graphics.Support{ITerm: true}
	pump(t, m, nil)
	var e *itemEntry
	for _, p := range m.items.panels {
		if p.it.Type == "image_generation_call" {
			e = p
		}
	}
	if e == nil {
		t.Fatal("no image panel")
	}
	data := e.it.Details().Result
	msg := m.items.images.writeImage(e, m.frame.width, func() block.ImageFile { return block.ImageFile{Key: "final", Data: data} })()
	if cmd := m.items.imageWritten(msg.(imageMsg)); cmd != nil {
		t.Fatal("a sequence written before the rows are placed")
	}
	// draw runs the layout hook after a frame, then the settled draw
	draw := func() (row, col, w, h int, ok bool) {
		t.Helper()
		_, cmd := m.Update(frameMsg{gen: m.turns.gen, now: m.frame.now})
		if cmd == nil {
			return 0, 0, 0, 0, false
		}
		raw := m.items.drawImages(itermMsg{m.items.images.gen}, true)
		if raw == nil {
			return 0, 0, 0, 0, false
		}
		s, _ := raw().(tea.RawMsg).Msg.(string)
		g := drawAt.FindStringSubmatch(s)
		if g == nil {
			t.Fatalf("draw %q…", s[:min(60, len(s))])
		}
		n := func(i int) int { v, _ := strconv.Atoi(g[i]); return v }
		return n(1) - 1, n(2) - 1, n(3), n(4), true
	}
	check := func(row, col, w, h int) {
		t.Helper()
		lines := strings.Split(plain(m), "\n")
		if row+h > m.items.transcript.Height() {
			t.Fatalf("rows %d+%d past the transcript", row, h)
		}
		for r := row; r < row+h; r++ {
			if cells := ansi.Cut(lines[r], col, col+w); strings.TrimSpace(cells) != "" || ansi.StringWidth(cells) != w {
				t.Fatalf("row %d under the picture is %q:\n%s", r, cells, plain(m))
			}
		}
	}
	row, col, w, h, ok := draw()
	if !ok {
		t.Fatalf("not drawn:\n%s", plain(m))
	}
	check(row, col, w, h)
	if _, _, _, _, again := draw(); again {
		t.Error("drawn again in the same place")
	}
	// a shorter transcript (as when the composer grows) moves the rows up
	m.items.transcript.SetSize(m.frame.width, m.items.transcript.Height()-4)
	row2, col2, w2, h2, ok := draw()
	if !ok || row2 >= row {
		t.Fatalf("after the move: drawn %v at row %d (was %d)", ok, row2, row)
	}
	check(row2, col2, w2, h2)
	// scrolled so that its last rows are cut off: not drawn
	m.items.transcript.SetSize(m.frame.width, row2+h2-1)
	if _, _, _, _, ok := draw(); ok {
		t.Fatalf("drawn while its rows are cut off:\n%s", plain(m))
	}
	m.items.transcript.SetSize(m.frame.width, m.items.transcript.Height()+5)
	if r, _, _, _, ok := draw(); !ok {
		t.Errorf("back on screen: not drawn")
	} else if r2, _, _, _, again := draw(); again {
		t.Errorf("drawn twice, at %d and %d", r, r2)
	}
	// the help covers the transcript: not drawn; closed: drawn again in
	// the same place, since the help's text painted over the picture
	m.keyState.showHelp = true
	if _, _, _, _, ok := draw(); ok {
		t.Error("drawn under the help")
	}
	m.keyState.showHelp = false
	if _, _, _, _, ok := draw(); !ok {
		t.Error("not drawn again once the help closed")
	}
}
