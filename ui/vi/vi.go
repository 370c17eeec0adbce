package vi

import (
	"strings"
	"unicode"
)

// Mode is the editor's mode.
type Mode int

const (
	Insert Mode = iota // keys type text (the caller's input handles them)
	Normal             // keys move and edit
)

// String is the mode as the status line shows it.
func (m Mode) String() string {
	if m == Normal {
		return "NORMAL"
	}
	return "INSERT"
}

// Buffer is the text and the cursor: Row is the line, Col the rune in it.
type Buffer struct {
	Text     string
	Row, Col int
}

// Action is what the caller does after a key.
type Action int

const (
	Done Action = iota // the key was handled; show the buffer returned
	Pass               // not a vi key here: the caller's own input takes it
	Send               // enter in normal mode: send the text
)

// undoMax is how many earlier buffers u can bring back.
const undoMax = 100

// Editor is the vi state of one composer.
//
// Invariants:
//   - pending is "" or the first key of a two-key command ("d", "c", "y").
//   - reg holds the last text deleted or yanked; line says it is whole
//     lines (pasted below or above, not inside the line).
//   - undo holds at most undoMax buffers, oldest first.
type Editor struct {
	mode    Mode
	pending string
	reg     string
	line    bool
	undo    []Buffer
}

// Mode is the current mode.
func (e *Editor) Mode() Mode { return e.mode }

// SetMode switches mode; entering insert mode keeps b for undo.
func (e *Editor) SetMode(m Mode, b Buffer) {
	if m == Insert && e.mode == Normal {
		e.save(b)
	}
	e.mode, e.pending = m, ""
}

// Pending is the first key of a two-key command typed so far, or "".
func (e *Editor) Pending() string { return e.pending }

func (e *Editor) save(b Buffer) {
	if n := len(e.undo); n > 0 && e.undo[n-1] == b {
		return
	}
	e.undo = append(e.undo, b)
	if len(e.undo) > undoMax {
		e.undo = e.undo[1:]
	}
}

// Key applies one key press to b.
func (e *Editor) Key(b Buffer, k string) (Buffer, Action) {
	if e.mode == Insert {
		if k == "esc" {
			e.mode = Normal
			t := split(b.Text)
			b = clampBuf(t, b)
			b.Col = max(b.Col-1, 0) // vi steps back off the inserted text
			return b, Done
		}
		return b, Pass
	}
	t := split(b.Text)
	b = clampBuf(t, b)
	if p := e.pending; p != "" {
		e.pending = ""
		return e.operator(t, b, p+k)
	}
	if m, ok := motion(t, b, k); ok {
		return m, Done
	}
	if i, ok := e.insert(t, b, k); ok {
		return i, Done
	}
	return e.edit(t, b, k)
}

// insert enters insert mode for i a I A o O, placing the cursor (and
// opening a line for o and O); false for any other key.
func (e *Editor) insert(t [][]rune, b Buffer, k string) (Buffer, bool) {
	line := t[b.Row]
	switch k {
	case "i":
		e.SetMode(Insert, b)
	case "a":
		e.SetMode(Insert, b)
		b.Col = min(b.Col+1, len(line))
	case "I":
		e.SetMode(Insert, b)
		b.Col = firstNonBlank(line)
	case "A":
		e.SetMode(Insert, b)
		b.Col = len(line)
	case "o", "O":
		e.SetMode(Insert, b)
		at := b.Row
		if k == "o" {
			at++
		}
		t = append(t[:at], append([][]rune{nil}, t[at:]...)...)
		b = join(t, at, 0)
	default:
		return b, false
	}
	return b, true
}

// edit applies the rest of normal mode's keys: x, p, P, u, the first key of
// an operator, enter and esc; an unbound letter does nothing.
func (e *Editor) edit(t [][]rune, b Buffer, k string) (Buffer, Action) {
	line := t[b.Row]
	switch k {
	case "x", "delete":
		if len(line) == 0 {
			return b, Done
		}
		e.save(b)
		e.reg, e.line = string(line[b.Col]), false
		t[b.Row] = cut(line, b.Col, b.Col+1)
		b = join(t, b.Row, min(b.Col, lastCol(t[b.Row])))
	case "p", "P":
		if e.reg == "" {
			return b, Done
		}
		e.save(b)
		b = e.paste(t, b, k == "p")
	case "u":
		n := len(e.undo)
		if n == 0 {
			return b, Done
		}
		b = e.undo[n-1]
		e.undo = e.undo[:n-1]
	case "d", "c", "y":
		e.pending = k
	case "enter":
		return b, Send
	case "esc":
		return b, Pass // the caller's esc (stop a turn, clear)
	default:
		if len([]rune(k)) == 1 {
			return b, Done // an unbound letter does nothing, as in vi
		}
		return b, Pass // ctrl+… and the like stay the caller's
	}
	return b, Done
}

