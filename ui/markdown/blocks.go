package markdown

import "strings"

// block is a settled part of a message: one or more whole top-level
// markdown blocks, rendered once.
type block struct {
	start, end int      // byte range in the message
	labels     []string // reference labels the block may use, sorted
	defsKey    string   // definitions prefixed when out was rendered
	out        string   // fragment (see Renderer)
	ok         bool     // out is current for the Stream's renderer and defs
	pending    bool     // a render of it is put off to the end of the View (lineBatch)
}

// blocks is the settled part of a message and the concatenation of its
// fragments.
//
// Invariants:
//   - list is in message order, without gaps.
//   - joinedOut is the concatenation of list[:through] fragments, all ok.
//   - an entry before through that stops being ok resets through to 0.
type blocks struct {
	list      []block
	joinedOut strings.Builder
	through   int
}

// add appends a settled block (rendered or not).
func (bs *blocks) add(b block) { bs.list = append(bs.list, b) }

// invalidateAll marks every block for rendering again (new renderer).
func (bs *blocks) invalidateAll() {
	for i := range bs.list {
		bs.list[i].ok = false
	}
	bs.through = 0
}

// defsChanged marks the blocks whose definitions changed with labels.
func (bs *blocks) defsChanged(labels []string, defs *refDefs) {
	for i := range bs.list {
		b := &bs.list[i]
		if b.ok && usesAny(b.labels, labels) && defs.prefix(b.labels) != b.defsKey {
			b.ok = false
			if i < bs.through {
				bs.through = 0
			}
		}
	}
}

// stale returns the indices of blocks that need rendering.
func (bs *blocks) stale() []int {
	var out []int
	for i := range bs.list {
		if !bs.list[i].ok && !bs.list[i].pending {
			out = append(out, i)
		}
	}
	return out
}

// joined returns the concatenated fragments of all blocks; every block
// must be ok.
func (bs *blocks) joined() string {
	if bs.through == 0 {
		bs.joinedOut.Reset()
	}
	for ; bs.through < len(bs.list); bs.through++ {
		bs.joinedOut.WriteString(bs.list[bs.through].out)
	}
	return bs.joinedOut.String()
}

// renderBlocks renders every stale block and every put-off part
// (Stream.parts) in one glamour call, with extra (a tail source) as a last
// part when given, and returns extra's fragment.
func (s *Stream) renderBlocks(src string, extra *string) (string, bool) {
	idx := s.blocks.stale()
	jobs := s.parts
	s.parts = nil
	if len(idx) == 0 && len(jobs) == 0 && extra == nil {
		return "", false
	}
	parts := make([]string, 0, len(idx)+len(jobs)+1)
	var labels []string
	for _, i := range idx {
		b := &s.blocks.list[i]
		parts = append(parts, src[b.start:b.end])
		labels = append(labels, b.labels...)
	}
	for _, j := range jobs {
		parts = append(parts, j.part)
		labels = append(labels, j.labels...)
	}
	if extra != nil {
		parts = append(parts, *extra)
		labels = append(labels, labelsIn(*extra)...)
	}
	frags, err := s.r.blocks(s.defs.prefix(sortedUnique(labels)), parts...)
	for k, j := range jobs {
		if err != nil {
			j.done("", err)
		} else {
			j.done(frags[len(idx)+k], nil)
		}
	}
	if err != nil {
		s.noteErr(err)
		frags = make([]string, len(parts))
		for k, p := range parts {
			frags[k] = plainFragment(p)
		}
	}
	for k, i := range idx {
		b := &s.blocks.list[i]
		b.out, b.ok = frags[k], true
		b.defsKey = s.defs.prefix(b.labels)
	}
	if extra == nil {
		return "", false
	}
	return frags[len(frags)-1], true
}
