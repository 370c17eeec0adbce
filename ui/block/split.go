package block

import "strings"

// settledCut returns the end of the longest run of whole top-level markdown
// blocks in src[from:], or from when there is none yet. The Printer prints a
// message block by block with it, so nothing printed is ever re-rendered.
//
// A cut goes just before a line that starts a new block: the line before it
// is blank and outside any fenced code block, and the line itself has begun,
// starts at column 0, and does not continue a list (a list item, or any
// indented line, after a list would join that list when rendered whole).
func settledCut(src string, from int) int {
	cut := from
	var fenceCh byte
	fenceN := 0
	blank := false  // the previous line was blank
	inList := false // the current block so far is (or ends in) a list
	for i := from; i < len(src); {
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			// A partial last line: it may start a block after a blank
			// line, if it has begun with something that decides.
			if blank && fenceCh == 0 && startsBlock(src[i:], inList) {
				cut = i
			}
			break
		}
		line := src[i : i+j]
		if blank && fenceCh == 0 && startsBlock(line, inList) && strings.TrimSpace(src[from:i]) != "" {
			cut = i
			inList = false
		}
		t := strings.TrimLeft(line, " ")
		indent := len(line) - len(t)
		switch {
		case fenceCh != 0:
			if n := fenceRun(t); indent <= 3 && n >= fenceN && t[0] == fenceCh && strings.TrimSpace(t[n:]) == "" {
				fenceCh = 0
			}
		case indent <= 3 && fenceRun(t) >= 3 && (t[0] == '`' || t[0] == '~'):
			fenceCh, fenceN = t[0], fenceRun(t)
		}
		if strings.TrimSpace(line) == "" {
			blank = true
		} else {
			blank = false
			if listItem(line) {
				inList = true
			}
		}
		i += j + 1
	}
	return cut
}

// fenceRun counts the fence characters t starts with.
func fenceRun(t string) int {
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	return n
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
