package prompts

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"runnel/session/knob"
)

// Prompt is one prompt file, read.
type Prompt struct {
	Name         string   // the command: the file's name without .md, lower case
	Path         string   // the file it was read from
	Description  string   // one line: the description's first line, else the instructions'
	Instructions string   // replace the configured instructions for the turn ("": kept)
	Model        string   // the turn's model ("": the session's)
	Effort       string   // the turn's reasoning effort ("": the session's)
	Tools        []string // with LimitTools: the only tools on for the turn
	LimitTools   bool     // the file set tools (tools = [] turns them all off)
	Template     string   // the message: {{input}} and @path mentions
	Project      bool     // it came from a project directory
}

// front is the front matter's keys; go-toml refuses any other.
type front struct {
	Description  string    `toml:"description"`
	Instructions string    `toml:"instructions"`
	Model        string    `toml:"model"`
	Effort       string    `toml:"effort"`
	Tools        *[]string `toml:"tools"`
}

// delim opens and closes the front matter, on a line of its own.
const delim = "+++"

// Error is a problem with one prompt file: Path:Line: Msg.
type Error struct {
	Path string
	Line int // 1-based; 0 when the file as a whole is meant
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// ValidName reports whether name can be a slash command: letters, digits
// and '-', starting with a letter or digit.
func ValidName(name string) bool {
	if name == "" || name[0] == '-' {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// Parse reads the prompt file at path from its contents. Its name comes
// from the file's name; a file that cannot be a prompt is an *Error.
func Parse(path string, data []byte) (Prompt, error) {
	name := strings.ToLower(strings.TrimSuffix(filepath.Base(path), ".md"))
	p := Prompt{Name: name, Path: path}
	if !ValidName(name) {
		return p, &Error{Path: path, Msg: fmt.Sprintf("%q cannot be a command name: use letters, digits and '-' (e.g. code-review.md)", name)}
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	body := text
	bodyLine := 1
	if first, rest, _ := strings.Cut(text, "\n"); strings.TrimSpace(first) == delim {
		head, tail, ok := cutDelim(rest)
		if !ok {
			return p, &Error{Path: path, Line: 1, Msg: "the front matter opened with +++ is never closed: end it with a line of +++ before the template"}
		}
		var f front
		dec := toml.NewDecoder(bytes.NewReader([]byte(head)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return p, tomlError(path, err)
		}
		if f.Effort != "" && !slices.Contains(knob.ReasoningEfforts, f.Effort) {
			return p, &Error{Path: path, Line: 1 + keyLine(head, "effort"), Msg: fmt.Sprintf("effort %q: use one of %s", f.Effort, strings.Join(knob.ReasoningEfforts, ", "))}
		}
		p.Description, p.Instructions, p.Model, p.Effort = f.Description, strings.TrimSpace(f.Instructions), f.Model, f.Effort
		if f.Tools != nil {
			p.Tools, p.LimitTools = *f.Tools, true
		}
		body = tail
		bodyLine = 3 + strings.Count(head, "\n")
	}
	p.Template = strings.TrimSpace(body)
	if p.Template == "" && p.Instructions == "" {
		return p, &Error{Path: path, Line: bodyLine, Msg: "missing template: write the message after the front matter (with {{input}} where the arguments go), or set instructions"}
	}
	if p.Template == "" {
		p.Template = inputMark
	}
	p.Description = firstLine(p.Description)
	if p.Description == "" {
		p.Description = firstLine(p.Instructions)
	}
	if p.Description == "" {
		p.Description = firstLine(p.Template)
	}
	return p, nil
}

// Override is what the prompt changes for the turn it starts.
func (p Prompt) Override() *knob.Override {
	return &knob.Override{Name: p.Name, Instructions: p.Instructions, Model: p.Model, Effort: p.Effort, LimitTools: p.LimitTools, Tools: p.Tools}
}

// cutDelim splits rest at its first line that is +++.
func cutDelim(rest string) (head, tail string, ok bool) {
	off := 0
	for {
		line, after, more := strings.Cut(rest[off:], "\n")
		if strings.TrimSpace(line) == delim {
			return rest[:off], after, true
		}
		if !more {
			return "", "", false
		}
		off += len(line) + 1
	}
}

// tomlError places a go-toml error in the file: the front matter starts on
// its second line.
func tomlError(path string, err error) error {
	var de *toml.DecodeError
	var sm *toml.StrictMissingError
	switch {
	case errors.As(err, &sm) && len(sm.Errors) > 0:
		e := sm.Errors[0]
		row, _ := e.Position()
		return &Error{Path: path, Line: 1 + row, Msg: fmt.Sprintf("unknown key %q: use description, instructions, model, effort or tools", strings.Join(e.Key(), "."))}
	case errors.As(err, &de):
		row, _ := de.Position()
		return &Error{Path: path, Line: 1 + row, Msg: "bad TOML in the front matter: " + de.Error()}
	}
	return &Error{Path: path, Line: 2, Msg: "bad front matter: " + err.Error()}
}

// keyLine is the 1-based line of head where key is set, 1 if not found.
func keyLine(head, key string) int {
	for i, l := range strings.Split(head, "\n") {
		if k, _, ok := strings.Cut(l, "="); ok && strings.TrimSpace(k) == key {
			return i + 1
		}
	}
	return 1
}

// firstLine is s's first non-blank line, trimmed.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
