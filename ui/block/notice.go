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
// deadline or until the retry is settled or retried again; a settled retry
// shows its outcome and no countdown; gen changes with every Again and
// Settle (part of the render key).
type notice struct {
	kind     NoticeKind
	text     string
	deadline time.Time
	counting bool
	settled  bool
	outcome  string // how the retry went, once settled
	gen      int
	out      cache
	renders  int // renders, for tests
}

// Retrier is a retry notice, one line for all the retries of one request:
// Again shows the next retry in its place (the one before failed too), and
// Settle replaces the countdown with how the retries went ("the retry
// worked", "failed").
type Retrier interface {
	Again(text string, at time.Time)
	Settle(outcome string)
}

var _ Retrier = (*notice)(nil)

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

// Again turns a retry notice into the next retry's: text, counting down
// to at.
func (n *notice) Again(text string, at time.Time) {
	if n.kind != Retry {
		return
	}
	n.text, n.deadline, n.counting = cleanLine(text), at, !at.IsZero()
	n.settled, n.outcome = false, ""
	n.gen++
}

// Settle ends a retry notice's countdown with its outcome.
func (n *notice) Settle(outcome string) {
	if n.kind != Retry {
		return
	}
	n.counting, n.settled, n.outcome = false, true, cleanLine(outcome)
	n.gen++
}

func (n *notice) Render(ctx Context) string {
	line, secs := n.line(ctx.Now)
	key := renderKey{ctx.Width, ctx.Styles, n.gen<<16 | secs}
	if out, ok := n.out.get(key); ok {
		return out
	}
	n.renders++
	lk := ctx.look()
	width := max(ctx.Width, 1)
	rows := wrap(noticeGlyphs[n.kind]+" "+line, width)
	return n.out.put(key, strings.Join(paint(lk.notice(n.kind).Render, rows), "\n"))
}

// line is the notice's text at now, and the seconds its countdown shows
// (0 when it shows none): while a retry counts down, "· retrying in Ns";
// at its deadline, "· retrying now…"; settled, its outcome.
func (n *notice) line(now time.Time) (string, int) {
	switch {
	case n.settled && n.outcome != "":
		return n.text + " · " + n.outcome, 0
	case n.settled:
		return n.text, 0
	case n.counting:
		if left := n.deadline.Sub(now); left > 0 {
			secs := min(int(math.Ceil(left.Seconds())), 1<<15)
			return n.text + " · retrying in " + strconv.Itoa(secs) + "s", secs
		}
		n.counting = false
	}
	if !n.deadline.IsZero() {
		return n.text + " · retrying now…", 0
	}
	return n.text, 0
}
