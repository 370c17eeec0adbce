package graphics

// This file draws images with iTerm2's inline images (OSC 1337), which
// iTerm2 and WezTerm understand. Unlike kitty's placeholders, such a
// picture is drawn at the cursor and stays where it was drawn, so the
// caller reserves blank rows in its view (Image.Rows, the first carrying
// Marker), finds them on screen with Locate after each layout, and writes
// DrawAt's sequence whenever their place changes.

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// itermProgram reports whether the environment names a terminal with
// iTerm2 inline images: iTerm2 or WezTerm (TERM_PROGRAM), or iTerm2 over
// ssh (LC_TERMINAL, which iTerm2 sends along).
func itermProgram(getenv func(string) string) bool {
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm":
		return true
	}
	return getenv("LC_TERMINAL") == "iTerm2"
}

// Marker is the mark at the start of an image's first reserved row: an
// empty colour change naming the image id, which nothing else writes and
// which draws nothing.
func Marker(id int) string { return fmt.Sprintf("\x1b[38;5;%dm\x1b[39m", id) }

// reserve are the blank rows, cols wide, that hold image id's place.
func reserve(id, cols, rows int) []string {
	out := make([]string, rows)
	for r := range out {
		out[r] = strings.Repeat(" ", cols)
	}
	out[0] = Marker(id) + out[0]
	return out
}

// itermImage is the OSC 1337 sequence drawing a PNG in cols×rows cells at
// the cursor, wrapped for tmux when needed.
func (s Support) itermImage(pngData []byte, cols, rows int) string {
	return s.wrap(fmt.Sprintf("\x1b]1337;File=inline=1;size=%d;width=%d;height=%d;preserveAspectRatio=1:%s\a",
		len(pngData), cols, rows, base64.StdEncoding.EncodeToString(pngData)))
}

// Locate finds image id's first reserved row among lines (a screen's rows
// from the top): its row, column and whether it is there with all its rows
// on screen (rows of them before line limit).
func Locate(lines []string, id, rows, limit int) (row, col int, ok bool) {
	m := Marker(id)
	for r, l := range lines[:min(len(lines), limit)] {
		if i := strings.Index(l, m); i >= 0 {
			return r, ansi.StringWidth(l[:i]), r+rows <= limit
		}
	}
	return 0, 0, false
}

// DrawAt is the sequence that draws an image (draw, from Prepare's
// Image.Draw) with its top-left cell at row, col (from 0): save the cursor,
// move, draw, restore the cursor. The cursor moves are tmux's own (they
// position the pane's cursor); only the image passes through.
func DrawAt(draw string, row, col int) string {
	return fmt.Sprintf("\x1b7\x1b[%d;%dH", row+1, col+1) + draw + "\x1b8"
}
