package knob

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// NewCacheKey is a fresh prompt_cache_key for one session: requests that
// share it are routed to the same prompt cache. It is random, so it says
// nothing of the user or the session's text.
func NewCacheKey() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "runnel-" + hex.EncodeToString(b[:])
}

// OwnCacheKey reports whether k is a key NewCacheKey made: a session's
// own, as opposed to one the config names.
func OwnCacheKey(k string) bool {
	h, ok := strings.CutPrefix(k, "runnel-")
	if !ok || len(h) != 16 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}
