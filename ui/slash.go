package ui

import (
	"fmt"
	"strconv"
	"strings"

	"runnel/session/knob"
	"runnel/theme"
)

// Command is one slash command the composer completes and the root runs.
//
// The registry (Commands) is fixed at build time; adding a command means
// adding a row to slashCommands and a case to the root's dispatch. Validation
// lives here so the composer can refuse bad arguments before the root sees
// them, and so every bad-argument message has the same one-line shape.
type Command struct {
	Name string // without the slash: "model"
	Args string // argument hint shown in the menu: "NAME", "[N]"; "" for none
	Desc string // one short phrase for the menu and /help

	check func(args string) error // nil: the command takes no arguments
	arg   string                  // an argument completion ("/model gpt-5"): the menu row is this argument
}

// Usage is the command as typed with its argument hint: "/model NAME".
func (c Command) Usage() string {
	if c.arg != "" {
		return "/" + c.Name + " " + c.arg
	}
	if c.Args == "" {
		return "/" + c.Name
	}
	return "/" + c.Name + " " + c.Args
}

// Validate checks args for c and returns one line saying what is wrong and
// what is allowed, or nil.
func (c Command) Validate(args string) error {
	args = strings.TrimSpace(args)
	if c.check == nil {
		if args != "" {
			return fmt.Errorf("/%s takes no arguments", c.Name)
		}
		return nil
	}
	return c.check(args)
}

// efforts are the reasoning efforts /effort accepts, weakest first: the
// same set as the --reasoning-effort flag.
var efforts = knob.ReasoningEfforts

// slashCommands is the registry, in menu order. It is never mutated; callers
// get copies from Commands and Complete.
var slashCommands = []Command{
	{Name: "new", Desc: "start a new conversation"},
	{Name: "model", Args: "[NAME]", Desc: "switch the model (alone: a list)", check: checkModel},
	{Name: "provider", Args: "[NAME]", Desc: "switch the provider (alone: a list)", check: checkProvider},
	{Name: "effort", Args: "LEVEL", Desc: "set the reasoning effort: none … max", check: checkEffort},
	{Name: "fast", Desc: "toggle the priority service tier (faster, dearer)"},
	{Name: "copy", Args: "[N]", Desc: "copy the last answer or its N-th code block", check: checkCopy},
	{Name: "sessions", Desc: "open a saved session (ctrl+s)"},
	{Name: "search", Args: "QUERY", Desc: "search every saved session", check: checkSearch},
	{Name: "fork", Args: "N", Desc: "start a new session from turn N, editing its prompt", check: checkFork},
	{Name: "edit", Args: "[N]", Desc: "edit turn N's prompt (alone: the last): a branch", check: checkEdit},
	{Name: "undo", Desc: "drop the last exchange (kept as a branch)"},
	{Name: "tree", Desc: "list this session's branches, show any one"},
	{Name: "compact", Desc: "compact the model's context; the transcript stays"},
	{Name: "retry", Desc: "ask again for the last answer (both are kept)"},
	{Name: "rename", Args: "TITLE", Desc: "rename this session", check: checkRename},
	{Name: "export", Args: "[PATH]", Desc: "write this session to a file (/export json or html)", check: func(string) error { return nil }},
	{Name: "theme", Args: "NAME", Desc: "colours for this run: tab lists the themes", check: checkTheme},
	{Name: "tools", Desc: "switch tools on or off for this session"},
	{Name: "attach", Args: "PATH", Desc: "attach a file to the next message (tab completes)", check: checkAttach},
	{Name: "status", Desc: "model, usage, cost, tools"},
	{Name: "help", Desc: "show keys and commands"},
	{Name: "quit", Desc: "leave runnel"},
}

func checkRename(args string) error {
	if args == "" {
		return fmt.Errorf("/rename needs a title, e.g. /rename retry backoff design")
	}
	return nil
}

func checkTheme(args string) error {
	if args == "" {
		return fmt.Errorf("/theme needs a name: %s, or NAME for themes/NAME.toml (tab completes)", strings.Join(theme.Builtins, ", "))
	}
	return nil // a file's name is checked when it is read
}

func checkSearch(args string) error {
	if args == "" {
		return fmt.Errorf("/search needs words to look for, e.g. /search retry backoff")
	}
	return nil
}

func checkAttach(args string) error {
	if args == "" {
		return fmt.Errorf("/attach needs a file, e.g. /attach notes.md (or type @notes.md in a message)")
	}
	return nil
}

func checkEdit(args string) error {
	if n, err := strconv.Atoi(args); args != "" && (err != nil || n < 1) {
		return fmt.Errorf("/edit N: N is a turn number from 1, e.g. /edit 2 (alone: the last turn)")
	}
	return nil
}

func checkFork(args string) error {
	n, err := strconv.Atoi(args)
	if err != nil || n < 1 {
		return fmt.Errorf("/fork N: N is a turn number from 1, e.g. /fork 3")
	}
	return nil
}

