package vi

import "unicode"

// motion moves the cursor for a motion key (h j k l, w b e, 0 $ and the
// arrows, home, end); false for any other key.
func motion(t [][]rune, b Buffer, k string) (Buffer, bool) {
	line := t[b.Row]
	switch k {
	case "h", "left":
		b.Col = max(b.Col-1, 0)
	case "l", "right":
		b.Col = min(b.Col+1, lastCol(line))
	case "j", "down":
		if b.Row < len(t)-1 {
			b.Row++
			b.Col = min(b.Col, lastCol(t[b.Row]))
		}
	case "k", "up":
		if b.Row > 0 {
			b.Row--
			b.Col = min(b.Col, lastCol(t[b.Row]))
		}
	case "0", "home":
		b.Col = 0
	case "$", "end":
		b.Col = lastCol(line)
	case "w":
		b.Row, b.Col = wordNext(t, b.Row, b.Col)
	case "b":
		b.Row, b.Col = wordBack(t, b.Row, b.Col)
	case "e":
		b.Row, b.Col = wordEnd(t, b.Row, b.Col)
	default:
		return b, false
	}
	return b, true
}

// class is a rune's kind for word motions: 0 space, 1 word, 2 punctuation.
func class(r rune) int {
	switch {
	case unicode.IsSpace(r):
		return 0
	case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
		return 1
	}
	return 2
}

// at is the class at (row, col), a line's end counting as space.
func at(t [][]rune, row, col int) int {
	if col >= len(t[row]) {
		return 0
	}
	return class(t[row][col])
}

// wordNext is w: the start of the next word, across lines; the last
// rune of the text when there is none.
func wordNext(t [][]rune, row, col int) (int, int) {
	c := at(t, row, col)
	// leave the current word
	for c != 0 && col < len(t[row]) && class(t[row][col]) == c {
		col++
	}
	// skip spaces and line ends; an empty line is a word of its own
	for {
		if col < len(t[row]) {
			if !unicode.IsSpace(t[row][col]) {
				return row, col
			}
			col++
			continue
		}
		if row == len(t)-1 {
			return row, lastCol(t[row])
		}
		row, col = row+1, 0
		if len(t[row]) == 0 {
			return row, 0
		}
	}
}

// wordStart reports whether a word begins at line[c]: w stops there for a
// word, and at the text's last rune when no word follows.
func wordStart(line []rune, c int) bool {
	if c >= len(line) || unicode.IsSpace(line[c]) {
		return false
	}
	return c == 0 || unicode.IsSpace(line[c-1]) || class(line[c-1]) != class(line[c])
}

// wordBack is b: the start of this word or the one before.
func wordBack(t [][]rune, row, col int) (int, int) {
	// step back once, then over spaces and line ends
	for {
		if col > 0 {
			col--
		} else if row > 0 {
			row--
			col = len(t[row])
			if col == 0 {
				return row, 0
			}
			continue
		} else {
			return 0, 0
		}
		if !unicode.IsSpace(t[row][col]) {
			break
		}
	}
	c := class(t[row][col])
	for col > 0 && class(t[row][col-1]) == c {
		col--
	}
	return row, col
}

// wordEnd is e: the end of this word or the next.
func wordEnd(t [][]rune, row, col int) (int, int) {
	for {
		if col < len(t[row])-1 {
			col++
		} else if row < len(t)-1 {
			row, col = row+1, 0
			if len(t[row]) == 0 {
				continue
			}
		} else {
			return row, lastCol(t[row])
		}
		if !unicode.IsSpace(t[row][col]) {
			break
		}
	}
	c := class(t[row][col])
	for col < len(t[row])-1 && class(t[row][col+1]) == c {
		col++
	}
	return row, col
}
