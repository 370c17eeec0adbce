package ui

// This file is the transcript child: the entries on screen and the items
// they show. It adds items and notices (a turn's reasoning with nothing to
// show as one Thinking line, consecutive hosted searches as one line),
// re-renders what changed on a frame, toggles panels and reasoning, and
// copies answers; it reports to the root
// only through messages (frameState.post).

import (
	"cmp"
	"encoding/json"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session/attach"
	"runnel/session/images"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/ui/block"
	"runnel/ui/graphics"
)

// items indexes the transcript's entries by what they show.
//
// Invariants: entries maps every item shown to its transcript entry; an
// item gets exactly one entry, created the first time an event names it,
// except a server's tool list sent again (lists.skip): none while it may
// be, or is, the same as the one shown; consecutive hosted searches share
// one (hostedLine); think and hosted are of the turn len(turnEntry)
// numbered, or older (turnLines).
type items struct {
	fs         *frameState
	transcript Transcript // the scrolling view of the entries
	entries    map[*stream.Item]*itemEntry
	reasoning  []*itemEntry          // in transcript order, for ctrl+r
	panels     []*itemEntry          // expandable tool panels, for ctrl+o
	answers    []string              // markdown sources of finished answers, for ctrl+y and /copy
	turnEntry  turnStarts            // transcript index of each turn's first entry
	dirty      map[*stream.Item]bool // items changed outside a turn (tool output), for the next frame
	images     inlineImages          // generated images shown in the terminal (inline.go)
	panelList  []*itemEntry          // the panels the open panel list shows
	lists      toolLists             // the hosted MCP tool lists shown (toollists.go)
	lines      turnLines             // the lines a turn's items share: thinking, hosted searches
	sel        selection             // the mouse: clicks, drags, capture on or off (selection.go)
	nav        navigator             // the navigation mode's cursor and search (navmode.go)
}

// newItems makes the transcript child, its generated images written to
// sink (nil: nowhere).
func newItems(fs *frameState, tr Transcript, sink images.Sink, support graphics.Support) items {
	return items{fs: fs, transcript: tr, images: inlineImages{sink: sink, support: support},
		entries: map[*stream.Item]*itemEntry{}, dirty: map[*stream.Item]bool{}}
}

// hostedLine is the entry of a block.Hosted: the one line that consecutive
// hosted searches of a turn draw. A search joins the last one when it is of
// the same turn and nothing drawn came after it (reasoning with nothing to
// show draws nothing); otherwise it starts a new one.
type hostedLine struct {
	e    *itemEntry // e.it is the first member's item
	b    *block.Hosted
	turn int
}

// thinkingLine is a turn's block.Thinking entry, placed before the turn's
// first reasoning item: the reasoning with nothing to show draws nothing,
// and this one line says how long it took.
type thinkingLine struct {
	e    *itemEntry // nil until the turn's first reasoning item; e.it is nil
	b    *block.Thinking
	turn int // len(turnEntry) when it was made
}

// turnLines is the lines a turn's items share.
//
// Invariants: think and hosted are of the turn they name (the number of
// turns begun when they were made), or older; a new turn's first
// reasoning item or hosted search starts a new one.
type turnLines struct {
	think  thinkingLine // the current turn's line for reasoning with nothing to show
	hosted hostedLine   // the line the last hosted searches joined
}

// thinking returns turn's Thinking line, and its entry when it is new (to
// be appended before the reasoning that joins it).
func (l *turnLines) thinking(turn int, fs *frameState) (*block.Thinking, *itemEntry) {
	if l.think.e != nil && l.think.turn == turn {
		return l.think.b, nil
	}
	b := block.NewThinking()
	l.think = thinkingLine{e: &itemEntry{b: b, fs: fs}, b: b, turn: turn}
	return b, l.think.e
}

