package tools

// This file builds the request's `tools` array: hosted tools with their
// secrets read now, and local functions as function tools.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// secretCommandTimeout bounds an authorization_command.
const secretCommandTimeout = 10 * time.Second

// RequestTools returns the request's tools: each enabled hosted tool, with
// its secrets resolved now (env looks variables up; nil means os.Getenv),
// then each enabled local function as
// {"type":"function","name","description","parameters","strict":false}.
// enabled nil means EnabledByDefault. Local MCP servers' tools are added by
// Runner.RequestTools, which knows what the servers offer.
//
// The result may hold secrets (an mcp tool's headers and authorization):
// send it, but keep only Redact(result) anywhere that lasts.
func (c Config) RequestTools(enabled func(name string) bool, env func(string) string) ([]json.RawMessage, error) {
	if enabled == nil {
		enabled = c.EnabledByDefault
	}
	if env == nil {
		env = os.Getenv
	}
	var out []json.RawMessage
	for _, h := range c.Hosted {
		if !enabled(h.Name) {
			continue
		}
		raw, err := h.json(env, c.SecretEnv)
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
	for _, f := range c.Functions {
		if enabled(f.Name) {
			out = append(out, functionTool(f.Name, f.Description, f.Parameters))
		}
	}
	return out, nil
}

// json writes one hosted tool with its secrets; hidden are the variables
// its authorization_command does not see.
func (h Hosted) json(env func(string) string, hidden []string) (json.RawMessage, error) {
	m := make(map[string]any, len(h.Fields)+3)
	maps.Copy(m, h.Fields)
	m["type"] = h.Type
	if len(h.HeadersEnv) > 0 {
		headers := map[string]string{}
		for _, name := range slices.Sorted(maps.Keys(h.HeadersEnv)) {
			v, err := secretFromEnv(env, h.HeadersEnv[name])
			if err != nil {
				return nil, fmt.Errorf("tool %s: header %s: %w", h.Name, name, err)
			}
			headers[name] = v
		}
		m["headers"] = headers
	}
	switch {
	case h.AuthorizationEnv != "":
		v, err := secretFromEnv(env, h.AuthorizationEnv)
		if err != nil {
			return nil, fmt.Errorf("tool %s: authorization: %w", h.Name, err)
		}
		m["authorization"] = v
	case len(h.AuthorizationCommand) > 0:
		v, err := secretFromCommand(h.AuthorizationCommand, hidden)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", h.Name, err)
		}
		m["authorization"] = v
	}
	return json.Marshal(m)
}

func secretFromEnv(env func(string) string, name string) (string, error) {
	v := strings.TrimSpace(env(name))
	if v == "" {
		return "", fmt.Errorf("$%s is not set; export it or remove the tool", name)
	}
	if strings.ContainsAny(v, "\r\n") {
		return "", fmt.Errorf("$%s holds a line break; it must hold the value alone", name)
	}
	return v, nil
}

// secretFromCommand runs argv and returns its first line of output. Neither
// its output nor its text is ever put in an error.
func secretFromCommand(argv []string, hidden []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), secretCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = ChildEnv(hidden)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	// Named by its key, never by its text: a token may be written inline
	// in it ("echo ghp_…"). The caller says which tool it belongs to.
	name := "authorization_command"
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("%s did not finish within %s", name, secretCommandTimeout)
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return "", fmt.Errorf("%s failed (%v); its output is hidden, run it in a shell to see why", name, err)
	}
	v, _, _ := strings.Cut(strings.TrimSpace(out.String()), "\n")
	if v = strings.TrimSpace(v); v == "" {
		return "", fmt.Errorf("%s printed nothing; it must print the token", name)
	}
	return v, nil
}

// functionTool is the request's definition of a function tool.
func functionTool(name, description string, parameters json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(parameters)) == 0 {
		parameters = emptyObject
	}
	b, err := json.Marshal(struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
		Strict      bool            `json:"strict"`
	}{"function", name, description, parameters, false})
	if err != nil { // parameters is not valid JSON: send an empty object schema instead
		return functionTool(name, description, emptyObject)
	}
	return b
}

// redacted replaces secret values in Redact's output.
const redacted = "[redacted]"

// Redact returns tools with every secret an mcp tool carries (header
// values, authorization) replaced by "[redacted]": the form to keep in a
// session, a log or a saved request. Other tools are returned as they are.
func Redact(tools []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(tools))
	for i, raw := range tools {
		out[i] = raw
		var m map[string]any
		if json.Unmarshal(raw, &m) != nil || m["type"] != "mcp" {
			continue
		}
		changed := false
		if _, ok := m["authorization"]; ok {
			m["authorization"], changed = redacted, true
		}
		if h, ok := m["headers"].(map[string]any); ok {
			for k := range h {
				h[k], changed = redacted, true
			}
		}
		if changed {
			if b, err := json.Marshal(m); err == nil {
				out[i] = b
			}
		}
	}
	return out
}