// operator applies a two-key command: dd, dw, cw, yy.
func (e *Editor) operator(t [][]rune, b Buffer, cmd string) (Buffer, Action) {
	line := t[b.Row]
	switch cmd {
	case "dd":
		e.save(b)
		e.reg, e.line = string(line)+"\n", true
		if len(t) == 1 {
			return Buffer{}, Done
		}
		t = append(t[:b.Row], t[b.Row+1:]...)
		row := min(b.Row, len(t)-1)
		return join(t, row, min(firstNonBlank(t[row]), lastCol(t[row]))), Done
	case "yy":
		e.reg, e.line = string(line)+"\n", true
		return b, Done
	case "dw", "cw":
		e.save(b)
		end := b.Col
		if cmd == "cw" {
			// cw changes to the end of the word (vi's cw is ce)
			if end < len(line) && !unicode.IsSpace(line[end]) {
				c := class(line[end])
				for end < len(line) && class(line[end]) == c {
					end++
				}
			} else {
				for end < len(line) && unicode.IsSpace(line[end]) {
					end++
				}
			}
		} else {
			r, c := wordNext(t, b.Row, b.Col)
			end = len(line)
			if r == b.Row && c > b.Col && wordStart(line, c) { // else w stopped at the text's end: dw takes the rest
				end = c
			}
		}
		if end > b.Col {
			e.reg, e.line = string(line[b.Col:end]), false
		}
		t[b.Row] = cut(line, b.Col, end)
		if cmd == "cw" {
			e.mode = Insert
			return join(t, b.Row, b.Col), Done
		}
		return join(t, b.Row, min(b.Col, lastCol(t[b.Row]))), Done
	}
	return b, Done // an unknown pair is dropped, as in vi
}

// paste puts the register after (or before) the cursor.
func (e *Editor) paste(t [][]rune, b Buffer, after bool) Buffer {
	if e.line {
		at := b.Row
		if after {
			at++
		}
		add := split(strings.TrimSuffix(e.reg, "\n"))
		t = append(t[:at], append(add, t[at:]...)...)
		return join(t, at, firstNonBlank(t[at]))
	}
	line := t[b.Row]
	at := b.Col
	if after && len(line) > 0 {
		at++
	}
	reg := []rune(e.reg)
	nl := append(append(append([]rune{}, line[:at]...), reg...), line[at:]...)
	t[b.Row] = nl
	text := join(t, 0, 0).Text
	// the cursor ends on the last pasted rune, which may be lines below
	row, col := b.Row, at
	for _, r := range reg {
		if r == '\n' {
			row, col = row+1, 0
		} else {
			col++
		}
	}
	return clampBuf(split(text), Buffer{Text: text, Row: row, Col: max(col-1, 0)})
}

// split is the text's lines as runes; never empty.
func split(s string) [][]rune {
	ls := strings.Split(s, "\n")
	out := make([][]rune, len(ls))
	for i, l := range ls {
		out[i] = []rune(l)
	}
	return out
}

// join builds the buffer of lines t with the cursor at row, col.
func join(t [][]rune, row, col int) Buffer {
	ls := make([]string, len(t))
	for i, l := range t {
		ls[i] = string(l)
	}
	return Buffer{Text: strings.Join(ls, "\n"), Row: row, Col: max(col, 0)}
}

// clampBuf keeps the cursor inside t (on a rune, or at 0 on an empty line).
func clampBuf(t [][]rune, b Buffer) Buffer {
	b.Row = min(max(b.Row, 0), len(t)-1)
	b.Col = min(max(b.Col, 0), lastCol(t[b.Row]))
	return b
}

// lastCol is the last column normal mode's cursor may rest on.
func lastCol(l []rune) int { return max(len(l)-1, 0) }

// cut is l without runes [from, to).
func cut(l []rune, from, to int) []rune {
	return append(append([]rune{}, l[:from]...), l[to:]...)
}

func firstNonBlank(l []rune) int {
	for i, r := range l {
		if !unicode.IsSpace(r) {
			return i
		}
	}
	return 0
}
