package stream

// Held returns the bytes of text the response holds, as counted against the
// accumulator's Limit.
func (s *Snapshot) Held() int { return s.held }

// Flush returns the text still held: the end of the text came, and it was
// not a secret.
func (g *TextGuard) Flush() string {
	s := g.held
	g.held = ""
	return s
}

// SetMaxEventSize sets the largest event accepted; call before the first Scan.
func (s *Scanner) SetMaxEventSize(n int) { s.max = n }