// hostedFor returns the Hosted line a Grouped item of turn joins, and
// whether it is new (to be appended as an entry): it joins the last one
// when that is of the same turn and blank says nothing drawn came after it.
func (l *turnLines) hostedFor(it *stream.Item, turn int, fs *frameState, blank func(idx int) bool) (*itemEntry, bool) {
	if h := l.hosted; h.e != nil && h.turn == turn && blank(h.e.idx) {
		return h.e, false
	}
	b := block.NewHosted()
	l.hosted = hostedLine{e: &itemEntry{b: b, it: it, fs: fs}, b: b, turn: turn}
	return l.hosted.e, true
}

// notice adds a one-line notice to the transcript.
func (c *items) notice(kind block.NoticeKind, text string) {
	c.appendEntry(&plainEntry{b: block.NewNotice(kind, text), fs: c.fs})
}

func (c *items) appendEntry(e entry) {
	e.setIndex(c.transcript.Len())
	c.transcript.Append(e)
}

// addItem appends an item's entry to the transcript; a hosted search
// joins the line of the searches just before it (hostedFor).
func (c *items) addItem(it *stream.Item, now time.Time) *itemEntry {
	if block.Grouped(it) {
		e, fresh := c.lines.hostedFor(it, len(c.turnEntry), c.fs, c.transcript.blankAfter)
		c.lines.hosted.b.Add(block.ForItem(it, now))
		c.entries[it] = e
		if fresh {
			c.appendEntry(e)
			c.panels = append(c.panels, e)
		} else {
			c.transcript.Invalidate(e.idx)
		}
		return e
	}
	e := &itemEntry{b: block.ForItem(it, now), it: it, fs: c.fs}
	if it.Type == "reasoning" {
		b, fresh := c.lines.thinking(len(c.turnEntry), c.fs)
		if fresh != nil {
			c.appendEntry(fresh)
		}
		b.Join(e.b)
	}
	c.entries[it] = e
	c.appendEntry(e)
	switch it.Type {
	case "reasoning":
		c.reasoning = append(c.reasoning, e)
	case "message":
	default:
		c.panels = append(c.panels, e)
	}
	return e
}

// refreshDirty refreshes the items changed outside a turn since the last
// frame (tool output).
func (c *items) refreshDirty(now time.Time) tea.Cmd {
	var cmds []tea.Cmd
	for it := range c.dirty {
		cmds = append(cmds, c.refresh(it, now))
	}
	clear(c.dirty)
	return tea.Batch(cmds...)
}

// refresh re-renders a changed item's entry, and starts the slow work a
// finished item needs (the full markdown render, writing images) as Cmds.
func (c *items) refresh(it *stream.Item, now time.Time) tea.Cmd {
	e := c.entries[it]
	if e == nil {
		return nil
	}
	if u, ok := e.b.(block.Updater); ok {
		u.Update(now)
	}
	c.transcript.Invalidate(e.idx)
	if it.Type == "reasoning" && c.lines.think.e != nil {
		c.transcript.Invalidate(c.lines.think.e.idx) // its line sums the turn's reasoning
	}
	var cmds []tea.Cmd
	if it.Type == "message" && it.Done {
		cmds = append(cmds, c.finalRender(e))
	}
	if sv, ok := e.b.(block.ImageSaver); ok {
		if write := sv.SaveImage(c.images.sink); write != nil {
			cmds = append(cmds, c.images.writeImage(e, c.fs.width, write))
		}
	}
	return tea.Batch(cmds...)
}

// entriesLive lists entries that animate (spinners, elapsed times).
func (c *items) entriesLive() []*itemEntry {
	var out []*itemEntry
	for _, e := range c.panels {
		if e.b.Live() {
			out = append(out, e)
		}
	}
	for _, e := range c.reasoning {
		if e.b.Live() {
			out = append(out, e)
		}
	}
	if e := c.lines.think.e; e != nil && e.b.Live() {
		out = append(out, e)
	}
	return out
}

// hidden reports whether e's block draws nothing now (block.Hider): the
// keys that open blocks pass over it.
func hidden(e *itemEntry) bool {
	h, ok := e.b.(block.Hider)
	return ok && h.Hidden()
}

