package block

import "time"

// minThought is the shortest reasoning time worth a line: "Thought for
// 0.0s" says nothing.
const minThought = time.Second

// Thinking is the one line that a turn's reasoning with nothing to show
// draws, in place of a header each: "⠋ Thinking 3.2s" while one of them
// runs, then "Thought for 14.2s", the sum of their durations; nothing while
// that sum is under a second. Reasoning that has a summary or raw text
// draws its own header (reasoning.go) and is not counted here.
//
// Invariants: members are reasoning blocks, each joined once, in the order
// they joined.
type Thinking struct {
	members []*reasoning
}

var _ Block = (*Thinking)(nil)

// NewThinking returns an empty line for one turn's reasoning.
func NewThinking() *Thinking { return &Thinking{} }

// Join counts b's time on this line while b has nothing to show. A block
// that is not reasoning, or joined already, is ignored.
func (t *Thinking) Join(b Block) {
	r, ok := b.(*reasoning)
	if !ok {
		return
	}
	for _, m := range t.members {
		if m == r {
			return
		}
	}
	t.members = append(t.members, r)
}

// Live reports whether one of the reasoning items counted here runs.
func (t *Thinking) Live() bool {
	for _, r := range t.members {
		if r.Hidden() && r.running() {
			return true
		}
	}
	return false
}

// spent sums the time of the members with nothing to show at now, and
// returns when the first of them that runs started (zero if none runs).
func (t *Thinking) spent(now time.Time) (d time.Duration, running time.Time) {
	for _, r := range t.members {
		if !r.Hidden() {
			continue
		}
		d += r.clock.elapsed(now)
		if r.running() && running.IsZero() {
			running = r.clock.start
		}
	}
	return d, running
}

// Render draws the line, or nothing. It is cheap and not cached: the
// transcript keeps its rows until the entry is invalidated.
func (t *Thinking) Render(ctx Context) string {
	d, running := t.spent(ctx.Now)
	lk := ctx.look()
	switch {
	case !running.IsZero():
		line := lk.reasonHeader.Render(spinner(running, ctx.Now) + " Thinking")
		if d > 0 {
			line += lk.muted.Render(" " + duration(d))
		}
		return fit(line, max(ctx.Width, 1))
	case d >= minThought:
		return fit(lk.reasonHeader.Render("Thought")+lk.muted.Render(" for "+duration(d)), max(ctx.Width, 1))
	}
	return ""
}
