package ui

// This file is the question the chat asks once about a project's prompt
// files (.runnel/prompts in the working directory): they send their
// instructions and files to the model, so they are used only once the user
// allows them. The answer is remembered with a hash of the files
// (prompts.Trust), so a changed file asks again.

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"runnel/session/prompts"
	"runnel/stream"
	"runnel/theme"
)

// PromptTrustKeys are the question's keys.
type PromptTrustKeys struct {
	Allow, Later, Help key.Binding
}

// FullHelp is the question's keys for its "?" view.
func (k PromptTrustKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Allow, k.Later, k.Help}}
}

func defaultPromptTrustKeys() PromptTrustKeys {
	return PromptTrustKeys{
		Allow: key.NewBinding(key.WithKeys("y", "a"), key.WithHelp("y", "allow (remembered until a file changes)")),
		Later: key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n", "not now (asked again next time)")),
		Help:  helpKey(),
	}
}

// PromptTrust asks whether to use a project's prompt files.
//
// Invariants: lib.Project is set and lib.Waiting is not empty.
type PromptTrust struct {
	typed  string // the /NAME that asked: run once allowed, back in the composer otherwise
	lib    prompts.Library
	trust  prompts.Trust
	keys   PromptTrustKeys
	help   bool
	styles *theme.Styles
}

// NewPromptTrust asks about lib's waiting project prompts.
func NewPromptTrust(lib prompts.Library, trust prompts.Trust, typed string, st *theme.Styles) PromptTrust {
	return PromptTrust{typed: typed, lib: lib, trust: trust, keys: defaultPromptTrustKeys(), styles: st}
}

// Update answers y (the files are allowed and their prompts offered) or n.
func (p PromptTrust) Update(msg tea.Msg) (PromptTrust, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	if p.help {
		p.help = helpToggle(k, p.keys.Help)
		return p, nil
	}
	switch {
	case key.Matches(k, p.keys.Help):
		p.help = true
	case key.Matches(k, p.keys.Allow):
		lib, trust, typed := p.lib, p.trust, p.typed
		lib.Prompts = slices.Clone(lib.Prompts) // Allow writes into it, off the update loop
		return p, tea.Batch(msgCmd(DialogClosedMsg{}), func() tea.Msg {
			err := lib.Allow(trust) // writes the trust file: off the update loop
			return promptsAllowedMsg{lib: lib, known: len(p.lib.Problems), err: err, typed: typed}
		})
	case key.Matches(k, p.keys.Later):
		return p, tea.Batch(msgCmd(DialogClosedMsg{}), msgCmd(promptsLaterMsg{typed: p.typed}), notify(false, "project prompts not used — runnel asks again at their next use; `runnel prompts allow` allows them"))
	}
	return p, nil
}

// View names the directory and its prompts, and the choices.
func (p PromptTrust) View(width, height int) string {
	if p.help {
		return dialogHelpView(p.styles, "Project prompts", p.keys.FullHelp(), width, height)
	}
	d := theme.DialogOf(p.styles)
	lines := []string{
		d.Confirm.Render("Use this project's prompt files?"),
		d.Label.Render("directory ") + d.Code.Render(stream.SanitizeLine(p.lib.Project)),
	}
	for _, w := range p.lib.Waiting {
		lines = append(lines, "  "+d.Item.Render("/"+w.Name)+" "+d.Preview.Render(stream.SanitizeLine(w.Description)))
	}
	lines = append(lines, d.More.Render("they send their instructions and the files they name to the model"))
	foot := []string{bindingHint(d, width, p.keys.Allow, p.keys.Later, key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "keys")))}
	return fitFoot(lines, foot, width, height)
}
