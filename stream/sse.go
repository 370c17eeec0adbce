package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxEventSize is the largest SSE event (the sum of its lines) a
// Scanner accepts unless told otherwise.
const DefaultMaxEventSize = 32 << 20

// ErrEventTooLarge marks an event that exceeded the Scanner's limit. The event
// is skipped and scanning goes on with the next one.
var ErrEventTooLarge = errors.New("event too large")

// Frame is one dispatched server-sent event.
type Frame struct {
	Name   string // the event: field, "" if none
	Data   []byte // data: lines joined with "\n"; valid until the next Scan
	ID     string // the last event id seen so far (sticky, as in EventSource)
	Retry  int    // the last retry: value in ms, 0 if none
	Num    int    // 1-based number of this event in the stream
	Offset int64  // byte offset of the event's first line
	Err    error  // non-nil when the event was skipped (ErrEventTooLarge)
}

// Scanner splits a byte stream into server-sent events following the WHATWG
// EventSource parsing rules: LF, CRLF and CR line endings, a leading BOM,
// comments, the event/data/id/retry fields with or without a space after the
// colon, several data lines joined with "\n", and the last event dispatched at
// EOF even without a trailing blank line.
//
// It is shaped like bufio.Scanner: Scan advances, Frame reads, Err holds the
// sticky first read error.
//
// Invariants:
//   - buf[start:end] holds bytes read but not yet consumed; pos is the stream
//     offset of buf[start].
//   - data is only appended to while the current event is within max bytes;
//     once it overflows, skipping is set and the event's lines are discarded
//     until the blank line that ends it.
type Scanner struct {
	r     io.Reader
	buf   []byte
	start int
	end   int
	pos   int64 // stream offset of buf[start]
	eof   bool
	err   error // sticky read error (never io.EOF)
	max   int

	bomChecked bool
	// current event
	name     []byte
	data     []byte
	hasData  bool
	size     int   // bytes of field lines in the current event
	evStart  int64 // offset of the current event's first line, -1 if none
	skipping bool  // current event overflowed
	lastID   string
	retry    int
	num      int
	frame    Frame
}

// NewScanner returns a Scanner reading from r with DefaultMaxEventSize.
func NewScanner(r io.Reader) *Scanner {
	return &Scanner{r: r, buf: make([]byte, 64<<10), max: DefaultMaxEventSize, evStart: -1}
}

// Frame returns the event found by the last successful Scan.
func (s *Scanner) Frame() *Frame { return &s.frame }

// Err returns the first non-EOF read error.
func (s *Scanner) Err() error { return s.err }

// Scan advances to the next event. It returns false at the end of input or on
// a read error (see Err). An oversized event is returned with Frame().Err set.
func (s *Scanner) Scan() bool {
	for {
		line, lineStart, ok := s.readLine()
		if !ok {
			// EOF or error: dispatch what is pending.
			if s.evStart >= 0 {
				return s.dispatch()
			}
			return false
		}
		if len(line) == 0 {
			if s.evStart >= 0 {
				if s.dispatch() {
					return true
				}
			}
			continue
		}
		if s.evStart < 0 {
			s.evStart = lineStart
		}
		s.size += len(line) + 1
		if s.skipping {
			continue
		}
		if s.size > s.max {
			s.skipping = true
			s.data = s.data[:0]
			continue
		}
		s.field(line)
	}
}

// dispatch finishes the current event; it reports whether there is one to
// hand out (events with no data are dropped, as EventSource does).
func (s *Scanner) dispatch() bool {
	f := &s.frame
	*f = Frame{ID: s.lastID, Retry: s.retry, Offset: s.evStart}
	switch {
	case s.skipping:
		f.Err = fmt.Errorf("%w: more than %d bytes", ErrEventTooLarge, s.max)
	case !s.hasData:
		s.reset()
		return false
	default:
		f.Name = string(s.name)
		f.Data = s.data
	}
	s.num++
	f.Num = s.num
	s.reset()
	return true
}

