package pace

// What the pacer has scheduled, for the UI's status and its tests.

// Scheduled reports whether a frame tick is scheduled and not yet obeyed.
func (p *Pacer) Scheduled() bool { return p.scheduled }

// Seq is the Seq of the frame tick scheduled and not yet obeyed, 0 when
// none is.
func (p *Pacer) Seq() int {
	if p.scheduled {
		return p.seq
	}
	return 0
}

// Fast reports whether the tick scheduled comes within FrameInterval.
func (p *Pacer) Fast() bool { return p.scheduled && p.fast }

// WaitTicking reports whether the approval's wait tick is scheduled.
func (p *Pacer) WaitTicking() bool { return p.waitTicking }

// Asked reports whether the turn's next batch is asked for and not come.
func (p *Pacer) Asked() bool { return p.asked }

// Last is the Seq of the frame tick scheduled last, obeyed or not (0
// before any): a tick with it is the one the pacer obeys.
func (p *Pacer) Last() int { return p.seq }
