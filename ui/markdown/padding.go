package markdown

import (
	"strings"
	"unicode/utf8"
)

// sgrReset ends every trimmed row that used SGR, so no colour leaks into the
// next row or into whatever the caller draws after the message.
const sgrReset = "\x1b[m"

// trimPadding removes glamour's right padding from every row of out.
//
// Glamour pads each row to the wrap width, often with one SGR-wrapped space
// per column, which makes its output about 35 times the input. A row keeps
// everything up to its last visible cell; after that only the spaces that
// show nothing (no background, inverse, underline or strike) and the SGR
// sequences go. Other escape sequences (OSC 8
// hyperlink ends) are kept, and a reset is added if any SGR was seen. Rows
// with no visible cell become "". The visible text of each row is unchanged
// apart from trailing spaces.
func trimPadding(out string) string {
	var b strings.Builder
	b.Grow(len(out) / 4)
	for i := 0; ; {
		j := strings.IndexByte(out[i:], '\n')
		if j < 0 {
			trimRow(&b, out[i:])
			return b.String()
		}
		trimRow(&b, out[i:i+j])
		b.WriteByte('\n')
		i += j + 1
	}
}

// trimRow writes row to b without its padding (see trimPadding).
func trimRow(b *strings.Builder, row string) {
	keep := 0       // end of the last visible cell
	var paint uint8 // attributes that make a space visible
	for i := 0; i < len(row); {
		c := row[i]
		if c == 0x1b {
			n, isSGR := escLen(row[i:])
			if isSGR {
				paint = sgrPaint(row[i+2:i+n-1], paint)
			}
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(row[i:])
		i += size
		if c != ' ' || paint != 0 {
			keep = i
		}
	}
	if keep == 0 {
		return
	}
	head := row[:keep]
	b.WriteString(head)
	sgrSeen := strings.Contains(head, "\x1b[")
	// Keep non-SGR escapes after the last cell (hyperlink ends).
	for i := keep; i < len(row); {
		if row[i] != 0x1b {
			i++
			continue
		}
		n, isSGR := escLen(row[i:])
		if isSGR {
			sgrSeen = true
		} else {
			b.WriteString(row[i : i+n])
		}
		i += n
	}
	if sgrSeen && !strings.HasSuffix(head, sgrReset) && !strings.HasSuffix(head, "\x1b[0m") {
		b.WriteString(sgrReset)
	}
}

// escLen returns the length of the escape sequence at the start of s (which
// begins with ESC) and whether it is an SGR sequence (CSI ... m). A truncated
// sequence runs to the end of s.
func escLen[T string | []byte](s T) (n int, sgr bool) {
	if len(s) < 2 {
		return len(s), false
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if c := s[i]; c >= 0x40 && c <= 0x7e {
				return i + 1, c == 'm'
			}
		}
		return len(s), false
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: end at BEL or ST
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1, false
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2, false
			}
		}
		return len(s), false
	}
	return 2, false
}

// Paint attributes that make a space visible.
const (
	paintBG uint8 = 1 << iota
	paintInverse
	paintUnderline
	paintStrike
)

// sgrPaint returns the paint attributes active after the SGR parameters
// params, given those active before them. Foreground colours and bold or
// italic do not make a space visible, so they are skipped.
func sgrPaint(params string, paint uint8) uint8 {
	if params == "" {
		return 0
	}
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		if i := strings.IndexByte(p, ':'); i >= 0 { // 4:3 curly underline etc.
			if p[:i] == "4" {
				if p[i+1:] == "0" {
					paint &^= paintUnderline
				} else {
					paint |= paintUnderline
				}
			}
			continue
		}
		switch p {
		case "", "0":
			paint = 0
		case "4", "21":
			paint |= paintUnderline
		case "24":
			paint &^= paintUnderline
		case "7":
			paint |= paintInverse
		case "27":
			paint &^= paintInverse
		case "9":
			paint |= paintStrike
		case "29":
			paint &^= paintStrike
		case "49":
			paint &^= paintBG
		case "38", "48", "58":
			if p == "48" {
				paint |= paintBG
			}
			// Skip the colour arguments: 5;n or 2;r;g;b.
			var mode string
			mode, params, _ = strings.Cut(params, ";")
			skip := 1
			if mode == "2" {
				skip = 3
			}
			for ; skip > 0 && params != ""; skip-- {
				_, params, _ = strings.Cut(params, ";")
			}
		default:
			if len(p) == 2 && p[0] == '4' && p[1] >= '0' && p[1] <= '7' ||
				len(p) == 3 && p[:2] == "10" && p[2] >= '0' && p[2] <= '7' {
				paint |= paintBG
			}
		}
	}
	return paint
}
