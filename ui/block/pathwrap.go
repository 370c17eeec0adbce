package block

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"runnel/ui/textwrap"
)

// Panels show paths: file search results, the file an apply_patch call
// changes, paths in shell commands, arguments and tool output. A path that
// fits on a line is never split across lines (ansi.Wrap also breaks at
// hyphens, so "/src/my-app/x.go" could end one row with "my-" even though it
// fitted whole on the next); a path too long for a line is shortened in the
// middle, "/home/user/pro…/components/file_name.go", keeping where it starts
// and the file name, rather than wrapped into pieces that read as several
// paths. An expanded panel (ctrl+o) shows every character: there a path too
// long for a line is broken where the line ends, as is a saved image's path
// (lineWhole), which the user needs whole. Other words longer than a line
// (base64, a URL) are always broken, a URL after a separator (urlRows), the
// rest where the line ends: cutting them would hide what is in the middle
// of them, and a URL cut is no more clickable than one wrapped.

// wrapPanel breaks text (cleaned; it may be styled) into rows of at most
// width columns at spaces only: a word goes whole to the next row when it
// does not fit on this one; with shorten, a path longer than a row is
// shortened in the middle (fitPath); any other word longer than a row is
// broken.
func wrapPanel(s string, width int, shorten bool) []string {
	width = max(width, 1)
	return textwrap.ByLine(s, func(out []string, line string) []string { return wrapPanelLine(out, line, width, shorten) })
}

func wrapPanelLine(out []string, line string, width int, shorten bool) []string {
	if ansi.StringWidth(line) <= width {
		return append(out, line)
	}
	var cur strings.Builder
	curW, cont := 0, false // cont: a row of this line was written
	flush := func() {
		out = append(out, strings.TrimRight(cur.String(), " "))
		cur.Reset()
		curW, cont = 0, true
	}
	for spaces, word := range textwrap.SpacedWords(line) {
		if word == "" {
			break // trailing spaces
		}
		sw, ww := len(spaces), ansi.StringWidth(word)
		if cont && cur.Len() == 0 {
			sw, spaces = 0, "" // a continuation row starts with its word
		}
		switch {
		case curW+sw+ww <= width:
			cur.WriteString(spaces + word)
			curW += sw + ww
			continue
		case ww <= width:
			flush()
			cur.WriteString(word)
			curW = ww
			continue
		}
		// a word longer than a row: a path shortened to the rest of this
		// row when that leaves it room ("cwd /home/…/widgets"), else on
		// rows of its own
		if room := width - curW - sw; shorten && curW > 0 && room >= max(16, width/2) && isPath(word) {
			cur.WriteString(spaces + fitPath(word, room))
			flush()
			continue
		}
		if curW > 0 {
			flush()
		}
		if shorten && isPath(word) {
			cur.WriteString(fitPath(word, width))
			curW = width
			flush()
			continue
		}
		var pieces []string
		if plain := ansi.Strip(word); strings.Contains(plain, "://") && strings.HasSuffix(word, plain) {
			// a URL (after a style's reset, perhaps): broken after a
			// separator, never inside a word
			pieces = urlRows(plain, width)
			pieces[0] = word[:len(word)-len(plain)] + pieces[0]
		} else {
			pieces = strings.Split(ansi.Hardwrap(word, width, false), "\n")
		}
		out, cont = append(out, pieces[:len(pieces)-1]...), true
		last := pieces[len(pieces)-1]
		cur.WriteString(last)
		curW = ansi.StringWidth(last)
	}
	if cur.Len() > 0 {
		flush()
	}
	return out
}

// isPath reports whether a word reads as a file path: it holds a path
// separator between other characters, and it is not a URL.
func isPath(word string) bool {
	plain := ansi.Strip(word)
	if strings.Contains(plain, "://") {
		return false
	}
	return strings.Trim(plain, `/\"',:;()[]{}`) != "" && strings.ContainsAny(strings.Trim(plain, `"',:;()[]{}`), `/\`)
}

// fitPath shortens a path to width columns in the middle, keeping its start
// and more of its end (the file name): "/home/user/pro…/file_name.go".
func fitPath(path string, width int) string {
	w := ansi.StringWidth(path)
	if w <= width {
		return path
	}
	if width < 3 {
		return ansi.Truncate(path, width, "…")
	}
	head := (width - 1) * 2 / 5
	tail := width - 1 - head
	return ansi.Truncate(path, head, "") + "…" + ansi.TruncateLeft(path, w-tail, "")
}

// fitRow fits one row to width: a row that is a path (a file search
// result) is shortened in the middle, anything else cut at its end.
func fitRow(row string, width int) string {
	if ansi.StringWidth(row) <= width {
		return row
	}
	if isPath(row) && !strings.Contains(ansi.Strip(row), " ") {
		return fitPath(row, width)
	}
	return fit(row, width)
}
