package ui

// This file is the composer's side of prompt files (session/prompts): each
// usable prompt is a /NAME command, completed with the built-in ones, that
// sends its template filled in with what follows the name, and the turn's
// override (instructions, model, effort, tools) with it. Built-in commands
// win a name clash; the clash is said once, in one line.

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/prompts"
	"runnel/stream"
)

// Prompts are the prompt files the chat offers as /NAME: the library read
// at start, and where an allowed project directory is remembered.
type Prompts struct {
	Library prompts.Library
	Trust   prompts.Trust
}

// promptsAllowedMsg reports the library once the user allowed the
// project's prompts (or why that failed).
type promptsAllowedMsg struct {
	lib   prompts.Library
	known int // lib.Problems already said at start
	err   error
	typed string // the /NAME that asked, run once allowed ("" for none)
}

// askPromptsMsg is the first use of a project prompt not allowed yet: the
// question is asked then, with the typed /NAME held until it is answered.
type askPromptsMsg struct{ typed string }

// promptsLaterMsg is "not now": the typed /NAME goes back to the composer.
type promptsLaterMsg struct{ typed string }

// SetPrompts makes lib's usable prompts the composer's /NAME commands,
// leaving out those a built-in command's name takes; it returns the one
// line that says so, or "". A project prompt not allowed yet is named when
// typed, with how to allow it.
func (c *Composer) SetPrompts(lib prompts.Library) string {
	line := c.menu.setPrompts(lib)
	c.updateMenu()
	return line
}

// setPrompts is SetPrompts for the menu.
func (s *slashMenu) setPrompts(lib prompts.Library) string {
	s.prompts, s.waiting = nil, lib.Waiting
	var clash []string
	for _, p := range lib.Prompts {
		if _, builtin := Lookup(p.Name); builtin {
			clash = append(clash, p.Name)
			continue
		}
		s.prompts = append(s.prompts, p)
	}
	if len(clash) == 0 {
		return ""
	}
	verb := "is a built-in command"
	if len(clash) > 1 {
		verb = "are built-in commands"
	}
	return "prompt files not used: /" + strings.Join(clash, ", /") + " " + verb + " — rename the file (e.g. my-" + clash[0] + ".md)"
}

// prompt finds the usable prompt called name.
func (s slashMenu) prompt(name string) (prompts.Prompt, bool) {
	for _, p := range s.prompts {
		if p.Name == name {
			return p, true
		}
	}
	return prompts.Prompt{}, false
}

// waits reports whether name is a project prompt not allowed yet: its
// first use asks (askPromptsMsg).
func (s slashMenu) waits(name string) bool {
	for _, p := range s.waiting {
		if p.Name == name {
			return true
		}
	}
	return false
}

// promptRows is the prompts whose names start with prefix, as menu rows
// after the built-in commands.
func (s slashMenu) promptRows(prefix string) []Command {
	prefix = strings.ToLower(strings.TrimPrefix(prefix, "/"))
	var out []Command
	for _, p := range s.prompts {
		if strings.HasPrefix(p.Name, prefix) {
			desc := "prompt"
			if p.Description != "" {
				desc += ": " + stream.SanitizeLine(p.Description)
			}
			out = append(out, Command{Name: p.Name, Args: "[INPUT]", Desc: clip(desc, 60), check: func(string) error { return nil }})
		}
	}
	return out
}

// usePrompt sends the prompt's template filled in with args as a message;
// the template's own @paths attach files, as typed ones do, while args are
// text (prompts.Expand): an @path in them attaches nothing.
func (c *Composer) usePrompt(p prompts.Prompt, args string) tea.Cmd {
	if out := p.Outside(); out != "" {
		return notify(true, "/"+p.Name+": "+stream.SanitizeLine(prompts.OutsideLine(p, out)))
	}
	text, _ := p.Expand(args)
	files, err := c.takeFiles(p.Template) // the template's mentions only, never the input's
	if err != nil {
		return notify(true, "/"+p.Name+": "+stream.SanitizeLine(err.Error()))
	}
	typed := strings.TrimSpace("/" + p.Name + " " + args)
	c.hist.remember(typed)
	c.Reset()
	c.expanded = expansion{typed: typed, text: strings.TrimSpace(text)}
	o := p.Override()
	return func() tea.Msg { return SubmitMsg{Text: text, Files: files, Prompt: o} }
}

// allowed takes the library with the project's prompts in.
func (s *slashMenu) allowed(msg promptsAllowedMsg) tea.Cmd {
	if msg.err != nil {
		return notify(true, "project prompts not allowed: "+stream.SanitizeLine(msg.err.Error()))
	}
	cmds := []tea.Cmd{notify(false, "project prompts allowed: "+strings.Join(names(msg.lib.Prompts, true), ", ")+" (asked again when a file in "+stream.SanitizeLine(msg.lib.Project)+" changes)")}
	line := s.setPrompts(msg.lib)
	for _, p := range msg.lib.Prompts { // said at start unless a project prompt clashes too
		if _, builtin := Lookup(p.Name); builtin && p.Project {
			cmds = append(cmds, notify(true, stream.SanitizeLine(line)))
			break
		}
	}
	for _, e := range msg.lib.Problems[min(msg.known, len(msg.lib.Problems)):] {
		cmds = append(cmds, notify(true, stream.SanitizeLine(e.Error())))
	}
	return tea.Batch(cmds...)
}

// promptsAnswered runs the /NAME that asked, once its prompts are allowed.
func (c *Composer) promptsAnswered(msg promptsAllowedMsg) tea.Cmd {
	cmd := c.menu.allowed(msg)
	c.updateMenu()
	name, args, ok := Parse(msg.typed)
	if !ok || msg.err != nil {
		return cmd
	}
	if _, usable := c.menu.prompt(name); !usable {
		c.SetValue(msg.typed) // shadowed by a built-in command: said above
		return cmd
	}
	return tea.Batch(cmd, c.run(name, args))
}

// names are the /NAMEs of ps (only the project's, with project).
func names(ps []prompts.Prompt, project bool) []string {
	var out []string
	for _, p := range ps {
		if p.Project || !project {
			out = append(out, "/"+p.Name)
		}
	}
	return out
}

// promptHeader is the line above a prompt's turn: its name and what it
// changes for the turn.
func promptHeader(o *session.Override) string {
	var what []string
	if o.Instructions != "" {
		what = append(what, "its instructions")
	}
	if o.Model != "" {
		what = append(what, "model "+o.Model)
	}
	if o.Effort != "" {
		what = append(what, "effort "+o.Effort)
	}
	if o.LimitTools {
		what = append(what, "tools: "+strings.Join(o.Tools, ", "))
	}
	line := "▸ /" + o.Name
	if len(what) > 0 {
		line += " — " + strings.Join(what, ", ") + ", for this turn"
	}
	return stream.SanitizeLine(line)
}

// askPromptTrust opens the question about the project's prompts, when it
// has some that are not allowed (yet, or since a file changed): at the
// first use of one (typed, the /NAME held until the answer), never at
// start, so it never stands before the welcome or takes keys meant for the
// composer.
func askPromptTrust(p *Prompts, typed string, f *frameState) tea.Cmd {
	if p == nil || p.Library.Project == "" || p.Library.Allowed || len(p.Library.Waiting) == 0 {
		return nil
	}
	return msgCmd(dialogMsg{dlg[PromptTrust]{NewPromptTrust(p.Library, p.Trust, typed, f.styles)}})
}

// expansion is a prompt file's /NAME as typed and the text it became.
type expansion struct{ typed, text string }
