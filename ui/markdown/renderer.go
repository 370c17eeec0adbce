package markdown

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
)

// MinWidth is the narrowest wrap width a Renderer accepts; smaller widths
// are raised to it.
const MinWidth = 20

// Sources glamour renders around the caller's blocks. An HTML comment
// renders nothing but makes the first block not the first in its document
// (glamour starts a first paragraph or heading without the blank row it
// puts before later ones); unlike a paragraph or a definition, it cannot
// become the term of a definition list that starts with ": ". The mark
// paragraph, followed by a comment for the same reason, separates the parts
// of a multi-part render; its fragment is learnt at calibration and cut out.
// The own pipeline (pipeline.go) renders notFirst without the HTML
// sanitizer and separates parts with markComment, which it renders as the
// mark's text: no paragraph to wrap, so an extra part costs little.
const (
	notFirst    = "<!-- runnel -->\n\n"
	markPara    = "runnelmarkpara"
	markSep     = "\n\n" + markPara + "\n\n" + notFirst
	markComment = "\n\n<!--\n" + markPara + " -->\n\n"
	probe       = "runnelprobe"
)

// Renderer renders markdown with one glamour style at one wrap width. It is
// safe for concurrent use: glamour renderers are pooled, fence frames are
// behind a mutex, the rest is read-only after NewRenderer. Make a new
// Renderer when the width or style changes.
//
// Output contract (Render and Stream.View alike): glamour's rows with the
// right padding removed (trailing plain spaces go, the visible text stays),
// without leading or trailing blank rows and without a final newline, so a
// message sits flush in the transcript.
//
// A document renders as a prefix, the fragments of its top-level blocks
// concatenated, and a suffix. A fragment is the bytes a block adds; it
// usually starts with "\n" (the blank row between blocks) and ends with one,
// but an HTML block's does not end with one, so fragments are joined as
// bytes, not as rows.
//
// Invariants, checked by calibrate:
//   - a render of defs+notFirst+block is docPrefix, the block's fragment in
//     non-first position, then docSuffix, whatever the definitions.
//   - the mark paragraph's fragment is mark, and it separates parts without
//     changing them.
type Renderer struct {
	style     ansi.StyleConfig
	width     int
	pool      sync.Pool // *termRenderer at width
	unwrapped sync.Pool // *termRenderer that does not wrap (paragraph.go)
	own       bool      // render with the pipeline that skips notFirst's comment (pipeline.go)
	sep       string    // what separates parts: markComment with own, else markSep
	para      paraFrame // how a paragraph is framed, for the paragraph fast path
	items     itemFrame // how a list item is framed, for the list item fast path
	fences    fenceFrames

	docPrefix string // what glamour writes before the first fragment
	docSuffix string // what glamour writes after the last fragment
	mark      string // fragment of the mark paragraph

	// Counters of glamour calls and the source bytes they rendered, for
	// the benchmarks (bench_test.go); cheap enough to keep always on.
	renders, rendered atomic.Int64
}

// NewRenderer makes a Renderer for style at the given wrap width. It renders
// a few probes to learn glamour's framing, and fails if the style frames
// blocks in a way the block cache cannot reproduce.
func NewRenderer(style ansi.StyleConfig, width int) (*Renderer, error) {
	return newRenderer(style, width, true)
}

// newRenderer is NewRenderer; own false keeps glamour's own TermRenderer
// (for the test that compares the two pipelines).
func newRenderer(style ansi.StyleConfig, width int, own bool) (*Renderer, error) {
	width = max(width, MinWidth)
	style, err := withOwnChromaStyle(style)
	if err != nil {
		return nil, fmt.Errorf("markdown renderer: %w", err)
	}
	r := &Renderer{style: style, width: width}
	if _, err := r.newTermRenderer(width); err != nil {
		return nil, fmt.Errorf("markdown renderer: %w", err)
	}
	r.own = own && r.ownPipelineAgrees()
	r.sep = markSep
	if r.own {
		r.sep = markComment
	}
	if err := r.calibrate(); err != nil {
		return nil, fmt.Errorf("markdown renderer: %w", err)
	}
	r.para = r.calibrateParagraphs()
	r.items = r.calibrateItems()
	return r, nil
}

// Width returns the wrap width.
func (r *Renderer) Width() int { return r.width }

// Render renders a whole document: the final render of a finished message.
// It costs about 0.7 ms per KB of markdown; run it off the UI goroutine.
func (r *Renderer) Render(src string) (string, error) {
	out, err := r.glamour(src)
	if err != nil {
		return "", err
	}
	return strings.Trim(out, "\n"), nil
}

// chromaFormatter is the formatter for code blocks: terminal16m is
// deterministic; terminal256 breaks colour ties in map order, so re-renders
// would differ (render study §2.7).
const chromaFormatter = "terminal16m"

func (r *Renderer) newTermRenderer(width int) (*termRenderer, error) {
	if r.own {
		return newOwnTermRenderer(ansi.Options{
			WordWrap:        width,
			Styles:          r.style,
			ChromaFormatter: chromaFormatter,
		}), nil
	}
	tr, err := glamour.NewTermRenderer(
		glamour.WithStyles(r.style),
		glamour.WithWordWrap(width),
		glamour.WithChromaFormatter(chromaFormatter),
	)
	if err != nil {
		return nil, err
	}
	return &termRenderer{tr: tr}, nil
}

