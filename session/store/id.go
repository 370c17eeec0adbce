package store

import (
	"math/rand/v2"
	"strings"
	"time"
)

// SessionID names a session: 7 base32 characters of seconds since
// 2025-01-01 UTC then 3 random ones, e.g. "0k3m9xq4ab". IDs sort by creation
// time (to the second), and a few leading characters usually pick one out.
type SessionID string

// TurnID names a turn in one database.
type TurnID int64

const (
	idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz" // Crockford base32, lower case
	idEpoch    = 1735689600                         // 2025-01-01T00:00:00Z
	idTimeLen  = 7                                  // 2^35 s, about 1,000 years
	idRandLen  = 3
	idLen      = idTimeLen + idRandLen
)

// newSessionID returns an id for a session created at now.
func newSessionID(now time.Time) SessionID {
	secs := max(now.Unix()-idEpoch, 0)
	var b [idLen]byte
	for i := idTimeLen - 1; i >= 0; i-- {
		b[i] = idAlphabet[secs&31]
		secs >>= 5
	}
	r := rand.Uint32()
	for i := idTimeLen; i < idLen; i++ {
		b[i] = idAlphabet[r&31]
		r >>= 5
	}
	return SessionID(b[:])
}

// validID reports whether s has the shape of a SessionID.
func validID(s string) bool {
	if len(s) != idLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(idAlphabet, s[i]) < 0 {
			return false
		}
	}
	return true
}
