package ui

import (
	"math/rand/v2"
	"testing"
)

// checkCursor fails when c breaks an invariant of listCursor.
func checkCursor(t *testing.T, c listCursor, step string) {
	t.Helper()
	if c.n == 0 && c.sel != 0 {
		t.Fatalf("%s: empty list with sel %d", step, c.sel)
	}
	if c.n > 0 && (c.sel < 0 || c.sel >= c.n) {
		t.Fatalf("%s: sel %d outside [0,%d)", step, c.sel, c.n)
	}
	if c.top < 0 || c.top > c.sel {
		t.Fatalf("%s: top %d, sel %d", step, c.top, c.sel)
	}
	for rows := 1; rows <= 12; rows++ {
		first := c.Window(rows)
		if first < 0 || (c.n > 0 && (c.sel < first || c.sel >= first+rows)) {
			t.Fatalf("%s: window %d+%d does not hold sel %d (n %d)", step, first, rows, c.sel, c.n)
		}
		if c.n >= rows && first+rows > c.n {
			t.Fatalf("%s: window %d+%d runs past the end %d", step, first, rows, c.n)
		}
	}
}

// TestListCursorInvariants drives a cursor with random moves, filters and
// page sizes: the cursor always stays in [0, len) and every window holds it.
func TestListCursorInvariants(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for run := 0; run < 200; run++ {
		c := newListCursor(r.IntN(30))
		checkCursor(t, c, "new")
		for step := 0; step < 200; step++ {
			var name string
			switch r.IntN(10) {
			case 0:
				c.Up()
				name = "up"
			case 1:
				c.Down()
				name = "down"
			case 2:
				c.PageUp()
				name = "pgup"
			case 3:
				c.PageDown()
				name = "pgdown"
			case 4:
				c.Home()
				name = "home"
			case 5:
				c.End()
				name = "end"
			case 6:
				c.SetLen(r.IntN(30))
				name = "setlen"
			case 7:
				c.Reset(r.IntN(30))
				name = "reset"
			case 8:
				c.SetPage(r.IntN(12) - 1)
				name = "setpage"
			default:
				c.Move(r.IntN(61) - 30)
				name = "move"
			}
			checkCursor(t, c, name)
		}
	}
}

func TestListCursorMoves(t *testing.T) {
	t.Parallel()
	c := newListCursor(20)
	c.Up()
	if c.Sel() != 0 {
		t.Fatalf("up at the top: %d", c.Sel())
	}
	c.PageDown()
	if c.Sel() != defaultPage {
		t.Fatalf("page down: %d", c.Sel())
	}
	c.End()
	if c.Sel() != 19 {
		t.Fatalf("end: %d", c.Sel())
	}
	c.SetLen(4) // a filter kept four rows: the cursor goes to the last
	if c.Sel() != 3 {
		t.Fatalf("setlen: %d", c.Sel())
	}
	c.SetLen(0)
	c.Down()
	if c.Sel() != 0 || c.Window(3) != 0 {
		t.Fatalf("empty: sel %d window %d", c.Sel(), c.Window(3))
	}
}

// TestListCursorWindowScrollsLazily: the window moves only when the cursor
// leaves it, so moving back up inside it does not scroll.
func TestListCursorWindowScrollsLazily(t *testing.T) {
	t.Parallel()
	c := newListCursor(20)
	c.SetPage(4)
	for range 6 {
		c.Down()
	}
	if got := c.Window(4); got != 3 { // sel 6 at the bottom of rows 3..6
		t.Fatalf("window after scrolling down: %d", got)
	}
	c.Up()
	if got := c.Window(4); got != 3 {
		t.Fatalf("window moved while the cursor stayed inside it: %d", got)
	}
}
