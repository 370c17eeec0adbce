package markdown

import "fmt"

// renderPath names the part of View that asked glamour for a render, for
// the byte accounting the benchmarks report.
type renderPath int

const (
	pathSettle renderPath = iota // composing a block as it settles
	pathBlocks                   // settled blocks rendered on their own
	pathTail                     // the tail rendered whole (with any stale blocks)
	pathCode                     // code fence fast path
	pathList                     // list fast path
	pathPara                     // paragraph fast path
	pathCount
)

var pathNames = [pathCount]string{"settle", "blocks", "tail", "code", "list", "para"}

func (p renderPath) String() string {
	if p < 0 || p >= pathCount {
		return fmt.Sprintf("path(%d)", int(p))
	}
	return pathNames[p]
}

// renderStats counts glamour calls and the source bytes they were given,
// per render path, over the life of a Stream. The counts come from the
// Renderer's counters, so a Finish render running at the same time on
// another goroutine is counted too; they are diagnostics, not a contract.
type renderStats struct {
	calls, bytes [pathCount]int64
}

// counter is a snapshot of the Renderer's counters.
type counter struct{ calls, bytes int64 }

func (r *Renderer) counter() counter {
	return counter{r.renders.Load(), r.rendered.Load()}
}

// note adds the renders since c to path p and returns a new snapshot.
func (s *Stream) note(p renderPath, c counter) counter {
	now := s.r.counter()
	s.stats.calls[p] += now.calls - c.calls
	s.stats.bytes[p] += now.bytes - c.bytes
	return now
}

// renderedBytes returns the source bytes given to glamour by View so far,
// in total and per path.
func (s *Stream) renderedBytes() (total int64, per [pathCount]int64) {
	for _, n := range s.stats.bytes {
		total += n
	}
	return total, s.stats.bytes
}
