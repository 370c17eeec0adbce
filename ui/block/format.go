package block

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// prettyJSON indents s if it is one complete JSON object or array; ok is
// false otherwise (still streaming, or not JSON). While arguments stream they
// are not valid JSON, so validity is also the sign that they are complete.
func prettyJSON(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') || !json.Valid([]byte(t)) {
		return s, false
	}
	var b bytes.Buffer
	if json.Indent(&b, []byte(t), "", "  ") != nil {
		return s, false
	}
	return b.String(), true
}

// kb formats a byte count as "812 B", "14 KB", "2.3 MB".
func kb(n int) string {
	switch {
	case n < 1024:
		return strconv.Itoa(n) + " B"
	case n < 1024*1024:
		return strconv.Itoa(n/1024) + " KB"
	}
	return strconv.FormatFloat(float64(n)/(1024*1024), 'f', 1, 64) + " MB"
}
