package block

import (
	"strings"

	"runnel/stream/cite"
)

// cutScanner finds the end of the longest run of whole top-level markdown
// blocks in src[from:]. The Printer prints a message block by block with it,
// so nothing printed is ever re-rendered.
//
// A cut goes just before a line that starts a new block: the line before it
// is blank and outside any fenced code block, and the line itself has begun,
// starts at column 0, and does not continue a list (a list item, or any
// indented line, after a list would join that list when rendered whole).
//
// It keeps its state between calls on a text that grows: each call scans
// only the lines that arrived since the last one (the same from), so
// printing one long paragraph costs linear time.
//
// Invariants: src[from:pos] are whole lines already scanned; fenceCh,
// fenceN, blank, inList and text describe them; found is the last cut in
// them (from if none).
type cutScanner struct {
	from, pos, found int
	fenceCh          byte
	fenceN           int
	blank            bool // the previous line was blank
	inList           bool // the current block so far is (or ends in) a list
	text             bool // src[from:pos] holds something other than blanks
	clear            int  // src[pos:clear] holds no newline: a partial last line is not searched again
}

// cut returns the end of the longest run of whole blocks in src[from:], or
// from when there is none yet; src extends the text of the previous call.
func (sc *cutScanner) cut(src string, from int) int {
	if from != sc.from || sc.pos < from || sc.pos > len(src) {
		*sc = cutScanner{from: from, pos: from, found: from}
	}
	i := sc.pos
	for i < len(src) {
		k := max(i, min(sc.clear, len(src)))
		j := strings.IndexByte(src[k:], '\n')
		if j < 0 {
			sc.clear = len(src)
			break
		}
		j += k - i
		line := src[i : i+j]
		if sc.blank && sc.fenceCh == 0 && sc.text && startsBlock(line, sc.inList) {
			sc.found = i
			sc.inList = false
		}
		t := strings.TrimLeft(line, " ")
		indent := len(line) - len(t)
		switch {
		case sc.fenceCh != 0:
			if n := cite.FenceRun(t); indent <= 3 && n >= sc.fenceN && t[0] == sc.fenceCh && strings.TrimSpace(t[n:]) == "" {
				sc.fenceCh = 0
			}
		case indent <= 3 && cite.FenceRun(t) >= 3 && (t[0] == '`' || t[0] == '~'):
			sc.fenceCh, sc.fenceN = t[0], cite.FenceRun(t)
		}
		if strings.TrimSpace(line) == "" {
			sc.blank = true
		} else {
			sc.blank, sc.text = false, true
			if listItem(line) {
				sc.inList = true
			}
		}
		i += j + 1
	}
	sc.pos = i
	// A partial last line may start a block after a blank line, if it has
	// begun with something that decides.
	if i < len(src) && sc.blank && sc.fenceCh == 0 && startsBlock(src[i:], sc.inList) {
		return i
	}
	return sc.found
}

// startsBlock reports whether a line (possibly partial) after a blank line
// surely starts a new top-level block.
func startsBlock(line string, inList bool) bool {
	if line == "" || line[0] == ' ' || line[0] == '\t' {
		return false
	}
	if inList && (listItem(line) || !listDecided(line)) {
		return false
	}
	return true
}

// listItem reports whether line starts a list item at column 0.
func listItem(line string) bool {
	if len(line) >= 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') && line[1] == ' ' {
		return true
	}
	i := 0
	for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(line) && (line[i] == '.' || line[i] == ')') && line[i+1] == ' '
}

// listDecided reports whether enough of a partial line has arrived to tell
// whether it is a list item.
func listDecided(line string) bool {
	if line[0] == '-' || line[0] == '*' || line[0] == '+' {
		return len(line) >= 2
	}
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == 0 {
		return true
	}
	return i+1 < len(line)
}