// finalRender runs a finished message's full render off the UI goroutine.
func (c *items) finalRender(e *itemEntry) tea.Cmd {
	f, ok := e.b.(block.Finisher)
	if !ok {
		return nil
	}
	w := c.fs.width
	render := f.FinalRender(block.Context{Width: w, Styles: c.fs.styles, Now: c.fs.now, Markdown: c.fs.md})
	return func() tea.Msg { return finalMsg{e: e, width: w, rendered: render()} }
}

// toggle opens or closes one entry's block.
func (c *items) toggle(e *itemEntry) {
	if x, ok := e.b.(block.Expander); ok {
		x.SetExpanded(!x.Expanded())
		c.transcript.Invalidate(e.idx)
	}
}

// lastShown is the last of es that opens and shows; nil for none.
func lastShown(es []*itemEntry) *itemEntry {
	for i := len(es) - 1; i >= 0; i-- {
		if _, ok := es[i].b.(block.Expander); ok && !hidden(es[i]) {
			return es[i]
		}
	}
	return nil
}

// anyClosed reports whether one of es that shows is closed.
func anyClosed(es []*itemEntry) bool {
	for _, e := range es {
		if x, ok := e.b.(block.Expander); ok && !x.Expanded() && !hidden(e) {
			return true
		}
	}
	return false
}

// panelKey is what a key opens or closes in the transcript.
type panelKey int

const (
	keyLastReasoning panelKey = iota // the last reasoning panel
	keyAllReasoning                  // every reasoning panel: open when one is closed, else closed
	keyToolPanel                     // the panel of the call an approval asks about, else the last tool panel
	keyPanelList                     // the list of panels (a dialog)
)

// expand does what a panel key asks. hosted is the hosted request an
// approval asks about, asked the item of the local call one asks about;
// nil when none is.
func (c *items) expand(k panelKey, hosted *itemEntry, asked *stream.Item) {
	var e *itemEntry
	switch k {
	case keyLastReasoning:
		e = lastShown(c.reasoning)
	case keyAllReasoning:
		open := anyClosed(c.reasoning)
		for _, e := range c.reasoning {
			if x, ok := e.b.(block.Expander); ok {
				x.SetExpanded(open)
				c.transcript.Invalidate(e.idx)
			}
		}
	case keyToolPanel:
		e = cmp.Or(hosted, c.entries[asked], lastShown(c.panels))
	case keyPanelList:
		c.panelList = append(c.panelList[:0], c.panels...)
		c.fs.post(dialogMsg{dlg[PanelList]{NewPanelList(c.panelList, c.fs.width, c.fs.styles)}})
	}
	if e != nil {
		c.toggle(e)
	}
}

// copyAnswer copies the last answer (or its n-th code block).
func (c *items) copyAnswer(n string) tea.Cmd {
	if len(c.answers) == 0 {
		c.notice(block.Info, "nothing to copy yet")
		return nil
	}
	// Code blocks are found in the cleaned text, as the screen finds them.
	text := stream.Sanitize(c.answers[len(c.answers)-1])
	if n != "" {
		var i int
		fmt.Sscan(n, &i)
		blocks := CodeBlocks(text)
		if i < 1 || i > len(blocks) {
			c.notice(block.Info, fmt.Sprintf("the last answer has %d code block(s)", len(blocks)))
			return nil
		}
		text = blocks[i-1]
	}
	return c.fs.copy(text)
}

// showAttachments lists a prompt's files under it in the transcript.
func (c *items) showAttachments(files []attach.Meta) {
	if len(files) == 0 {
		return
	}
	labels := make([]string, 0, len(files))
	for _, f := range files {
		labels = append(labels, f.Label())
	}
	c.appendEntry(&plainEntry{b: block.NewAttachments(labels), fs: c.fs})
}

// showItems gives every item not yet shown its entry.
func (c *items) showItems(snaps []*stream.Snapshot) {
	for _, s := range snaps {
		for _, it := range s.Items {
			if _, ok := c.entries[it]; !ok {
				if c.lists.skip(it) {
					continue
				}
				c.addItem(it, c.fs.now)
			}
			c.lists.note(it)
		}
	}
}

