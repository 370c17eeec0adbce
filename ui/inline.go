package ui

// This file shows generated images inline (ui/graphics) in the panels of
// image generation calls, where the terminal can draw them.

import (
	"io"

	tea "charm.land/bubbletea/v2"

	"runnel/ui/block"
	"runnel/ui/graphics"
)

// inlineImages is the chat's side of inline images.
//
// Invariants: ids gives each image panel one kitty image id (1 to 255,
// reused after 255 panels), so a newer partial image, and then the final
// one, replace the older in place; next is the last id given.
type inlineImages struct {
	support graphics.Support
	ids     map[*itemEntry]int
	next    int
}

// writeImage returns the Cmd that writes an image (write, from
// block.ImageSaver) and, when the terminal shows images, prepares it for
// e's panel; run off the UI goroutine.
func (m *Model) writeImage(e *itemEntry, write func() block.ImageFile) tea.Cmd {
	g := &m.images
	support, id, cols := g.support, 0, max(1, m.width-8)
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
			} else {
				f.Inline, f.Data = img.Rows, img.Seq // Data now carries the sequence to write
			}
		case support.Note != "":
			f.Note = support.Note
		}
		return imageMsg{e: e, f: f}
	}
}

// imageWritten gives a panel its image and transmits the image to the
// terminal when it is shown inline: once, before the placeholders that
// draw it are on screen.
func (m *Model) imageWritten(msg imageMsg) tea.Cmd {
	sv, ok := msg.e.b.(block.ImageSaver)
	if !ok {
		return nil
	}
	seq := ""
	if msg.f.Inline != nil {
		seq = msg.f.Data
	}
	sv.ImageSaved(msg.f)
	m.transcript.Invalidate(msg.e.idx)
	if seq == "" {
		return nil
	}
	return tea.Raw(seq)
}

// freeImages frees the images runnel sent, once the chat has ended.
func (m *Model) freeImages(w io.Writer) {
	ids := make([]int, 0, len(m.images.ids))
	for _, id := range m.images.ids {
		ids = append(ids, id)
	}
	if seq := m.images.support.Delete(ids); seq != "" && len(ids) > 0 {
		io.WriteString(w, seq)
	}
}
