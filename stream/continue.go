package stream

// Continue makes the accumulator go on from responses accumulated before
// (loaded from the store after runnel was killed mid-stream): events apply
// to the last of them as if its stream had never stopped. That response is
// no longer cut off, and its items that had not finished are in progress
// again. Use it on a new accumulator, before the first Apply, with the
// events after the sequence number the snapshots hold (Reattach).
func (a *Accumulator) Continue(snaps []*Snapshot) {
	a.responses = append([]*Snapshot(nil), snaps...)
	s := a.Current()
	if s == nil {
		return
	}
	s.CutOff, s.Terminal, s.started = false, false, true
	s.Status = "in_progress"
	for _, it := range s.Items {
		if !it.Done {
			it.Status = "in_progress"
		}
	}
	s.recountAll()
}
