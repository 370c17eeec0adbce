package markdown

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
)

// MinWidth is the narrowest wrap width a Renderer accepts; smaller widths
// are raised to it.
const MinWidth = 20

// probe is a paragraph rendered in front of every block so the block is never
// the first in its document: glamour starts a first paragraph or heading
// without the blank row it puts before later ones. Its row marks where the
// block's rows begin.
const probe = "runnelprobe"

// Renderer renders markdown with one glamour style at one wrap width. It is
// safe for concurrent use: glamour renderers are pooled, the rest is
// read-only after NewRenderer. Make a new Renderer when the width or style
// changes.
//
// Output contract (Render and Stream.View alike): glamour's rows with the
// right padding removed (trailing plain spaces go, the visible text stays),
// without leading or trailing blank rows and without a final newline, so a
// message sits flush in the transcript.
//
// Invariants, checked by calibrate:
//   - a render of "\n"+probe+"\n\n"+block is: rows up to the probe's row,
//     the block's fragment, then docSuffix.
//   - a block's fragment does not change with definitions in front of it or
//     with trailing newlines.
type Renderer struct {
	style ansi.StyleConfig
	width int
	pool  sync.Pool // *glamour.TermRenderer

	docSuffix string // what glamour writes after the last block's fragment
}

// NewRenderer makes a Renderer for style at the given wrap width. It renders
// a few probes to learn glamour's framing, and fails if the style frames
// blocks in a way the block cache cannot reproduce.
func NewRenderer(style ansi.StyleConfig, width int) (*Renderer, error) {
	width = max(width, MinWidth)
	style, err := withOwnChromaStyle(style)
	if err != nil {
		return nil, fmt.Errorf("markdown renderer: %w", err)
	}
	r := &Renderer{style: style, width: width}
	if _, err := r.newTermRenderer(); err != nil {
		return nil, fmt.Errorf("markdown renderer: %w", err)
	}
	if err := r.calibrate(); err != nil {
		return nil, fmt.Errorf("markdown renderer: %w", err)
	}
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

func (r *Renderer) newTermRenderer() (*glamour.TermRenderer, error) {
	return glamour.NewTermRenderer(
		glamour.WithStyles(r.style),
		glamour.WithWordWrap(r.width),
		// terminal16m is deterministic; terminal256 breaks colour ties
		// in map order, so re-renders would differ (render study §2.7).
		glamour.WithChromaFormatter("terminal16m"),
	)
}

// glamour renders src and trims the padding. A panic inside glamour becomes
// an error: model output must never crash the UI.
func (r *Renderer) glamour(src string) (out string, err error) {
	tr, _ := r.pool.Get().(*glamour.TermRenderer)
	if tr == nil {
		if tr, err = r.newTermRenderer(); err != nil {
			return "", fmt.Errorf("markdown renderer: %w", err)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			out, err = "", fmt.Errorf("render markdown: glamour panicked: %v", p)
			return // a renderer that panicked is not reused
		}
		r.pool.Put(tr)
	}()
	raw, err := tr.Render(src)
	if err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	return trimPadding(raw), nil
}

// block renders one block in non-first position with the definitions defs
// (each line ending in "\n") in front, and returns its fragment: the bytes
// it adds to a document's output. A document renders as its prefix, the
// fragments of its top-level blocks concatenated, and docSuffix; fragments
// usually start with "\n" (the blank row between blocks) and end with one,
// but an HTML block's does not end with one, so they are joined as bytes,
// not as rows.
func (r *Renderer) block(defs, src string) (string, error) {
	var b strings.Builder
	b.Grow(len(defs) + len(probe) + 3 + len(src))
	b.WriteString(defs)
	b.WriteString("\n" + probe + "\n\n")
	b.WriteString(src)
	out, err := r.glamour(b.String())
	if err != nil {
		return "", err
	}
	return r.fragment(out)
}

// fragment cuts the block's bytes out of a probe render: after the probe's
// row, before the document suffix.
func (r *Renderer) fragment(out string) (string, error) {
	p := strings.Index(out, probe)
	if p < 0 {
		return "", errors.New("render markdown: probe row missing from glamour output")
	}
	nl := strings.IndexByte(out[p:], '\n')
	if nl < 0 || !strings.HasSuffix(out, r.docSuffix) || p+nl+1 > len(out)-len(r.docSuffix) {
		return "", errors.New("render markdown: unexpected framing in glamour output")
	}
	return out[p+nl+1 : len(out)-len(r.docSuffix)], nil
}

// calibrate learns the document suffix and checks that a block's fragment
// does not depend on definitions in front of it or on trailing newlines.
func (r *Renderer) calibrate() error {
	out, err := r.glamour("\n" + probe + "\n\nrunnelpara")
	if err != nil {
		return err
	}
	at := strings.Index(out, "runnelpara")
	if at < 0 || strings.Index(out, probe) > at {
		return errors.New("calibrate: paragraph row not found")
	}
	nl := strings.IndexByte(out[at:], '\n')
	if nl < 0 {
		return errors.New("calibrate: paragraph row not terminated")
	}
	r.docSuffix = out[at+nl+1:]
	want, err := r.block("", "runnelpara")
	if err != nil {
		return err
	}
	for _, c := range [][2]string{{"[d]: /d\n", "runnelpara"}, {"", "runnelpara\n\n"}} {
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