// title is the title an item's entry shows now ("" for none): a
// reasoning summary's heading.
func (c *items) title(it *stream.Item) string {
	if e := c.entries[it]; e != nil {
		if r, ok := e.b.(block.Titled); ok {
			return r.Title()
		}
	}
	return ""
}

// showSettled shows items that arrive whole, outside a turn (the MCP
// servers' tool lists): each completed and settled at now.
func (c *items) showSettled(raws []json.RawMessage, now time.Time) {
	for _, raw := range raws {
		it, err := stream.ItemFromJSON(raw)
		if err != nil {
			continue
		}
		it.Status = "completed"
		e := c.addItem(it, now)
		if ib, ok := e.b.(block.ItemBlock); ok {
			ib.End(now)
		}
	}
}

// reset empties the transcript, h rows high, and everything indexed on it.
func (c *items) reset(h int) {
	keys := c.transcript.keys // the configured ones
	c.transcript = NewTranscript(c.fs.width, h)
	c.transcript.keys = keys
	c.transcript.SetStyles(c.fs.styles)
	c.nav = navigator{}
	c.entries = map[*stream.Item]*itemEntry{}
	c.reasoning, c.panels, c.answers, c.turnEntry = nil, nil, nil, nil
	c.lists = toolLists{}
	c.lines = turnLines{}
}

// waitingApprovals returns the entries of those of its that are approval
// requests still waiting for an answer.
func (c *items) waitingApprovals(its []*stream.Item) []*itemEntry {
	var out []*itemEntry
	for _, it := range its {
		if e := c.entries[it]; e != nil {
			if a, ok := e.b.(block.Approver); ok {
				if _, waiting := a.Approval(); waiting {
					out = append(out, e)
				}
			}
		}
	}
	return out
}

// setRun shows on a call's panel how runnel's run of it stands.
func (c *items) setRun(it *stream.Item, r tools.Run) {
	if e := c.entries[it]; e != nil {
		if h, ok := e.b.(block.RunHolder); ok {
			h.SetRun(r)
		}
	}
}

// endItems settles the entries of a turn's items at now (marking them in
// changed), keeps its answers for copying, and returns the entries of
// approval requests still waiting for an answer.
func (c *items) endItems(snaps []*stream.Snapshot, now time.Time, changed map[*stream.Item]bool) (pending []*itemEntry) {
	for _, s := range snaps {
		for _, it := range s.Items {
			if e := c.entries[it]; e != nil {
				if ib, ok := e.b.(block.ItemBlock); ok {
					ib.End(now)
					changed[it] = true
				}
				if cb, ok := e.b.(block.Compaction); ok && it.Type == "compaction" && s.Usage != nil {
					cb.SetTokens(s.Usage.InputTokens, 0) // the context the server compacted
				}
				if a, ok := e.b.(block.Approver); ok {
					if _, waiting := a.Approval(); waiting {
						pending = append(pending, e)
					}
				}
			}
			if it.Type == "message" && it.Text() != "" {
				c.answers = append(c.answers, it.Text())
			}
		}
	}
	return pending
}

// showCompaction shows where the model's context starts after /compact: a
// panel with the sizes, and a divider.
func (c *items) showCompaction(res *stream.CompactResult, now time.Time) {
	e := c.addItem(compactionItem(res.Output), now)
	if ib, ok := e.b.(block.ItemBlock); ok {
		ib.End(now)
	}
	if cb, ok := e.b.(block.Compaction); ok && res.Usage != nil {
		cb.SetTokens(res.Usage.InputTokens, res.Usage.OutputTokens)
	}
	c.appendEntry(&plainEntry{b: block.NewDivider(compactDivider), fs: c.fs})
	c.transcript.Follow()
}

// compactionMarks draws, when a saved session is shown again, the panel and
// divider of each /compact: a turn whose input holds a compaction item sent
// a compacted window. A window sent again (its first turn failed) is marked
// once.
type compactionMarks struct{ last string }

