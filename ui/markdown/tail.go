package markdown

// tailCache remembers the last tail render, to skip unchanged frames and to
// reuse it when the tail settles unchanged.
type tailCache struct {
	src     string // tail source without trailing blank lines
	defsKey string
	out     string
	ok      bool
}

// renderTail returns the fragment of the unsettled tail src[segStart:]: by
// the code fence, list or paragraph fast path, the cache, or a render
// together with any blocks waiting to be rendered.
func (s *Stream) renderTail(src string) string {
	if out, ok := s.code.render(s, src); ok {
		return out
	}
	tail := src[s.segStart:]
	if s.partialDef(src) {
		tail = tail[:len(tail)-(len(src)-s.sc.pos)]
	}
	if out, ok := s.list.render(s, src, tail); ok {
		return out
	}
	if out, ok := s.para.render(s, tail); ok {
		return out
	}
	labels := labelsIn(tail)
	key := s.defs.prefix(labels)
	trimmed := trimBlankLines(tail)
	if s.tail.ok && s.tail.src == trimmed && s.tail.defsKey == key {
		return s.tail.out
	}
	out, _ := s.renderBlocks(src, &tail)
	s.tail = tailCache{src: trimmed, defsKey: key, out: out, ok: true}
	return out
}
