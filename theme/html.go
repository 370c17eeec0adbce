package theme

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

// HTMLPage is the look of an HTML export (session/export.HTML): a style
// sheet for the page, written into the page's own <style> element, and the
// chroma style its code blocks are highlighted with (as inline styles).
// The sheet styles the classes the export writes: panel (a collapsible
// tool, MCP or reasoning panel), you (a prompt), note (a status note).
type HTMLPage struct {
	CSS  string
	Code *chroma.Style
}

// HTML returns the page look built from palette p. A page is read in a
// browser, whose background is its own: a palette without colours
// (NO_COLOR) gives the light one's, since NO_COLOR is about the terminal.
func HTML(p Palette) HTMLPage {
	if p.NoColor || len(p.hex) == 0 {
		p = Light()
	}
	bg, code := "#FFFFFF", "github"
	if p.Dark {
		bg, code = "#1E1E1E", "github-dark"
	}
	h := func(token string) string { return ansiHex(p.hex[token]) } // a theme file's ANSI numbers as CSS
	r := strings.NewReplacer(
		"$bg", bg, "$fg", h("fg"), "$muted", h("muted"), "$subtle", h("subtle"),
		"$accent", h("accent"), "$user", h("user"), "$reasoning", h("reasoning"),
		"$tool", h("tool"), "$warning", h("warning"), "$border", h("border"),
		"$link", h("link"), "$codebg", h("codebg"),
	)
	return HTMLPage{CSS: r.Replace(htmlSheet), Code: chromastyles.Get(code)}
}

const htmlSheet = `body{margin:0;background:$bg;color:$fg;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:52rem;margin:0 auto;padding:1rem 1.5rem 4rem}
h1,h2{color:$accent}
h3{color:$muted;font-size:1rem;text-transform:uppercase;letter-spacing:.05em}
hr{border:0;border-top:1px solid $border;margin:2rem 0}
a{color:$link}
blockquote{margin:0;padding:.25rem 1rem;border-left:3px solid $user;color:$fg}
code{background:$codebg;border-radius:3px;padding:0 .2em;font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{overflow-x:auto;padding:.75rem;border-radius:6px;border:1px solid $border}
pre code{background:none;padding:0}
table{border-collapse:collapse}
th,td{border:1px solid $border;padding:.25rem .5rem}
details.panel{border:1px solid $border;border-left:3px solid $tool;border-radius:4px;margin:.75rem 0;padding:.25rem .75rem}
details.panel.reasoning{border-left-color:$reasoning}
details.panel>summary{cursor:pointer;color:$muted}
.note{color:$warning}
.raw{color:$subtle}
`
