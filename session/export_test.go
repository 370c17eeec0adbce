package session

// Sync waits until every write asked of the journal so far has landed, so a
// test can read the store between writes without sleeping.
func (j *Journal) Sync() {
	done := make(chan struct{})
	j.enqueue(func() { close(done) })
	<-done
}

// Compacting reports whether a compacted window waits for the next request.
func (c *Conversation) Compacting() bool { return c.window != nil }
