package prompts

import (
	"strings"

	"runnel/session/attach"
)

// inputMark stands for the text typed after /NAME (or -p's prompt).
const inputMark = "{{input}}"

// Expand fills the template in with input and returns the message text and
// the paths its @mentions name, for the caller to attach (session/attach,
// relative to the working directory). A template without {{input}} gets a
// non-empty input after a blank line.
func (p Prompt) Expand(input string) (text string, files []string) {
	input = strings.TrimSpace(input)
	switch {
	case strings.Contains(p.Template, inputMark):
		text = strings.TrimSpace(strings.ReplaceAll(p.Template, inputMark, input))
	case input != "":
		text = p.Template + "\n\n" + input
	default:
		text = p.Template
	}
	for _, m := range attach.Mentions(text) {
		files = append(files, m.Path)
	}
	return text, files
}
