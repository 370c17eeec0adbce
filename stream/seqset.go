package stream

// seqSet remembers which sequence numbers a response has delivered, so that a
// repeated event is recognised. Small non-negative numbers (the normal case)
// live in a bitset; anything else in a map.
type seqSet struct {
	bits  []uint64
	other map[int64]struct{}
}

const seqBitsLimit = 1 << 22

// add records n and reports whether it was new.
func (s *seqSet) add(n int64) bool {
	if n >= 0 && n < seqBitsLimit {
		w, b := int(n>>6), uint(n&63)
		if w >= len(s.bits) {
			nb := make([]uint64, max(w+1, 2*len(s.bits)))
			copy(nb, s.bits)
			s.bits = nb
		}
		if s.bits[w]&(1<<b) != 0 {
			return false
		}
		s.bits[w] |= 1 << b
		return true
	}
	if s.other == nil {
		s.other = map[int64]struct{}{}
	}
	if _, ok := s.other[n]; ok {
		return false
	}
	s.other[n] = struct{}{}
	return true
}

func (s *seqSet) has(n int64) bool {
	if n >= 0 && n < seqBitsLimit {
		w, b := int(n>>6), uint(n&63)
		return w < len(s.bits) && s.bits[w]&(1<<b) != 0
	}
	_, ok := s.other[n]
	return ok
}