func checkModel(args string) error {
	switch {
	case args == "":
		return nil // the picker
	case strings.ContainsAny(args, " \t"):
		return fmt.Errorf("/model takes one model name without spaces, got %q", clip(args, 40))
	}
	return nil
}

func checkProvider(args string) error {
	if strings.ContainsAny(args, " \t") {
		return fmt.Errorf("/provider takes one provider name, got %q", clip(args, 40))
	}
	return nil // the root knows the names: an unknown one gets its line there
}

func checkEffort(args string) error {
	for _, e := range efforts {
		if args == e {
			return nil
		}
	}
	if args == "" {
		return fmt.Errorf("/effort needs a level: one of %s", strings.Join(efforts, ", "))
	}
	return fmt.Errorf("/effort %s: unknown level; use one of %s", clip(args, 20), strings.Join(efforts, ", "))
}

func checkCopy(args string) error {
	if args == "" {
		return nil
	}
	n, err := strconv.Atoi(args)
	if err != nil || n < 1 {
		return fmt.Errorf("/copy %s: N must be a code block number from 1, e.g. /copy 2", clip(args, 20))
	}
	return nil
}

// Lookup finds a command by name (without the slash).
func Lookup(name string) (Command, bool) {
	for _, c := range slashCommands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// Parse splits composer text of the form "/name args" into its name and
// trimmed arguments. ok is false when text is not shaped like a command: it
// does not start with "/", or the first word holds anything but letters,
// digits and '-' (so "/usr/bin is missing" is a prompt, not a command). Parse
// does not consult the registry; Lookup and Validate do.
func Parse(text string) (name, args string, ok bool) {
	rest, found := strings.CutPrefix(text, "/")
	if !found {
		return "", "", false
	}
	end := strings.IndexAny(rest, " \t\n")
	if end < 0 {
		end = len(rest)
	}
	name = rest[:end]
	if name == "" {
		return "", "", false
	}
	if strings.HasPrefix(name, mcpPrefix) { // an MCP prompt: /mcp:SERVER:PROMPT, its names as the server gives them
		return name, strings.TrimSpace(rest[end:]), true
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return "", "", false
		}
	}
	return strings.ToLower(name), strings.TrimSpace(rest[end:]), true
}

// Validate checks a parsed command against the registry: an unknown name or
// bad arguments give one line naming the problem and the fix.
func Validate(name, args string) error {
	c, ok := Lookup(name)
	if !ok {
		return fmt.Errorf("unknown command /%s; type / to see the commands", clip(name, 20))
	}
	return c.Validate(args)
}

// Complete returns the commands whose names start with prefix (with or
// without its leading slash), in menu order. An empty prefix or a bare "/"
// matches every command.
func Complete(prefix string) []Command {
	prefix = strings.ToLower(strings.TrimPrefix(prefix, "/"))
	var out []Command
	for _, c := range slashCommands {
		if strings.HasPrefix(c.Name, prefix) {
			out = append(out, c)
		}
	}
	return out
}

// clip shortens s to n runes for echoing user input in an error line.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// CodeBlocks returns the contents of the fenced code blocks (``` or ~~~) of a
// markdown source, in order, without their fences and without a trailing
// newline. /copy N copies the N-th (1-based).
//
// It follows CommonMark where LLM output needs it: the closing fence uses the
// opening fence's character and is at least as long; an unclosed block runs
// to the end; a "```" inside a "~~~" block is content. Fences may be indented
// (as in list items); that indentation is removed from the content lines.
func CodeBlocks(markdown string) []string {
	var (
		blocks []string
		body   []string
		inside bool
		fence  string // the opening run: "```" or "~~~~"
		indent int    // columns of indentation of the opening fence
	)
	for _, line := range strings.Split(markdown, "\n") {
		line = strings.TrimSuffix(line, "\r")
		trimmed := strings.TrimLeft(line, " \t")
		if !inside {
			if run := fenceRun(trimmed); run != "" {
				// A backtick fence's info string may not contain backticks.
				if run[0] == '`' && strings.Contains(trimmed[len(run):], "`") {
					continue
				}
				inside, fence, indent, body = true, run, len(line)-len(trimmed), nil
			}
			continue
		}
		if run := fenceRun(trimmed); run != "" && run[0] == fence[0] && len(run) >= len(fence) &&
			strings.TrimSpace(trimmed[len(run):]) == "" {
			blocks = append(blocks, strings.Join(body, "\n"))
			inside = false
			continue
		}
		body = append(body, dedent(line, indent))
	}
	if inside {
		blocks = append(blocks, strings.TrimRight(strings.Join(body, "\n"), "\n"))
	}
	return blocks
}

// fenceRun returns the run of three or more '`' or '~' that opens s, or "".
func fenceRun(s string) string {
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	n := 1
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return s[:n]
}

// dedent removes up to n leading spaces or tabs from line.
func dedent(line string, n int) string {
	i := 0
	for i < n && i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return line[i:]
}
