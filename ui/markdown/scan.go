package markdown

import "strings"

// lineKind is what the scanner remembers about the previous line.
type lineKind int

const (
	lineStart   lineKind = iota // no line yet (start of the message)
	lineBlank                   // empty or whitespace only
	lineDef                     // a reference definition the scanner collected
	lineHeading                 // a heading or thematic break: a one-line block
	lineFence                   // a fence opener, closer or code line
	lineText                    // anything else
)

func (k lineKind) String() string {
	switch k {
	case lineStart:
		return "start"
	case lineBlank:
		return "blank"
	case lineDef:
		return "def"
	case lineHeading:
		return "heading"
	case lineFence:
		return "fence"
	case lineText:
		return "text"
	}
	return "unknown"
}

// scanner walks complete lines once and proposes cut candidates: offsets
// where the settled prefix of a message might end. It is cheap and
// conservative; every candidate is checked by a real parse (structure.go)
// before anything is cut, so a wrong guess here costs time, never output.
//
// Invariants:
//   - pos only grows and always sits at the start of a line.
//   - While fence is open, no candidate is proposed and no definition is
//     collected: the lines are code.
//   - cands is increasing; every entry is the start of a non-blank line.
type scanner struct {
	pos       int      // start of the first line not scanned yet
	prev      lineKind // kind of the line before pos
	blankRun  bool     // one or more blank lines end just before pos
	fence     fence    // the open fence with indent 0-3, if any
	htmlEnd   string   // what ends the open HTML block that spans blank lines, if any
	fenceAt   int      // start of the open (or last closed) fence's opener line
	closedAt  int      // start of the last closing fence line
	closedEnd int      // end of the last closing fence line, after its newline
	lastCand  int      // the latest candidate (or the last cut)
	lastList  int      // start of the latest list item line, -1 if none
	topMarker [2]byte  // bullet and delimiter of the latest item indented 0-3
	cands     []int    // proposed cuts not yet settled or discarded
	newCands  bool     // cands grew since the last structure check
	defsFound []defAt  // definitions collected since the caller last took them
}

// defAt is a collected reference definition.
type defAt struct {
	label string // normalised label
	line  string // the definition line, without newline
}

// fence describes a fenced code block opener.
type fence struct {
	ch byte // '`' or '~'; 0 when no fence is open
	n  int  // length of the opening run
}

func newScanner() scanner { return scanner{lastList: -1} }

// scan consumes the complete lines of src from s.pos on. segStart is the
// start of the unsettled segment; cuts are only proposed after it.
func (s *scanner) scan(src string, segStart int) {
	for {
		end := strings.IndexByte(src[s.pos:], '\n')
		if end < 0 {
			return
		}
		off := s.pos
		line := src[off : off+end]
		s.line(line, off, segStart)
		s.pos = off + end + 1
	}
}

// line handles one complete line starting at off.
func (s *scanner) line(line string, off, segStart int) {
	if s.fence.ch != 0 {
		if isCloser(line, s.fence) {
			s.fence = fence{}
			s.closedAt, s.closedEnd = off, off+len(line)+1
		}
		s.prev, s.blankRun = lineFence, false
		return
	}
	if s.htmlEnd != "" {
		// Inside a comment, <script>, <pre> or the like: no definitions,
		// no cuts (goldmark would confirm none anyway) until its end.
		if strings.Contains(strings.ToLower(line), s.htmlEnd) {
			s.htmlEnd = ""
		}
		s.prev, s.blankRun = lineText, false
		return
	}
	if isBlank(line) {
		s.prev, s.blankRun = lineBlank, true
		return
	}
	if off > segStart && off > s.lastCand {
		switch {
		case s.blankRun:
			if hold, _ := s.holdAfterBlank(line, true); !hold {
				s.propose(off)
			}
		case s.prev == lineHeading:
			s.propose(off) // a heading or thematic break ends on its own line
		case line[0] == '`' || line[0] == '~':
			if _, ok := fenceOpener(line); ok {
				s.propose(off) // a fence at column 0 ends a paragraph, list or quote
			}
		case s.lastList < s.lastCand:
			if _, _, _, ok := listMarker(line); ok {
				s.propose(off) // a list interrupting a paragraph
			}
		}
	}
	if cols, i := leadingSpaces(line); cols <= 3 {
		if b, d, _, ok := listMarker(line[i:]); ok {
			s.lastList, s.topMarker = off, [2]byte{b, d}
		}
	} else if isListItem(line) {
		s.lastList = off
	}
	kind := lineText
	if s.defContext() {
		if label, ok := parseDef(line); ok {
			s.defsFound = append(s.defsFound, defAt{label, line})
			kind = lineDef
		}
	}
	if f, ok := fenceOpener(line); ok {
		s.fence, s.fenceAt, kind = f, off, lineFence
	} else if end := htmlBlockEnd(line); end != "" {
		s.htmlEnd, kind = end, lineText
	} else if kind == lineText && closesBlock(line, s.prev) {
		kind = lineHeading
	}
	s.prev, s.blankRun = kind, false
}

