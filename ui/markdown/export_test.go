package markdown

// Source returns the message so far.
func (s *Stream) Source() string { return s.src.String() }