func (s *Scanner) reset() {
	s.name = s.name[:0]
	s.data = s.data[:0]
	s.hasData = false
	s.size = 0
	s.evStart = -1
	s.skipping = false
}

func (s *Scanner) field(line []byte) {
	if line[0] == ':' {
		return // comment
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "data":
		if s.hasData {
			s.data = append(s.data, '\n')
		}
		s.data = append(s.data, value...)
		s.hasData = true
	case "event":
		s.name = append(s.name[:0], value...)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			s.lastID = string(value)
		}
	case "retry":
		if n, ok := atoiDigits(value); ok {
			s.retry = n
		}
	}
}

func atoiDigits(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// readLine returns the next line without its terminator, and the offset at
// which it starts. The slice is valid until the next call. Lines longer than
// the event limit are consumed but returned truncated to max+1 bytes, which is
// enough for the caller to see the overflow.
func (s *Scanner) readLine() (line []byte, at int64, ok bool) {
	at = s.pos
	var long []byte // used when a line outgrows the buffer
	overflow := false
	for {
		win := s.buf[s.start:s.end]
		if !s.bomChecked && (len(win) >= 3 || s.eof) {
			s.bomChecked = true
			if bytes.HasPrefix(win, []byte("\xef\xbb\xbf")) {
				s.consume(3)
				at = s.pos
				continue
			}
		}
		if s.bomChecked {
			if i := bytes.IndexByte(win, '\n'); i >= 0 {
				if j := bytes.IndexByte(win[:i], '\r'); j >= 0 {
					return s.take(long, overflow, j, 1), at, true
				}
				return s.take(long, overflow, i, 1), at, true
			}
			if j := bytes.IndexByte(win, '\r'); j >= 0 && (j < len(win)-1 || s.eof) {
				return s.take(long, overflow, j, 1), at, true
			}
			if s.eof {
				if len(win) == 0 && long == nil {
					return nil, at, false
				}
				return s.take(long, overflow, len(win), 0), at, true
			}
		}
		// Need more data. Keep a trailing '\r' in the buffer so that a
		// following '\n' can be paired with it.
		keep := 0
		if len(win) > 0 && win[len(win)-1] == '\r' {
			keep = 1
		}
		if s.bomChecked && len(win)-keep > 0 && s.end == len(s.buf) && s.start == 0 {
			// The buffer is full of one line: move it aside.
			n := len(win) - keep
			if !overflow {
				long = append(long, win[:n]...)
				if len(long) > s.max {
					long = long[:s.max+1]
					overflow = true
				}
			}
			s.consume(n)
		}
		s.fill()
	}
}

// take consumes n bytes of line plus sep bytes of terminator (2 for CRLF).
func (s *Scanner) take(long []byte, overflow bool, n, sep int) []byte {
	win := s.buf[s.start:s.end]
	line := win[:n]
	if sep == 1 && n < len(win) && win[n] == '\r' && n+1 < len(win) && win[n+1] == '\n' {
		sep = 2
	}
	s.consume(n + sep)
	if long != nil {
		if !overflow {
			long = append(long, line...)
		}
		return long
	}
	return line
}

func (s *Scanner) consume(n int) {
	s.start += n
	s.pos += int64(n)
}

// fill reads more input, compacting the buffer first. It reports whether any
// bytes were added; it sets eof or err when the reader is exhausted.
func (s *Scanner) fill() bool {
	if s.eof {
		return false
	}
	if s.start > 0 {
		copy(s.buf, s.buf[s.start:s.end])
		s.end -= s.start
		s.start = 0
	}
	if s.end == len(s.buf) {
		nb := make([]byte, 2*len(s.buf))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	for tries := 0; tries < 100; tries++ {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	s.eof = true
	s.err = io.ErrNoProgress
	return false
}
