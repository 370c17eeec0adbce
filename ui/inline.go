package ui

// This file shows generated images inline (ui/graphics) in the panels of
// image generation calls, where the terminal can draw them.

import (
	"io"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session/images"
	"runnel/ui/block"
	"runnel/ui/graphics"
)

// inlineImages is the chat's side of inline images.
//
// Invariants: ids gives each image panel one kitty image id (1 to 255,
// reused after 255 panels), so a newer partial image, and then the final
// one, replace the older in place; next is the last id given.
// With iTerm2 images, iterm holds each id's picture and where it was last
// drawn on screen (drawn false: not on screen, or moved since), and gen
// counts layouts that moved one, so only the latest asks for a draw.
// sink is where generated images are written (nil: nowhere).
type inlineImages struct {
	sink    images.Sink
	support graphics.Support
	ids     map[*itemEntry]int
	next    int
	iterm   map[int]*itermPlace
	gen     int
}

// itermPlace is one iTerm2 image: its draw sequence, its height in rows,
// and where it was drawn last.
type itermPlace struct {
	draw     string
	rows     int
	row, col int
	drawn    bool
}

// itermMsg asks to draw the iTerm2 images that moved, once the frame of
// layout gen is on screen.
type itermMsg struct{ gen int }

// itermSettle is how long after a layout the pictures are drawn: a few
// frames, so that the frame moving their blank rows is on screen first and
// does not paint over them.
const itermSettle = 50 * time.Millisecond

// itermPlaces finds the iTerm2 images' reserved rows on screen; it returns
// the ids whose place is new (and forgets the place of those off screen).
func (g *inlineImages) itermPlaces(t *Transcript, shown bool) []int {
	if len(g.iterm) == 0 {
		return nil
	}
	var lines []string
	if shown { // the transcript is on screen
		lines = strings.Split(t.View(), "\n")
	}
	var moved []int
	for id, p := range g.iterm {
		row, col, ok := graphics.Locate(lines, id, p.rows, t.Height())
		switch {
		case !ok:
			p.drawn = false
		case !p.drawn || row != p.row || col != p.col:
			p.row, p.col, p.drawn = row, col, false
			moved = append(moved, id)
		}
	}
	return moved
}

// placeImages runs after every Update: when an iTerm2 image's rows moved
// or came on screen, it asks for a draw once the frame is shown.
func (c *items) placeImages(shown bool) tea.Cmd {
	g := &c.images
	if len(g.itermPlaces(&c.transcript, shown)) == 0 {
		return nil
	}
	g.gen++
	gen := g.gen
	return tea.Tick(itermSettle, func(time.Time) tea.Msg { return itermMsg{gen} })
}

// drawImages draws the iTerm2 images that are on screen and not drawn at
// their place yet, if no later layout moved them again.
func (c *items) drawImages(msg itermMsg, shown bool) tea.Cmd {
	g := &c.images
	if msg.gen != g.gen {
		return nil
	}
	g.itermPlaces(&c.transcript, shown)
	var b strings.Builder
	for _, p := range g.iterm {
		if !p.drawn && p.rows > 0 {
			b.WriteString(graphics.DrawAt(p.draw, p.row, p.col))
			p.drawn = true
		}
	}
	if b.Len() == 0 {
		return nil
	}
	return tea.Raw(b.String())
}

// writeImage returns the Cmd that writes an image (write, from
// block.ImageSaver) and, when the terminal shows images, prepares it for
// e's panel, width cells wide; run off the UI goroutine.
func (g *inlineImages) writeImage(e *itemEntry, width int, write func() block.ImageFile) tea.Cmd {
	support, id, cols := g.support, 0, max(1, width-8)
	if support.On() {
		if g.ids == nil {
			g.ids = map[*itemEntry]int{}
		}
		if id = g.ids[e]; id == 0 {
			g.next = g.next%255 + 1
			id, g.ids[e] = g.next, g.next
		}
	}
	return func() tea.Msg {
		f := write()
		switch {
		case support.On() && f.Data != "":
			if img, err := support.Prepare(id, f.Data, cols); err != nil {
				f.Note = "not shown inline: " + err.Error()
			} else if img.Draw != "" {
				f.Inline, f.Data = img.Rows, img.Draw // Data now carries the iTerm2 picture
			} else {
				f.Inline, f.Data = img.Rows, img.Seq // Data now carries the sequence to write
			}
		case support.Note != "":
			f.Note = support.Note
		}
		return imageMsg{e: e, f: f}
	}
}

// imageWritten gives a panel its image (reporting whether it has one, to
// be redrawn) and transmits the image to the terminal when it is shown
// inline: once, before the placeholders that draw it are on screen.
func (g *inlineImages) imageWritten(msg imageMsg) (tea.Cmd, bool) {
	sv, ok := msg.e.b.(block.ImageSaver)
	if !ok {
		return nil, false
	}
	seq := ""
	if msg.f.Inline != nil {
		seq = msg.f.Data
	}
	sv.ImageSaved(msg.f)
	if seq == "" {
		return nil, true
	}
	if g.support.ITerm && !g.support.Kitty {
		if g.iterm == nil {
			g.iterm = map[int]*itermPlace{}
		}
		g.iterm[g.ids[msg.e]] = &itermPlace{draw: seq, rows: len(msg.f.Inline)}
		return nil, true // drawn by placeImages once its rows are on screen
	}
	return tea.Raw(seq), true
}

// imageWritten gives a panel its image and redraws it (see
// inlineImages.imageWritten).
func (c *items) imageWritten(msg imageMsg) tea.Cmd {
	cmd, ok := c.images.imageWritten(msg)
	if ok {
		c.transcript.Invalidate(msg.e.idx)
	}
	return cmd
}

// freeImages frees the images runnel sent, once the chat has ended.
func (c *items) freeImages(w io.Writer) {
	ids := make([]int, 0, len(c.images.ids))
	for _, id := range c.images.ids {
		ids = append(ids, id)
	}
	if seq := c.images.support.Delete(ids); seq != "" && len(ids) > 0 {
		io.WriteString(w, seq)
	}
}
