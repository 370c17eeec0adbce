package prompts

import (
	"path/filepath"
	"strings"

	"runnel/session/attach"
)

// inputMark stands for the text typed after /NAME (or -p's prompt).
const inputMark = "{{input}}"

// Expand fills the template in with input and returns the message text and
// the paths the template's own @mentions name, for the caller to attach
// (session/attach, relative to the working directory). A template without
// {{input}} gets a non-empty input after a blank line.
//
// The input is text, never expanded, for a project's prompt and the
// user's own alike: an @path in it attaches nothing (the input may be a
// mail or a web page piped in, naming ~/.ssh/id_rsa), and a {{…}} in it
// stays as written (the template is filled in one pass).
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
	for _, m := range attach.Mentions(p.Template) {
		files = append(files, m.Path)
	}
	return text, files
}

// Outside is the first file a project prompt's own template attaches from
// outside its project (the directory holding .runnel/prompts), after
// links, or "" when there is none. A project's prompts come with the
// working tree, and allowing them must not let them send, say,
// ~/.ssh/id_rsa to the model: the caller refuses such a prompt. Files the
// user types in the input are the user's, and are not checked; nor are
// the user's own prompts (from the config directory).
func (p Prompt) Outside() string {
	if !p.Project {
		return ""
	}
	root := inside(filepath.Dir(filepath.Dir(filepath.Dir(p.Path))))
	for _, m := range attach.Mentions(p.Template) {
		path := m.Path
		if strings.HasPrefix(path, "~") {
			return path // a home directory is never the project
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		if rel, err := filepath.Rel(root, inside(path)); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return m.Path
		}
	}
	return ""
}

// inside is path made absolute with its links followed, as far as they
// exist.
func inside(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// OutsideLine says why a project prompt is refused: it attaches path
// (Outside).
func OutsideLine(p Prompt, path string) string {
	return "the project prompt " + p.Path + " attaches " + path + ", outside its project; a project's prompts may attach only the project's files, so it was not sent"
}
