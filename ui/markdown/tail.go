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
// the code fence or list fast path, the cache, or a render together with
// any blocks waiting to be rendered. It also says which path rendered it.
// The paragraph fast path puts its render off (Stream.lines): View takes
// the fragment from the paraTail after flushLines.
func (s *Stream) renderTail(src string) (string, renderPath) {
	if out, ok := s.code.render(s, src); ok {
		return out, pathCode
	}
	tail := s.tailSource(src)
	if out, ok := s.list.render(s, src, tail); ok {
		return out, pathList
	}
	if s.para.render(s, tail) {
		return "", pathPara // the fragment comes with the frame's other renders
	}
	return s.renderWhole(src, tail)
}

// tailSource returns the tail source to show: src[segStart:] without a
// partial definition line.
func (s *Stream) tailSource(src string) string {
	tail := src[s.segStart:]
	if s.partialDef(src) {
		tail = tail[:len(tail)-(len(src)-s.sc.pos)]
	}
	return tail
}

// renderWhole returns the fragment of tail from the cache or a render
// together with any blocks waiting to be rendered.
func (s *Stream) renderWhole(src, tail string) (string, renderPath) {
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
