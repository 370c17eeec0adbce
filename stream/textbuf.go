package stream

import (
	"strings"
	"unsafe"
)

// grow appends d to *dst in amortised O(len(d)). *b is the backing store that
// *dst was last built from; when *dst was replaced by other means (a .done
// value), a new store is started from it. Strings handed out earlier stay
// valid: a strings.Builder never rewrites bytes it has written.
func grow(dst *string, b **strings.Builder, d string) {
	if d == "" {
		return
	}
	if *b == nil || (*b).Len() != len(*dst) || unsafe.StringData((*b).String()) != unsafe.StringData(*dst) {
		nb := &strings.Builder{}
		nb.Grow(len(*dst) + len(d) + 64)
		nb.WriteString(*dst)
		*b = nb
	}
	(*b).WriteString(d)
	*dst = (*b).String()
}
