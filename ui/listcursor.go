package ui

// listCursor is the one selection type of every dialog list (the session
// picker, search results, the tools menu, the panel list, the approval
// dialog's argument lines): a cursor over n rows and the window of rows
// that shows it.
//
// It is filter-aware: SetLen keeps the cursor on a row that still exists
// when the list shrinks or grows (a filter, a deletion), Reset starts over
// at the top.
//
// Invariants (held after every method; TestListCursorInvariants checks them
// on random operations):
//   - 0 ≤ sel < n when n > 0, else sel == 0.
//   - 0 ≤ top ≤ sel, and top ≤ max(n-page, 0).
//   - Window(rows) returns first with first ≤ sel < first+rows for any
//     rows ≥ 1: the visible window always holds the cursor.
type listCursor struct {
	sel, n int
	top    int // first row of the window, as last scrolled to
	page   int // rows a page moves, and the window top follows; ≥ 1
}

// defaultPage is how far page up and page down move when the dialog did not
// say: about one screen of two-line rows.
const defaultPage = 5

// newListCursor is a cursor on the first of n rows.
func newListCursor(n int) listCursor {
	c := listCursor{page: defaultPage}
	c.Reset(n)
	return c
}

// Sel is the selected row; 0 for an empty list.
func (c listCursor) Sel() int { return c.sel }

// Len is the number of rows.
func (c listCursor) Len() int { return c.n }

// Reset is a list of n rows with the cursor on the first (a new filter).
func (c *listCursor) Reset(n int) {
	c.n, c.sel, c.top = max(n, 0), 0, 0
}

// SetLen changes the number of rows, keeping the cursor on the same index
// or the last row (a deleted row's successor takes its place).
func (c *listCursor) SetLen(n int) {
	c.n = max(n, 0)
	c.clamp()
}

// SetPage sets how far a page moves (the rows a dialog shows at once).
func (c *listCursor) SetPage(rows int) {
	c.page = max(rows, 1)
	c.clamp()
}

// Move moves the cursor by d rows, stopping at the ends.
func (c *listCursor) Move(d int) {
	c.sel += d
	c.clamp()
}

// Up, Down, PageUp, PageDown, Home and End are the moves the keys name.
func (c *listCursor) Up()       { c.Move(-1) }
func (c *listCursor) Down()     { c.Move(1) }
func (c *listCursor) PageUp()   { c.Move(-c.pageRows()) }
func (c *listCursor) PageDown() { c.Move(c.pageRows()) }
func (c *listCursor) Home()     { c.Move(-c.n) }
func (c *listCursor) End()      { c.Move(c.n) }

func (c listCursor) pageRows() int { return max(c.page, 1) }

// clamp restores the invariants after a change.
func (c *listCursor) clamp() {
	if c.n == 0 {
		c.sel, c.top = 0, 0
		return
	}
	c.sel = min(max(c.sel, 0), c.n-1)
	p := c.pageRows()
	if c.sel < c.top {
		c.top = c.sel
	}
	if c.sel >= c.top+p {
		c.top = c.sel - p + 1
	}
	c.top = max(min(c.top, c.n-p), 0)
}

// Window is the first visible row when rows rows show at once: the window
// the cursor last scrolled, moved as little as needed to hold the cursor.
func (c listCursor) Window(rows int) int {
	rows = max(rows, 1)
	first := min(c.top, c.sel)
	first = max(first, c.sel-rows+1)
	first = min(first, max(c.n-rows, 0))
	return max(first, 0)
}
