package markdown

// lineJob is one unwrapped paragraph render that View has put off until
// the end of the frame (paraLines's pieces and what to do with the lines).
type lineJob struct {
	labels []string // reference labels the pieces may use
	pieces []string
	done   func(lines []string, err error)
}

// lineBatch holds the unwrapped paragraph renders of one View, so the
// paragraph that settles and the paragraph in the tail go to glamour in one
// call (a call costs about as much as the text of a short paragraph).
//
// Invariant: empty between Views; every job's done runs exactly once, in
// flush, before View assembles its output.
type lineBatch struct {
	jobs []lineJob
}

// add puts off a paraLines render of pieces until flush.
func (lb *lineBatch) add(labels, pieces []string, done func([]string, error)) {
	lb.jobs = append(lb.jobs, lineJob{labels: labels, pieces: pieces, done: done})
}

// flushLines renders every job put off in this View in one glamour call
// and hands each its lines. A job whose lines do not come out of the shared
// call is rendered again on its own.
func (s *Stream) flushLines() {
	jobs := s.lines.jobs
	s.lines.jobs = nil
	if len(jobs) == 0 {
		return
	}
	if len(jobs) == 1 {
		j := jobs[0]
		j.done(s.r.paraLines(s.defs.prefix(j.labels), j.pieces...))
		return
	}
	var labels, parts []string
	joined := make([]bool, len(jobs))
	counts := make([]int, len(jobs))
	for k, j := range jobs {
		labels = append(labels, j.labels...)
		p, jn := joinPieces(j.pieces)
		parts = append(parts, p...)
		joined[k], counts[k] = jn, len(p)
	}
	frags, err := s.r.parts(&s.r.unwrapped, 0, s.defs.prefix(sortedUnique(labels)), parts)
	at := 0
	for k, j := range jobs {
		var lines []string
		lerr := err
		if err == nil {
			lines, lerr = s.r.fragLines(frags[at:at+counts[k]], joined[k])
			at += counts[k]
		}
		if lerr != nil {
			lines, lerr = s.r.paraLines(s.defs.prefix(j.labels), j.pieces...)
		}
		j.done(lines, lerr)
	}
}

// partJob is one wrapped render of a part that View has put off to its
// next renderBlocks call, which renders it with the stale blocks and the
// tail. done gets the part's fragment.
//
// Invariant: Stream.parts is empty between Views.
type partJob struct {
	labels []string
	part   string
	done   func(frag string, err error)
}
