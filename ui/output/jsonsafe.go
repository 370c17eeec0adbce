package output

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// jsonSafeWriter escapes C1 control characters (U+0080–U+009F) in JSON text.
// encoding/json already escapes C0 controls, but it writes C1 characters as
// raw UTF-8, which some terminals obey as control codes. JSON structure is
// ASCII, so they can only occur inside strings, where \u00XX is equivalent.
type jsonSafeWriter struct{ w io.Writer }

func (j jsonSafeWriter) Write(p []byte) (int, error) {
	if !bytes.Contains(p, []byte{0xc2}) {
		return j.w.Write(p)
	}
	var b bytes.Buffer
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		if r >= 0x80 && r <= 0x9f && n == 2 {
			const hex = "0123456789abcdef"
			b.WriteString(`\u00`)
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&0xf])
		} else {
			b.Write(p[i : i+n])
		}
		i += n
	}
	if _, err := j.w.Write(b.Bytes()); err != nil {
		return 0, err
	}
	return len(p), nil
}
