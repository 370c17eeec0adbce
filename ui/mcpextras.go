package ui

// This file is what MCP servers offer the composer besides tools: their
// prompts as slash commands, /mcp:SERVER:PROMPT ARGS (arguments by
// name=value or in order; the prompt's messages are sent as your turn),
// and their resources as attachments, @mcp:SERVER:URI (tab completes them
// from the servers' resource lists; the contents, sanitized, go as a text
// file does). The composer's hooks are: SetMCP (the completion sources,
// from the servers' lists when they are up: the prompts are the slash
// menu's, the resources the mention part's), slashMenu.mcpRows and
// validate, completeResource on tab and mentionMenu.named in takeFiles;
// the root's is the
// mcp: case in slash; reading the resources is readMessage's (turns.go).

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session/attach"
	"runnel/session/tools"
	"runnel/stream"
)

// mcpPrefix starts every MCP prompt command and resource mention.
const mcpPrefix = "mcp:"

// SetMCP sets the MCP prompts and resources the composer completes.
func (c *Composer) SetMCP(prompts []tools.Prompt, resources []tools.Resource) {
	c.menu.setMCP(prompts)
	c.mentions.resources = resources
}

// setMCP makes the MCP prompts the menu's /mcp:SERVER:PROMPT commands.
func (s *slashMenu) setMCP(prompts []tools.Prompt) {
	s.mcp = nil
	for _, p := range prompts {
		desc := p.Description
		if desc == "" {
			desc = "MCP prompt of " + p.Server
		}
		s.mcp = append(s.mcp, Command{
			Name: mcpPrefix + p.Server + ":" + p.Name, Args: strings.TrimPrefix(p.Usage(), "/"+mcpPrefix+p.Server+":"+p.Name+" "),
			Desc:  stream.SanitizeLine(clip(desc, 60)),
			check: func(args string) error { _, err := tools.PromptArgs(p, args); return err },
		})
		if len(p.Args) == 0 {
			s.mcp[len(s.mcp)-1].Args = ""
		}
	}
}

// mcpRows is the MCP prompts whose command starts with word ("/mcp:we").
func (s slashMenu) mcpRows(word string) []Command {
	word = strings.TrimPrefix(word, "/")
	if !strings.HasPrefix(mcpPrefix, word) && !strings.HasPrefix(word, mcpPrefix) {
		return nil
	}
	var out []Command
	for _, p := range s.mcp {
		if strings.HasPrefix(p.Name, word) {
			out = append(out, p)
		}
	}
	return out
}

// validate checks a parsed command: an MCP prompt against the servers'
// prompts, anything else against the registry.
func (s slashMenu) validate(name, args string) error {
	if !strings.HasPrefix(name, mcpPrefix) {
		return Validate(name, args)
	}
	for _, p := range s.mcp {
		if p.Name == name {
			return p.Validate(args)
		}
	}
	return fmt.Errorf("no MCP prompt /%s; type /mcp: to see the servers' prompts", clip(name, 40))
}

// mcpPromptCmd gets the prompt and sends its messages as the user's turn,
// or says in one line why it could not.
func mcpPromptCmd(ctx context.Context, mgr *tools.Manager, name, args string) tea.Cmd {
	server, prompt, _ := strings.Cut(strings.TrimPrefix(name, mcpPrefix), ":")
	var p tools.Prompt
	for _, q := range mgr.Prompts(nil) {
		if q.Server == server && q.Name == prompt {
			p = q
		}
	}
	return func() tea.Msg {
		values, err := tools.PromptArgs(p, args)
		if err == nil {
			var text string
			if text, err = mgr.GetPrompt(ctx, server, prompt, values); err == nil {
				return SubmitMsg{Text: text}
			}
		}
		return NoticeMsg{Text: stream.SanitizeLine(err.Error()), Err: true}
	}
}

func mcpMention(r tools.Resource) string { return mcpPrefix + r.Server + ":" + r.URI }

// attachResource adds a resource as a chip; its contents are read when the
// message is sent.
func (ch *chips) addResource(r tools.Resource) {
	path := mcpMention(r)
	if ch.has(path) {
		return
	}
	name := r.Name
	if name == "" {
		name = r.URI
	}
	ch.files = append(ch.files, &attach.File{Path: path, Name: stream.SanitizeLine(name), Sent: path, Kind: attach.Text, MIME: "text/plain"})
}

// named are the listed resources that @mcp:SERVER:URI words of text name.
func (m mentionMenu) named(text string) []tools.Resource {
	var out []tools.Resource
	for _, w := range strings.Fields(text) {
		if name, ok := strings.CutPrefix(w, "@"+mcpPrefix); ok {
			for _, r := range m.resources {
				if mcpMention(r) == mcpPrefix+name {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// readResources fills in the contents of the MCP resources among files
// (copies; the chips stay as they are), each within the per-file limit.
func readResources(ctx context.Context, mgr *tools.Manager, files []*attach.File, lim attach.Limits, redact func(string) string) ([]*attach.File, error) {
	out := make([]*attach.File, len(files))
	for i, f := range files {
		out[i] = f
		rest, ok := strings.CutPrefix(f.Path, mcpPrefix)
		if !ok || f.Data != nil {
			continue
		}
		server, uri, _ := strings.Cut(rest, ":")
		text, err := mgr.ReadResource(ctx, server, uri)
		if err != nil {
			return nil, err
		}
		if redact != nil {
			text = redact(text)
		}
		if int64(len(text)) > lim.FileLimit() {
			return nil, &attach.Error{Path: f.Path, Problem: fmt.Sprintf("too big (%s; the limit is %s per file)", attach.Size(int64(len(text))), attach.Size(lim.FileLimit()))}
		}
		g := *f
		g.Data, g.Size = []byte(text), int64(len(text))
		out[i] = &g
	}
	return out, nil
}
