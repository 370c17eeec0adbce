package block

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/theme"
)

// fixture returns the bytes of fixtures/real/<name>.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	return sharedtest.ReadReal(t, name)
}

// allFixtures lists every real fixture by its name under fixtures/real.
func allFixtures(t testing.TB) []string {
	t.Helper()
	root := sharedtest.RealDir(t)
	files := sharedtest.RealFiles(t)
	var out []string
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		out = append(out, rel)
	}
	return out
}

// epoch is the fake clock's start; each event advances it by tick.
var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

const tick = 50 * time.Millisecond

// testStyles is one fixed look for every test.
var testStyles = newTestStyles()

func newTestStyles() *theme.Styles {
	st := theme.New(theme.Dark())
	return &st
}

// testRenderers are the markdown renderers every test context shares, as
// the chat shares one set: a Context without them makes a renderer per
// Render, and a message then renders its whole text again every frame
// (TestLongMessageDrawsItsLastPages took 40 s so). A test that checks the
// renderers' notes makes a set of its own.
var testRenderers = NewRenderers()

// testCtx is a Context in testStyles at width and now, on testRenderers.
func testCtx(width int, now time.Time) Context {
	return Context{Width: width, Styles: testStyles, Now: now, Markdown: testRenderers}
}

// replayer drives blocks from a stream the way the transcript does: one
// block per item, Update after every event that changed it (every item after
// a terminal event), End when the stream is over.
type replayer struct {
	t      testing.TB
	acc    stream.Accumulator
	dec    *stream.Decoder
	now    time.Time
	step   time.Duration // how far the clock moves per event
	blocks map[*stream.Item]ItemBlock
	order  []ItemBlock
	events int
	// touched holds the blocks made, updated or ended since the last
	// settle: what a frame would draw anew beside the live ones.
	touched map[ItemBlock]bool
}

func newReplayer(t testing.TB, data []byte) *replayer {
	return &replayer{
		t: t, dec: stream.NewDecoder(strings.NewReader(string(data))),
		now: epoch, step: tick, blocks: map[*stream.Item]ItemBlock{},
		touched: map[ItemBlock]bool{},
	}
}

// next applies one event; false at the end of the stream.
func (r *replayer) next() bool {
	if !r.dec.Next() {
		if err := r.dec.Err(); err != nil {
			r.t.Logf("decoder: %v", err)
		}
		r.acc.Finish()
		for _, s := range r.acc.Responses() {
			r.sync(s, true)
		}
		return false
	}
	ev := r.dec.Event()
	r.now = r.now.Add(r.step)
	r.events++
	it, _ := r.acc.Apply(ev)
	s := r.acc.Current()
	if s == nil {
		return true
	}
	if it != nil {
		b := r.block(it)
		b.Update(r.now)
		r.touched[b] = true
	}
	if ev.Kind.IsTerminal() {
		r.sync(s, true)
	} else {
		r.sync(s, false)
	}
	return true
}

// sync makes sure every item of s has a block; all says to update them all
// and end them (the response is over).
func (r *replayer) sync(s *stream.Snapshot, all bool) {
	for _, it := range s.Items {
		_, seen := r.blocks[it]
		b := r.block(it)
		if all {
			if seen {
				b.Update(r.now)
			}
			if s.Terminal || s.CutOff {
				b.End(r.now)
			}
			r.touched[b] = true
		}
	}
}

func (r *replayer) block(it *stream.Item) ItemBlock {
	b, ok := r.blocks[it]
	if !ok {
		b = ForItem(it, r.now)
		r.blocks[it] = b
		r.order = append(r.order, b)
		r.touched[b] = true
	}
	return b
}

// changed returns the blocks a frame now would draw anew, in order: the
// live ones and those touched since the last call. A settled block nothing
// touched renders as it did (Block.Render's cache holds it).
func (r *replayer) changed() []ItemBlock {
	var out []ItemBlock
	for _, b := range r.order {
		if b.Live() || r.touched[b] {
			out = append(out, b)
		}
	}
	clear(r.touched)
	return out
}

func (r *replayer) run() *replayer {
	for r.next() {
	}
	return r
}

func (r *replayer) ctx(width int) Context {
	return testCtx(width, r.now)
}

// byType returns the blocks whose item has the type.
func (r *replayer) byType(typ string) []ItemBlock {
	var out []ItemBlock
	for _, b := range r.order {
		if b.Item().Type == typ {
			out = append(out, b)
		}
	}
	return out
}

// checkFits fails if a row of out is wider than width.
func checkFits(t testing.TB, where string, out string, width int) {
	t.Helper()
	for i, row := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(row); w > width {
			t.Errorf("%s: row %d is %d columns wide, over %d: %q", where, i, w, width, ansi.Strip(row))
			return
		}
	}
}

// checkSafe fails if out holds any escape sequence other than SGR styling and
// OSC 8 hyperlinks, or any other control character.
func checkSafe(t testing.TB, where, out string) {
	t.Helper()
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c == 0x1b:
			j, ok := allowedSeq(out[i:])
			if !ok {
				t.Errorf("%s: forbidden escape sequence at %d: %q", where, i, out[i:min(len(out), i+24)])
				return
			}
			i += j - 1
		case c < 0x20 && c != '\n':
			t.Errorf("%s: control byte %#x at %d: %q", where, c, i, out[max(0, i-20):min(len(out), i+20)])
			return
		case c == 0xc2 && i+1 < len(out) && out[i+1] >= 0x80 && out[i+1] <= 0x9f:
			t.Errorf("%s: C1 control at %d", where, i)
			return
		case c == 0x7f:
			t.Errorf("%s: DEL at %d", where, i)
			return
		case c >= utf8.RuneSelf:
			r, _ := utf8.DecodeRuneInString(out[i:])
			if r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r) {
				t.Errorf("%s: format character %U at %d: %+q", where, r, i, out[max(0, i-20):min(len(out), i+20)])
				return
			}
		}
	}
}

// allowedSeq returns the length of the SGR or OSC 8 sequence s starts with.
func allowedSeq(s string) (int, bool) {
	if strings.HasPrefix(s, "\x1b[") {
		for j := 2; j < len(s); j++ {
			c := s[j]
			if (c >= '0' && c <= '9') || c == ';' || c == ':' {
				continue
			}
			return j + 1, c == 'm'
		}
		return 0, false
	}
	if strings.HasPrefix(s, "\x1b]8;") {
		for j := 4; j < len(s); j++ {
			switch c := s[j]; {
			case c == 0x07:
				return j + 1, true
			case c == 0x1b:
				return j + 2, j+1 < len(s) && s[j+1] == '\\'
			case c < 0x20:
				return 0, false
			}
		}
	}
	return 0, false
}

// visible returns out without styling, each row's trailing spaces dropped.
func visible(out string) string {
	rows := strings.Split(ansi.Strip(out), "\n")
	for i, r := range rows {
		rows[i] = strings.TrimRight(r, " ")
	}
	return strings.Join(rows, "\n")
}
