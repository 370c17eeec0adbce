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
// Invariants: text and outcome are cleaned to one line; deadline is zero
// except for retries; counting stays true until a Render at or after the
// deadline or until the retry is settled; a settled retry shows its outcome
// and no countdown.
type notice struct {
	kind     NoticeKind
	text     string
	deadline time.Time
	counting bool
	outcome  string // how the retry went, once settled
	settled  int    // bumped by Settle: part of the render key
	out      cache
	renders  int // renders, for tests
}

// Settler is a retry notice: Settle replaces its countdown with how the
// retry went ("the retry worked", "the retry failed too").
type Settler interface {
	Settle(outcome string)
}

var _ Settler = (*notice)(nil)

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

// Settle ends a retry notice's countdown with its outcome.
func (n *notice) Settle(outcome string) {
	if n.kind != Retry {
		return
	}
	n.counting, n.outcome = false, cleanLine(outcome)
	n.settled++
}

func (n *notice) Render(ctx Context) string {
	line := n.text
	rev := 0
	switch {
	case n.settled > 0:
		if n.outcome != "" {
			line += " · " + n.outcome
		}
		rev = -1 - n.settled
	case n.counting:
		left := n.deadline.Sub(ctx.Now)
		if left > 0 {
			secs := int(math.Ceil(left.Seconds()))
			line += " · retrying in " + strconv.Itoa(secs) + "s"
			rev = secs
		} else {
			n.counting = false
		}
	}
	if !n.deadline.IsZero() && !n.counting && n.settled == 0 {
		line += " · retrying now…"
		rev = -1
	}
	key := renderKey{ctx.Width, ctx.Styles, rev}
	if out, ok := n.out.get(key); ok {
		return out
	}
	n.renders++
	lk := ctx.look()
	width := max(ctx.Width, 1)
	rows := wrap(noticeGlyphs[n.kind]+" "+line, width)
	return n.out.put(key, strings.Join(paint(lk.notice(n.kind).Render, rows), "\n"))
}