// glamour renders src at the Renderer's width and trims the padding.
func (r *Renderer) glamour(src string) (string, error) {
	return r.glamourWith(&r.pool, r.width, src)
}

// glamourWith renders src with a pooled glamour renderer of the given width
// and trims the padding; width 0 means no wrapping, hence no padding, and
// the output is returned as glamour wrote it (trailing spaces there can be
// content). A panic inside glamour becomes an error: model output must never
// crash the UI.
func (r *Renderer) glamourWith(pool *sync.Pool, width int, src string) (out string, err error) {
	tr, _ := pool.Get().(*termRenderer)
	if tr == nil {
		if tr, err = r.newTermRenderer(width); err != nil {
			return "", fmt.Errorf("markdown renderer: %w", err)
		}
	}
	r.renders.Add(1)
	r.rendered.Add(int64(len(src)))
	chromaMu.RLock()
	defer chromaMu.RUnlock()
	defer func() {
		if p := recover(); p != nil {
			out, err = "", fmt.Errorf("render markdown: glamour panicked: %v", p)
			return // a renderer that panicked is not reused
		}
		pool.Put(tr)
	}()
	raw, err := tr.Render(src)
	if err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	if width == 0 {
		return raw, nil
	}
	return trimPadding(raw), nil
}

// block renders one block in non-first position with the definitions defs
// (each line ending in "\n") in front, and returns its fragment.
func (r *Renderer) block(defs, src string) (string, error) {
	frags, err := r.blocks(defs, src)
	if err != nil {
		return "", err
	}
	return frags[0], nil
}

// blocks renders parts, each one or more whole top-level blocks (the last
// may be unfinished), in one glamour call, and returns their fragments.
// defs must hold the definitions any part uses; a definition a part does not
// mention cannot change it.
func (r *Renderer) blocks(defs string, parts ...string) ([]string, error) {
	return r.parts(&r.pool, r.width, defs, parts)
}

// parts is blocks with a given renderer pool and width.
func (r *Renderer) parts(pool *sync.Pool, width int, defs string, parts []string) ([]string, error) {
	prefix, suffix, mark := r.docPrefix, r.docSuffix, r.mark
	if width == 0 {
		prefix, suffix, mark = r.para.docPrefix, r.para.docSuffix, r.para.mark
	}
	n := len(defs) + len(notFirst)
	for _, p := range parts {
		n += len(p) + len(r.sep)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(defs)
	b.WriteString(notFirst)
	for i, p := range parts {
		if i > 0 {
			b.WriteString(r.sep)
		}
		b.WriteString(p)
	}
	out, err := r.glamourWith(pool, width, b.String())
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(out, prefix) || !strings.HasSuffix(out, suffix) ||
		len(out) < len(prefix)+len(suffix) {
		return nil, errors.New("render markdown: unexpected framing in glamour output")
	}
	frag := out[len(prefix) : len(out)-len(suffix)]
	if len(parts) == 1 {
		return []string{frag}, nil
	}
	frags := strings.SplitN(frag, mark, len(parts))
	if len(frags) != len(parts) || strings.Contains(frags[len(frags)-1], mark) {
		// A part contains the mark text itself: render them one by one.
		frags = frags[:0]
		for _, p := range parts {
			f, err := r.parts(pool, width, defs, []string{p})
			if err != nil {
				return nil, err
			}
			frags = append(frags, f[0])
		}
	}
	return frags, nil
}

// calibrate learns the document prefix and suffix and the mark fragment,
// taking a probe paragraph's rows as the reference for non-first position,
// and checks that definitions and trailing newlines change nothing.
func (r *Renderer) calibrate() error {
	const para = "runnelpara"
	out, err := r.glamour("\n" + probe + "\n\n" + para)
	if err != nil {
		return err
	}
	at := strings.Index(out, para)
	p := strings.Index(out, probe)
	if at < 0 || p < 0 || p > at {
		return errors.New("calibrate: paragraph row not found")
	}
	nl := strings.IndexByte(out[at:], '\n')
	pnl := strings.IndexByte(out[p:], '\n')
	if nl < 0 || pnl < 0 {
		return errors.New("calibrate: rows not terminated")
	}
	want := out[p+pnl+1 : at+nl+1] // the paragraph's fragment
	r.docSuffix = out[at+nl+1:]

	out, err = r.glamour(notFirst + para)
	if err != nil {
		return err
	}
	if !strings.HasSuffix(out, want+r.docSuffix) {
		return fmt.Errorf("calibrate: unexpected framing %q", out)
	}
	r.docPrefix = out[:len(out)-len(want)-len(r.docSuffix)]

	out, err = r.glamour(notFirst + para + r.sep + para)
	if err != nil {
		return err
	}
	mid := strings.TrimSuffix(strings.TrimPrefix(out, r.docPrefix+want), want+r.docSuffix)
	if len(mid) == len(out) || !strings.Contains(mid, markPara) {
		return fmt.Errorf("calibrate: unexpected mark framing %q", out)
	}
	r.mark = mid

	for _, c := range [][2]string{{"[d]: /d\n", para}, {"", para + "\n\n"}} {
		got, err := r.block(c[0], c[1])
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("calibrate: fragment %q changed to %q", want, got)
		}
	}
	return nil
}

// plainFragment is the fallback for a block glamour failed on: its source
// lines, as a fragment.
func plainFragment(src string) string {
	src = strings.TrimRight(src, "\n")
	if src == "" {
		return ""
	}
	return "\n" + src + "\n"
}
