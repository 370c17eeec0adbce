package markdown

import (
	"strconv"
	"strings"
)

// cacheKey builds the key of a render kept for its inputs (tableKey,
// refsKey): numbers, and strings each after its length, so that no two
// different inputs make the same key.
type cacheKey struct{ b strings.Builder }

// num adds n.
func (k *cacheKey) num(n int) {
	k.b.WriteString(strconv.Itoa(n))
	k.b.WriteByte(',')
}

// str adds s, after its length.
func (k *cacheKey) str(s string) {
	k.num(len(s))
	k.b.WriteString(s)
}

// bytes adds p, after its length.
func (k *cacheKey) bytes(p []byte) {
	k.num(len(p))
	k.b.Write(p)
}

func (k *cacheKey) String() string { return k.b.String() }
