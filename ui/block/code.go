package block

import "strings"

// codeBody draws a code interpreter call: the code, highlighted as it
// streams, then its logs and images.
//
// The code is rendered as a fenced Python block through a markdown.Stream,
// whose open-fence fast path highlights each completed line once and keeps
// it; only the partial last line is re-rendered per update.
func codeBody(p *panel, d *drawer) {
	raw, skipped := tailWithin(p.it.Code, maxCodeText) // a huge one is drawn from its end
	if code := strings.TrimRight(clean(raw), "\n"); code != "" {
		src := "```python\n" + code
		if p.state() != stateRunning {
			src += "\n```\n"
		}
		p.code.set(src)
		r := d.ctx.markdown(d.width)
		d.add(section{lines: splitLines(p.code.view(r, nil, d.width)), tail: true, note: d.skipped(skipped)})
	}
	for _, o := range p.it.Details().Outputs {
		switch o.Type {
		case "logs":
			d.text("logs", o.Logs, false)
		case "image":
			d.line(d.lk.muted.Render("image ") + urlSummary(o.URL))
		default:
			if t := cleanLine(o.Type); t != "" {
				d.line(d.lk.muted.Render(t))
			}
		}
	}
}

// maxCodeText is the most code a panel draws: highlighting costs more than
// wrapping, so its window is smaller than maxPanelText.
const maxCodeText = 16 << 10

// urlSummary shows a URL on one line; a data: URL (often megabytes of
// base64) becomes its media type and size.
func urlSummary(u string) string {
	if rest, ok := strings.CutPrefix(u, "data:"); ok {
		media, _, _ := strings.Cut(rest, ",")
		media, _, _ = strings.Cut(media, ";")
		return "data:" + cleanLine(media) + " (" + kb(len(u)) + ")"
	}
	return cleanLine(u)
}
