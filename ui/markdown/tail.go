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
// It also says which path rendered it.
func (s *Stream) renderTail(src string) (string, renderPath) {
	if out, ok := s.code.render(s, src); ok {
		return out, pathCode
	}
	tail := src[s.segStart:]
	if s.partialDef(src) {
		tail = tail[:len(tail)-(len(src)-s.sc.pos)]
	}
	if out, ok := s.list.render(s, src, tail); ok {
		return out, pathList
	}
	if out, ok := s.para.render(s, tail); ok {
		return out, pathPara
	}
	labels := labelsIn(tail)
	key := s.defs.prefix(labels)
	trimmed := trimBlankLines(tail)
	if s.tail.ok && s.tail.src == trimmed && s.tail.defsKey == key {
		return s.tail.out, pathTail
	}
	out, _ := s.renderBlocks(src, &tail)
	s.tail = tailCache{src: trimmed, defsKey: key, out: out, ok: true}
	return out, pathTail
}