// defContext reports whether a definition may start on the next line: not
// inside a paragraph, whose continuation it would be.
func (s *scanner) defContext() bool {
	switch s.prev {
	case lineStart, lineBlank, lineDef, lineHeading, lineFence:
		return true
	}
	return false
}

// propose records a cut candidate at off.
func (s *scanner) propose(off int) {
	s.cands = append(s.cands, off)
	s.lastCand = off
	s.newCands = true
}

// holdAfterBlank decides whether line, the first after a blank run, may
// continue the block before the blank: an indented line or a list item right
// after a list, or a definition-list description. decided is false while a
// partial line is too short to tell.
func (s *scanner) holdAfterBlank(line string, complete bool) (hold, decided bool) {
	rest := strings.TrimLeft(line, " \t")
	if rest == "" {
		return false, false // still blank so far
	}
	cols, _ := leadingSpaces(line)
	marker, decided := itemMarker(rest, complete)
	if !decided {
		return false, false
	}
	afterList := s.lastList >= s.lastCand && s.lastList >= 0
	if marker && cols <= 3 {
		// A marker of another type starts a new list.
		if b, d, _, ok := listMarker(rest); ok && [2]byte{b, d} != s.topMarker {
			return false, true
		}
	}
	return afterList && (cols > 0 || marker), true
}

// pendingCut returns the candidate that the partial last line (starting at
// off) would make, if it already decides one.
func (s *scanner) pendingCut(partial string, off, segStart int) (int, bool) {
	if s.fence.ch != 0 || off <= segStart || off <= s.lastCand {
		return 0, false
	}
	if s.prev == lineHeading && !isBlank(partial) {
		return off, true
	}
	if !s.blankRun {
		return 0, false
	}
	hold, decided := s.holdAfterBlank(partial, false)
	if !decided || hold {
		return 0, false
	}
	return off, true
}

// dropCands forgets candidates at or before cut.
func (s *scanner) dropCands(cut int) {
	i := 0
	for i < len(s.cands) && s.cands[i] <= cut {
		i++
	}
	s.cands = append(s.cands[:0], s.cands[i:]...)
	if cut > s.lastCand {
		s.lastCand = cut
	}
}

// htmlBlockEnd returns, when line opens an HTML block that blank lines do
// not end (CommonMark's kinds 1 to 5: <script>, <pre>, <style>,
// <textarea>, a comment, a processing instruction, a declaration, CDATA)
// and does not close it on the same line, the text that will close it;
// otherwise "".
func htmlBlockEnd(line string) string {
	cols, i := leadingSpaces(line)
	if cols > 3 || i >= len(line) || line[i] != '<' {
		return ""
	}
	rest := line[i:]
	var end string
	switch low := strings.ToLower(rest); {
	case strings.HasPrefix(rest, "<!--"):
		end, rest = "-->", rest[4:]
	case strings.HasPrefix(rest, "<?"):
		end, rest = "?>", rest[2:]
	case strings.HasPrefix(rest, "<![CDATA["):
		end, rest = "]]>", rest[9:]
	case len(rest) > 2 && rest[1] == '!' && (rest[2]|0x20) >= 'a' && (rest[2]|0x20) <= 'z':
		end, rest = ">", rest[2:]
	default:
		for _, tag := range []string{"script", "pre", "style", "textarea"} {
			if strings.HasPrefix(low[1:], tag) {
				after := low[1+len(tag):]
				if after == "" || after[0] == ' ' || after[0] == '\t' || after[0] == '>' {
					if strings.Contains(low, "</"+tag+">") {
						return ""
					}
					return "</" + tag + ">"
				}
			}
		}
		return ""
	}
	if strings.Contains(rest, end) {
		return ""
	}
	return end
}
