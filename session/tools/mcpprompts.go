package tools

// This file gives the chat what MCP servers offer besides tools: prompts
// (a /mcp:SERVER:PROMPT command whose messages become the user's turn) and
// resources (an @mcp:SERVER:URI attachment), listed when a server starts.

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/stream"
)

// Prompt is one prompt a server offers.
type Prompt struct {
	Server, Name, Description string
	Args                      []PromptArg
}

// PromptArg is one argument of a Prompt.
type PromptArg struct {
	Name     string
	Required bool
}

// Resource is one resource a server lists.
type Resource struct {
	Server, URI, Name, MIMEType string
}

// A server's prompts and resources are offered as commands and @ mentions:
// at most the table's mcp_prompts and mcp_resources, resource URIs of at
// most maxURI bytes.
const maxURI = 2048

// commandWord reports whether a server's prompt (or argument) name can be
// typed and shown as it is: 1 to 64 of [A-Za-z0-9_.-], no control or
// escape sequence to reach the terminal.
func commandWord(s string) bool {
	if s == "" || len(s) > maxNameLen {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// listExtras lists a started server's prompts and resources when it says
// it has them, and returns them with the lines to report (a listing that
// failed, what was left out; a listing that ended with ctx, the start's
// deadline, is the one line saying none are offered). It changes nothing
// of s: the start records what it returns only if the listing ended
// within startup_timeout.
func (s *server) listExtras(ctx context.Context, c *conn) (prompts []Prompt, resources []Resource, lines []error) {
	cs := c.cs
	caps := &mcp.ServerCapabilities{}
	if r := cs.InitializeResult(); r != nil && r.Capabilities != nil {
		caps = r.Capabilities
	}
	lim := stream.Limits()
	var (
		more     [listKinds]bool // the server offers more than the bound
		badNames int             // prompts and resources with a name or URI runnel cannot offer (see commandWord, maxURI)
		late     bool            // a listing ended with the start's deadline: none are offered, in one line
	)
	defer func() {
		if late {
			prompts, resources, lines = nil, nil, []error{s.extrasLate()}
			return
		}
		var parts, keys []string
		for _, kind := range []int{listPrompts, listResources} {
			if more[kind] || c.cuts.was(kind) { // past the bound in the listing, or in one page (cut by the reader)
				parts = append(parts, fmt.Sprintf("it offers more than %d %s", listBound(kind), listKeys[kind]))
				keys = append(keys, "mcp_"+listKeys[kind])
			}
		}
		switch {
		case len(parts) > 0:
			if badNames > 0 {
				parts = append(parts, fmt.Sprintf("%d with names runnel cannot offer as a command or an @ mention", badNames))
			}
			lines = append(lines, fmt.Errorf("mcp server %s: prompts or resources left out: %s — raise [limits] %s in the config to take more",
				s.cfg.Name, strings.Join(parts, "; "), strings.Join(keys, ", ")))
		case badNames > 0:
			lines = append(lines, fmt.Errorf("mcp server %s: %d prompts or resources left out: names runnel cannot offer as a command or an @ mention", s.cfg.Name, badNames))
		}
	}()
	if caps.Prompts != nil {
		for p, err := range cs.Prompts(ctx, nil) {
			if err != nil {
				if ctx.Err() != nil {
					late = true
					return
				}
				lines = append(lines, fmt.Errorf("mcp server %s: list prompts: %v", s.cfg.Name, err))
				break
			}
			pr := Prompt{Server: s.cfg.Name, Name: p.Name, Description: stream.SanitizeLine(p.Description)}
			ok := commandWord(p.Name)
			for _, a := range p.Arguments {
				ok = ok && commandWord(a.Name)
				pr.Args = append(pr.Args, PromptArg{Name: a.Name, Required: a.Required})
			}
			if !ok {
				badNames++
				continue
			}
			if len(prompts) == lim.MCPPrompts {
				more[listPrompts] = true
				break // no more pages are asked for
			}
			prompts = append(prompts, pr)
		}
	}
	if caps.Resources != nil {
		for r, err := range cs.Resources(ctx, nil) {
			if err != nil {
				if ctx.Err() != nil {
					late = true
					return
				}
				lines = append(lines, fmt.Errorf("mcp server %s: list resources: %v", s.cfg.Name, err))
				break
			}
			if len(r.URI) > maxURI || stream.SanitizeLine(r.URI) != r.URI || strings.ContainsAny(r.URI, " \t") {
				badNames++
				continue
			}
			if len(resources) == lim.MCPResources {
				more[listResources] = true
				break
			}
			resources = append(resources, Resource{Server: s.cfg.Name, URI: r.URI, Name: stream.SanitizeLine(r.Name), MIMEType: stream.SanitizeLine(r.MIMEType)})
		}
	}
	return prompts, resources, lines
}

// Prompts are the prompts of the enabled servers (enabled is asked with a
// server's name; nil: all), in config order.
func (m *Manager) Prompts(enabled func(name string) bool) []Prompt {
	return gather(m, enabled, func(s *server) []Prompt { return s.prompts })
}

// Resources are the resources of the enabled servers, in config order.
func (m *Manager) Resources(enabled func(name string) bool) []Resource {
	return gather(m, enabled, func(s *server) []Resource { return s.resources })
}

// gather is what of each enabled server lists, in config order.
func gather[T any](m *Manager, enabled func(name string) bool, of func(*server) []T) []T {
	if m == nil || !m.started() {
		return nil
	}
	var out []T
	for _, s := range m.servers {
		if enabled == nil || enabled(s.cfg.Name) {
			out = append(out, of(s)...)
		}
	}
	return out
}

func (m *Manager) server(name string) (*server, error) {
	if m != nil && m.started() {
		for _, s := range m.servers {
			if s.cfg.Name == name {
				return s, nil
			}
		}
	}
	return nil, fmt.Errorf("no mcp server %s is running; /status lists them", name)
}

// onServer runs f on the named server's connection (started again if it
// stopped), within the server's call timeout.
func (m *Manager) onServer(ctx context.Context, name string, f func(context.Context, *conn) error) error {
	s, err := m.server(name)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.callTimeout())
	defer cancel()
	c, err := s.ensure(ctx)
	if err != nil {
		return err
	}
	return f(ctx, c)
}

// PromptArgs matches a prompt's typed arguments to its argument names:
// name=value words by name, other words in order to the names not given
// (the last one takes the rest of the line). A required argument left out
// is an error naming it.
func PromptArgs(p Prompt, line string) (map[string]string, error) {
	out := map[string]string{}
	var rest []string
	for _, w := range strings.Fields(line) {
		if k, v, ok := strings.Cut(w, "="); ok && p.hasArg(k) {
			out[k] = v
			continue
		}
		rest = append(rest, w)
	}
	var free []string
	for _, a := range p.Args {
		if _, ok := out[a.Name]; !ok {
			free = append(free, a.Name)
		}
	}
	for i, w := range rest {
		if i >= len(free) {
			if len(free) == 0 {
				return nil, fmt.Errorf("/mcp:%s:%s takes no more arguments (%q is one too many)", p.Server, p.Name, w)
			}
			last := free[len(free)-1]
			out[last] += " " + w
			continue
		}
		out[free[i]] = w
	}
	for _, a := range p.Args {
		if _, ok := out[a.Name]; a.Required && !ok {
			return nil, fmt.Errorf("/mcp:%s:%s needs %s (give it as %s=VALUE or in order: %s)", p.Server, p.Name, a.Name, a.Name, p.usage())
		}
	}
	return out, nil
}

func (p Prompt) hasArg(name string) bool {
	for _, a := range p.Args {
		if a.Name == name {
			return true
		}
	}
	return false
}

// usage is the prompt's arguments as a hint: "topic [style]".
func (p Prompt) usage() string {
	var words []string
	for _, a := range p.Args {
		if a.Required {
			words = append(words, a.Name)
		} else {
			words = append(words, "["+a.Name+"]")
		}
	}
	return strings.Join(words, " ")
}

// Usage is the prompt as a slash command with its arguments.
func (p Prompt) Usage() string {
	u := "/mcp:" + p.Server + ":" + p.Name
	if a := p.usage(); a != "" {
		u += " " + a
	}
	return u
}

// GetPrompt asks server for prompt name with args and returns its messages
// as one text for the user's turn: each message's text (an embedded
// resource's text too), assistant messages marked, sanitized.
func (m *Manager) GetPrompt(ctx context.Context, serverName, name string, args map[string]string) (string, error) {
	var res *mcp.GetPromptResult
	err := m.onServer(ctx, serverName, func(ctx context.Context, c *conn) (err error) {
		if res, err = c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args}); err != nil {
			return fmt.Errorf("mcp server %s: prompt %s: %v", serverName, name, err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	var parts []string
	for _, msg := range res.Messages {
		text := contentText(msg.Content)
		if text == "" {
			continue
		}
		if msg.Role == "assistant" {
			text = "(assistant) " + text
		}
		parts = append(parts, text)
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("mcp server %s: prompt %s has no text to send", serverName, name)
	}
	return m.hooks.Secrets.String(stream.Sanitize(strings.Join(parts, "\n\n"))), nil
}

// ReadResource reads uri from server and returns its text contents,
// sanitized, with known secrets hidden. A resource with no text (only
// binary contents) is an error.
func (m *Manager) ReadResource(ctx context.Context, serverName, uri string) (string, error) {
	var res *mcp.ReadResourceResult
	err := m.onServer(ctx, serverName, func(ctx context.Context, c *conn) (err error) {
		if res, err = c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil {
			return fmt.Errorf("mcp server %s: read %s: %v", serverName, uri, err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	var parts []string
	for _, rc := range res.Contents {
		if rc.Text != "" {
			parts = append(parts, rc.Text)
		}
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("mcp server %s: %s has no text contents (only text resources can be attached)", serverName, uri)
	}
	return m.hooks.Secrets.String(stream.Sanitize(strings.Join(parts, "\n"))), nil
}
