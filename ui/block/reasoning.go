package block

import (
	"strings"
	"time"

	"runnel/stream"
)

// reasoning is the block of a reasoning item: one header line while
// collapsed (the default), and the summary parts rendered as markdown when
// expanded. Without a summary it shows the raw reasoning text (LM Studio,
// DeepSeek, OpenRouter send the chain of thought as reasoning_text); with
// neither it draws nothing (Hidden): a turn's Thinking line says how long
// such reasoning took.
//
// Invariants:
//   - rev changes on Update, End and SetExpanded.
//   - doc holds the cleaned body source as of the last Update.
//   - settled holds the whole output once the block is not live; body holds
//     the expanded body rows for body.key.
type reasoning struct {
	it       *stream.Item
	clock    timing
	ended    bool
	expanded bool
	rev      int

	doc     mdDoc
	fit     fitter
	body    cache
	settled cache
	renders int // body and settled renders, for tests
}

var (
	_ ItemBlock = (*reasoning)(nil)
	_ Expander  = (*reasoning)(nil)
	_ Titled    = (*reasoning)(nil)
	_ Hider     = (*reasoning)(nil)
)

func newReasoning(it *stream.Item) ItemBlock { return &reasoning{it: it} }

func (r *reasoning) Item() *stream.Item { return r.it }

func (r *reasoning) Update(now time.Time) {
	r.clock.observe(now, r.running())
	r.doc.set(r.source())
	r.rev++
}

func (r *reasoning) End(now time.Time) {
	r.ended = true
	r.clock.observe(now, false)
	r.rev++
}

func (r *reasoning) running() bool { return stateOf(r.it, r.ended) == stateRunning }

func (r *reasoning) Live() bool { return r.running() }

func (r *reasoning) SetExpanded(on bool) {
	if on != r.expanded {
		r.expanded = on
		r.rev++
	}
}

func (r *reasoning) Expanded() bool { return r.expanded }

// Title returns the bold **Title** of the newest summary part that has one
// (models open each part with one), cleaned; "" if none has.
func (r *reasoning) Title() string {
	for i := len(r.it.Summary) - 1; i >= 0; i-- {
		if t := boldTitle(r.it.Summary[i].Text); t != "" {
			return t
		}
	}
	return ""
}

// boldTitle returns the text of the first complete **…** in s.
func boldTitle(s string) string {
	i := strings.Index(s, "**")
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i+2:], "**")
	if j < 0 {
		return ""
	}
	return cleanLine(s[i+2 : i+2+j])
}

// source is the expanded body: the summary parts, else the raw reasoning
// text, as one markdown document.
func (r *reasoning) source() string {
	var parts []string
	for _, p := range r.it.Summary {
		if t := strings.TrimSpace(p.Text); t != "" {
			parts = append(parts, p.Text)
		}
	}
	if len(parts) == 0 {
		for _, p := range r.it.Content {
			if p.Type == "reasoning_text" || p.Type == "" {
				parts = append(parts, p.Text)
			}
		}
	}
	return clean(strings.Join(parts, "\n\n"))
}

// Hidden reports that the reasoning has nothing to show (no summary, no
// text; perhaps encrypted): it draws nothing, expanded or not.
func (r *reasoning) Hidden() bool { return r.doc.src == "" }

func (r *reasoning) Render(ctx Context) string {
	key := renderKey{ctx.Width, ctx.Styles, r.rev}
	live := r.Live()
	if !live {
		if out, ok := r.settled.get(key); ok {
			return out
		}
	}
	if r.Hidden() {
		return ""
	}
	lk := ctx.look()
	out := r.header(ctx, lk)
	if r.expanded {
		body, ok := r.body.get(key)
		if !ok {
			body = r.body.put(key, r.renderBody(ctx, lk))
		}
		if body != "" {
			out += "\n" + body
		}
	}
	if !live {
		r.renders++
		r.settled.put(key, out)
	}
	return out
}

// header is the one line: ▸ Thinking: Title (N parts) 3.2s.
func (r *reasoning) header(ctx Context, lk *look) string {
	arrow := "▸ "
	if r.expanded {
		arrow = "▾ "
	}
	label := "Thought"
	if r.running() {
		label = spinner(r.clock.start, ctx.Now) + " Thinking"
	}
	if t := r.Title(); t != "" {
		label += ": " + t
	}
	var extra []string
	if n := len(r.it.Summary); n > 0 {
		extra = append(extra, "("+plural(n, "part", "parts")+")")
	} else if r.doc.src != "" {
		extra = append(extra, "(raw)")
	}
	if d := r.clock.elapsed(ctx.Now); d > 0 {
		extra = append(extra, duration(d))
	}
	line := lk.reasonHeader.Render(arrow + label)
	if len(extra) > 0 {
		line += lk.muted.Render(" " + strings.Join(extra, " "))
	}
	return fit(line, max(ctx.Width, 1))
}

// renderBody renders the summary (or raw text) as markdown, indented under
// the header.
func (r *reasoning) renderBody(ctx Context, lk *look) string {
	r.renders++
	width := max(ctx.Width-2-lk.reasonBody.GetHorizontalFrameSize(), 1)
	md := ctx.markdown(width)
	rows := splitLines(r.fit.fit(r.doc.view(md, nil, width), width))
	for i, row := range rows {
		rows[i] = fit("  "+lk.reasonBody.Render(row), max(ctx.Width, 1))
	}
	return strings.Join(rows, "\n")
}
