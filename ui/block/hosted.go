package block

import (
	"strings"
	"time"

	"runnel/stream"
	"runnel/stream/cite"
	"runnel/ui/itemlook"
)

// Hosted is the one line that consecutive hosted search calls of a turn
// draw in place of a panel each: "⌕ 2 searches · 21 sources · 1 page
// opened · 3 finds in pages", with a spinner while one runs and the count
// of those that failed or were cut off. Expanded (ctrl+o, the panel list),
// their panels follow the line, each expanded.
//
// It is an ItemBlock so that the transcript updates and ends it as it does
// any item's block: Update and End reach every member, and Item is the
// first member's item.
//
// Invariants: members are panels of Grouped items, each added once, in the
// order they came; rev changes on Add, Update, End and SetExpanded.
type Hosted struct {
	members  []ItemBlock
	expanded bool
	rev      int
}

var (
	_ ItemBlock = (*Hosted)(nil)
	_ Expander  = (*Hosted)(nil)
)

// Grouped reports whether an item's panel joins a Hosted line: the hosted
// searches (web search and its page actions, file search), whose panels
// list what was searched and found rather than an answer.
func Grouped(it *stream.Item) bool { return cite.Grouped(it) }

// NewHosted returns a line for the hosted calls that follow.
func NewHosted() *Hosted { return &Hosted{} }

// Add joins b, the block of a Grouped item, to the line.
func (h *Hosted) Add(b ItemBlock) {
	for _, m := range h.members {
		if m == b {
			return
		}
	}
	h.members = append(h.members, b)
	if x, ok := b.(Expander); ok {
		x.SetExpanded(h.expanded)
	}
	h.rev++
}

// Item returns the first member's item (nil before the first Add).
func (h *Hosted) Item() *stream.Item {
	if len(h.members) == 0 {
		return nil
	}
	return h.members[0].Item()
}

func (h *Hosted) Update(now time.Time) {
	for _, m := range h.members {
		m.Update(now)
	}
	h.rev++
}

func (h *Hosted) End(now time.Time) {
	for _, m := range h.members {
		m.End(now)
	}
	h.rev++
}

func (h *Hosted) Live() bool {
	for _, m := range h.members {
		if m.Live() {
			return true
		}
	}
	return false
}

func (h *Hosted) SetExpanded(on bool) {
	if on == h.expanded {
		return
	}
	h.expanded = on
	for _, m := range h.members {
		if x, ok := m.(Expander); ok {
			x.SetExpanded(on)
		}
	}
	h.rev++
}

func (h *Hosted) Expanded() bool { return h.expanded }

// Render draws the line and, expanded, the members' panels under it.
func (h *Hosted) Render(ctx Context) string {
	out := h.line(ctx)
	if h.expanded {
		for _, m := range h.members {
			if s := m.Render(ctx); s != "" {
				out += "\n" + s
			}
		}
	}
	return out
}

// tally counts what the members did: the searches as package cite counts
// them (the exports and the plain output write the same group), and how
// the members stand.
type tally struct {
	cite.Searches
	failed, cut int
	running     *panel // the first member still running
}

func (h *Hosted) tally() tally {
	var t tally
	items := make([]*stream.Item, 0, len(h.members))
	for _, m := range h.members {
		p, ok := m.(*panel)
		if !ok {
			continue
		}
		items = append(items, p.it)
		switch p.state() {
		case stateFailed:
			t.failed++
		case stateIncomplete, stateInterrupted:
			t.cut++
		}
		if p.running() && t.running == nil {
			t.running = p
		}
	}
	t.Searches = cite.Tally(items)
	return t
}

// line is the one row: icon, what was done, and how it stands.
func (h *Hosted) line(ctx Context) string {
	lk := ctx.look()
	t := h.tally()
	parts := t.Parts()
	if len(parts) == 0 {
		parts = append(parts, "searching")
	}
	icon := "⌕"
	if it := h.Item(); it != nil {
		icon = itemlook.For(it.Type).Icon
	}
	row := lk.icon.Render(icon) + " " + lk.title.Render(strings.Join(parts, " · "))
	if p := t.running; p != nil {
		row += " " + lk.running.Render(spinner(p.clock.start, ctx.Now)+" "+p.status().text)
	}
	if t.failed > 0 {
		row += lk.muted.Render(" · ") + lk.failed.Render(plural(t.failed, "failed", "failed"))
	}
	if t.cut > 0 {
		row += lk.muted.Render(" · ") + lk.warn.Render(plural(t.cut, "interrupted", "interrupted"))
	}
	return fit(row, max(ctx.Width, 1))
}
