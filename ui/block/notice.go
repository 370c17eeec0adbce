package block

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// NoticeKind picks a notice's glyph and style.
type NoticeKind uint8

const (
	Info    NoticeKind = iota // neutral information
	Warning                   // something went wrong but the answer stands: incomplete, cut off, stopped
	Error                     // failed responses, HTTP errors, broken streams
	Retry                     // a retry under way (NewRetry adds a countdown)
)

var noticeNames = [...]string{"info", "warning", "error", "retry"}

func (k NoticeKind) String() string {
	if int(k) < len(noticeNames) {
		return noticeNames[k]
	}
	return "notice?"
}

var noticeGlyphs = [...]string{"·", "!", "✗", "↻"}

// notice is a one-line transcript entry (wrapped if it does not fit).
//
// Invariants: text is cleaned to one line; deadline is zero except for
// retries; counting stays true until a Render at or after the deadline.
type notice struct {
	kind     NoticeKind
	text     string
	deadline time.Time
	counting bool
	out      cache
	renders  int // renders, for tests
}

var _ Block = (*notice)(nil)

// NewNotice returns a notice: an error (failed, incomplete, cut off, HTTP
// errors), a warning, a retry without a countdown, or information. The text
// may come from a server; it is cleaned to one line.
func NewNotice(kind NoticeKind, text string) Block {
	if int(kind) >= len(noticeNames) {
		kind = Info
	}
	return &notice{kind: kind, text: cleanLine(text)}
}

// NewRetry returns a retry notice that counts down to at, from ctx.Now.
func NewRetry(text string, at time.Time) Block {
	return &notice{kind: Retry, text: cleanLine(text), deadline: at, counting: !at.IsZero()}
}

func (n *notice) Live() bool { return n.counting }

func (n *notice) Render(ctx Context) string {
	line := n.text
	rev := 0
	if n.counting {
		left := n.deadline.Sub(ctx.Now)
		if left > 0 {
			secs := int(math.Ceil(left.Seconds()))
			line += " · retrying in " + strconv.Itoa(secs) + "s"
			rev = secs
		} else {
			n.counting = false
		}
	}
	if !n.deadline.IsZero() && !n.counting {
		line += " · retrying…"
		rev = -1
	}
	key := renderKey{ctx.Width, ctx.Styles, rev}
	if out, ok := n.out.get(key); ok {
		return out
	}
	n.renders++
	lk := lookOf(ctx.Styles)
	width := max(ctx.Width, 1)
	rows := wrap(noticeGlyphs[n.kind]+" "+line, width)
	return n.out.put(key, strings.Join(paint(lk.notice(n.kind).Render, rows), "\n"))
}