func (w *compactionMarks) mark(c *items, input []json.RawMessage, now time.Time) {
	var it *stream.Item
	for _, raw := range input {
		if c := stream.StoredItem(raw); c != nil && c.Type == "compaction" {
			it = c
		}
	}
	if it == nil || (it.ID != "" && it.ID == w.last) {
		return
	}
	w.last = it.ID
	e := c.addItem(it, now)
	if ib, ok := e.b.(block.ItemBlock); ok {
		ib.End(now)
	}
	c.appendEntry(&plainEntry{b: block.NewDivider(compactDivider), fs: c.fs})
}

// togglePanel opens or closes the panel chosen in the list and shows it.
func (c *items) togglePanel(i int) {
	if i < 0 || i >= len(c.panelList) {
		return
	}
	e := c.panelList[i]
	c.toggle(e)
	c.transcript.ScrollTo(e.idx)
}

// compactDivider labels the rule under the compaction panel.
const compactDivider = "the model's context starts here · earlier turns stay above, searchable"

// compactionItem is the window's newest compaction item, for its panel; a
// window without one gets a bare compaction item.
func compactionItem(window []json.RawMessage) *stream.Item {
	for i := len(window) - 1; i >= 0; i-- {
		if it, err := stream.ItemFromJSON(window[i]); err == nil && it.Type == "compaction" {
			return it
		}
	}
	return stream.StoredItem(json.RawMessage(`{"type":"compaction","status":"completed"}`))
}

// Update takes the messages the transcript owns: notices, redraws, the
// scroll wheel and keys, resets, and what its entries' slow work brings
// back.
func (c *items) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case resetMsg:
		if msg.forgets() { // a provider switch keeps the transcript
			c.reset(msg.height)
		}
		return nil
	case tea.MouseWheelMsg, tea.KeyPressMsg:
		var cmd tea.Cmd
		c.transcript, cmd = c.transcript.Update(msg)
		return cmd
	case finalMsg:
		if f, ok := msg.e.b.(block.Finisher); ok { // one for another width waits for it
			f.SetFinal(msg.width, msg.rendered)
			c.transcript.Invalidate(msg.e.idx)
		}
		if n := c.fs.md.NewNote(); n != "" { // the whole render fell back: said now, not on a later frame
			c.notice(block.Warning, stream.SanitizeLine(n))
		}
	case runMsg:
		c.setRun(msg.it, msg.run)
	case panelChangedMsg:
		c.dirty[msg.it] = true // drawn on the next frame
	case panelEndedMsg:
		return c.refresh(msg.it, msg.now) // drawn now, with the notice that says so
	case showMsg:
		c.appendEntry(&plainEntry{b: msg.b, fs: c.fs})
	case shellPanelMsg:
		c.showShell(msg)
	case imageMsg:
		return c.imageWritten(msg)
	case noticeMsg:
		c.notice(msg.kind, msg.text)
	case NoticeMsg:
		kind := block.Info
		if msg.Err {
			kind = block.Error
		}
		c.notice(kind, msg.Text)
	case redrawMsg:
		c.transcript.Invalidate(msg.idx)
	case layoutMsg:
		c.transcript.apply(msg)
	case scrollTurnMsg:
		if msg.at >= 0 && msg.at < len(c.turnEntry) {
			c.transcript.ScrollTo(c.turnEntry[msg.at])
		}
	}
	return nil
}

// scrollTurnMsg shows the user turn at path index at (a resumed session's
// turn last continued); nothing when there is none.
type scrollTurnMsg struct{ at int }

// shown is the transcript as it shows now, a copy for reading: its view,
// its length, the part above a dialog (overlayView).
func (c *items) shown() Transcript { return c.transcript }

// modes is what the transcript's modes show: the navigation mode's label
// ("" when it is off, navigator.label), and whether the terminal selects
// (f2 handed it the mouse).
func (c *items) modes() (nav string, terminalSelects bool) { return c.nav.label(), c.sel.off }
