package markdown

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/yuin/goldmark/parser"
)

// This file colours a Draft's code off the Stream's goroutine: the
// settled blocks Draft left uncoloured are rendered again from copies of
// their source (Colouring.Run, on any goroutine), and the Stream takes
// the renders back on its own (SetColoured) when nothing changed
// meanwhile. View then has only the tail left to render, where it
// would otherwise render every drafted block again itself: a fast
// answer's end no longer waits behind its colours.

// Colouring is the work of colouring the settled blocks of a Stream that
// Draft left uncoloured, with the Stream's renderer.
//
// Invariants: idx, spans and srcs are the drafted blocks, where they
// are in the source and their source as Colour found them (n bytes of
// source, renderer r); outs is written only by Run, and read only after
// done is set.
type Colouring struct {
	r     *Renderer
	n     int
	idx   []int
	spans [][2]int
	srcs  []string
	refs  []parser.Reference
	outs  []string
	once  sync.Once
	done  atomic.Bool
}

// Colour returns the work that colours the settled blocks Draft left
// uncoloured, to Run on any goroutine and hand back with SetColoured; nil
// when none waits for colour.
func (s *Stream) Colour() *Colouring {
	if !s.drafty {
		return nil
	}
	src := s.src.String()
	c := &Colouring{r: s.r, n: len(src)}
	for i, b := range s.blocks {
		if b.draft {
			c.idx = append(c.idx, i)
			c.spans = append(c.spans, [2]int{b.start, b.end})
			c.srcs = append(c.srcs, src[b.start:b.end])
		}
	}
	if len(c.idx) == 0 {
		return nil
	}
	c.refs = append(s.settledRefs(), s.defs.tail...)
	return c
}

// Run renders the blocks as View would, once: a call while another runs
// waits for it. It reads only what Colour copied and the Renderer (safe
// for concurrent use). A block that fails to render leaves the whole work
// undone: View then renders them itself, and says so as it always does.
func (c *Colouring) Run() { c.once.Do(c.run) }

func (c *Colouring) run() {
	defer c.done.Store(true)
	defer func() {
		if recover() != nil {
			c.outs = nil
		}
	}()
	outs := make([]string, len(c.srcs))
	for i, src := range c.srcs {
		doc, b, _ := c.r.parse(src, c.refs)
		outs[i] = c.r.document(doc, b) // never an open fence: a block followed it
		// on one processor (GOMAXPROCS=1) the UI, the renderer and the
		// reader wait for this goroutine to be preempted (up to 10 ms each
		// time one wakes): it steps aside after every block instead
		runtime.Gosched()
	}
	c.outs = outs
}

// Done reports whether Run has finished.
func (c *Colouring) Done() bool { return c.done.Load() }

// SetColoured takes c's renders for the blocks it coloured when Run has
// finished and the Stream is as Colour found it (the same source and
// renderer, the blocks where they were and still uncoloured; blocks
// settled since from the same source are left to View, and the
// definitions they hold were given to Run already, from the tail), and
// reports whether it did. The next View renders only what is left.
func (s *Stream) SetColoured(c *Colouring) bool {
	if c == nil || !c.Done() || c.outs == nil || c.r != s.r || c.n != s.src.Len() {
		return false
	}
	for k, i := range c.idx {
		if i >= len(s.blocks) || !s.blocks[i].draft || s.blocks[i].start != c.spans[k][0] || s.blocks[i].end != c.spans[k][1] {
			return false
		}
	}
	for k, i := range c.idx {
		s.blocks[i].out, s.blocks[i].draft = c.outs[k], false
	}
	s.head.Reset()
	for _, b := range s.blocks {
		s.addHead(b.out)
	}
	s.viewOK = false
	return true
}
