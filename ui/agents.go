package ui

// This file is the chat's side of instruction files (session/agentsmd):
// the user's AGENTS.md is used from the start; the project's are used once
// allowed, and the question is asked when the first message is sent (never
// before the welcome, never while the user types), with that message held
// until it is answered. /status names the files used.

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"runnel/session/agentsmd"
	"runnel/session/prompts"
	"runnel/stream"
	"runnel/theme"
)

// Agents are the instruction files found at start and the trust that
// allows the project's.
type Agents struct {
	Found agentsmd.Found
	Trust prompts.Trust
}

// agentsState is what the chat keeps of its instruction files.
//
// Invariants: used is the user's file and the allowed project files, in
// the order they are added; waiting are the project files not allowed,
// and asked says the question was put this run (it is put once).
type agentsState struct {
	trust   prompts.Trust
	user    *agentsmd.File
	allowed []agentsmd.File
	waiting []agentsmd.File
	asked   bool
}

// newAgentsState splits a's project files into allowed and waiting.
func newAgentsState(a *Agents) agentsState {
	if a == nil {
		return agentsState{asked: true}
	}
	s := agentsState{trust: a.Trust, user: a.Found.User}
	s.allowed, s.waiting = a.Found.Split(a.Trust)
	return s
}

// used are the files the instructions take.
func (s agentsState) used() []agentsmd.File {
	return agentsmd.Found{User: s.user}.Used(s.allowed)
}

// text is what the files add to the instructions.
func (s agentsState) text() string { return agentsmd.Instructions(s.used()) }

// paths names the files used, for /status: "" for none.
func (s agentsState) paths() string {
	var out []string
	for _, f := range s.used() {
		out = append(out, stream.SanitizeLine(f.Path))
	}
	return strings.Join(out, ", ")
}

// hold returns the question for the project's waiting files when msg is
// the first message and some wait; the message goes once it is answered.
// nil: send msg now.
func (s *agentsState) hold(msg SubmitMsg, f *frameState) tea.Cmd {
	if s.asked || len(s.waiting) == 0 {
		return nil
	}
	s.asked = true
	return msgCmd(dialogMsg{dlg[AgentsTrust]{AgentsTrust{files: s.waiting, trust: s.trust, held: msg, keys: defaultPromptTrustKeys(), styles: f.styles}}})
}

// agentsAnsweredMsg is the question's answer, with the message it held.
type agentsAnsweredMsg struct {
	allowed bool
	err     error
	held    SubmitMsg
}

// answered takes the answer: allowed files join the instructions. It
// returns the notice to show.
func (s *agentsState) answered(msg agentsAnsweredMsg) (text string, isErr bool) {
	switch {
	case msg.err != nil:
		return "AGENTS.md not allowed: " + stream.SanitizeLine(msg.err.Error()), true
	case !msg.allowed:
		return "AGENTS.md not used — runnel asks again next time; `runnel prompts allow` allows it", false
	}
	var names []string
	for _, f := range s.waiting {
		names = append(names, stream.SanitizeLine(f.Path))
	}
	s.allowed, s.waiting = append(s.allowed, s.waiting...), nil
	return "AGENTS.md allowed: " + strings.Join(names, ", ") + " (asked again when it changes)", false
}

// AgentsTrust asks whether to use a project's AGENTS.md files.
//
// Invariants: files is not empty.
type AgentsTrust struct {
	files  []agentsmd.File
	trust  prompts.Trust
	held   SubmitMsg
	keys   PromptTrustKeys
	help   bool
	styles *theme.Styles
}

// Update answers y (the files are allowed, remembered with their contents)
// or n; either way the held message goes.
func (a AgentsTrust) Update(msg tea.Msg) (AgentsTrust, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return a, nil
	}
	if a.help {
		a.help = helpToggle(k, a.keys.Help)
		return a, nil
	}
	switch {
	case key.Matches(k, a.keys.Help):
		a.help = true
	case key.Matches(k, a.keys.Allow):
		files, trust, held := a.files, a.trust, a.held
		return a, tea.Batch(msgCmd(DialogClosedMsg{}), func() tea.Msg {
			err := agentsmd.Allow(trust, files) // writes the trust file: off the update loop
			return agentsAnsweredMsg{allowed: err == nil, err: err, held: held}
		})
	case key.Matches(k, a.keys.Later):
		return a, tea.Batch(msgCmd(DialogClosedMsg{}), msgCmd(agentsAnsweredMsg{held: a.held}))
	}
	return a, nil
}

// View names the files and the choices.
func (a AgentsTrust) View(width, height int) string {
	if a.help {
		return dialogHelpView(a.styles, "Project instructions", a.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(a.styles)
	lines := []string{d.Confirm.Render("Use this project's instructions?")}
	for _, f := range a.files {
		lines = append(lines, "  "+d.Code.Render(stream.SanitizeLine(f.Path))+" "+d.Preview.Render(previewLine(f.Text)))
	}
	lines = append(lines, d.More.Render("they are added to the instructions of every request; your message waits for the answer"))
	foot := []string{bindingHint(d, width, a.keys.Allow, a.keys.Later, key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "keys")))}
	return fitFoot(lines, foot, width, height)
}

// previewLine is text's first non-empty line, short.
func previewLine(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return clip(stream.SanitizeLine(l), 60)
		}
	}
	return ""
}
