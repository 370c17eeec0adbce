package config

// This file sets up tools for a session: the config's hosted tools, local
// functions and MCP servers, filtered by --tool, and the session's set of
// secrets.

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"runnel/session/tools"
	"runnel/stream"
)

// mcpSlowStart is how long an MCP server may take to start before a
// one-shot run says it is waiting for it: a quick server adds no line to
// every -p run, a slow or silent one is named while runnel waits (up to its
// startup_timeout).
const mcpSlowStart = 500 * time.Millisecond

// ToolKit is everything a session needs to offer and run tools, and the
// session's secret set: every value runnel knows to be secret, hidden in
// all it shows and stores (see stream.Redactor).
type ToolKit struct {
	Config  tools.Config
	MCP     *tools.Manager  // nil when no MCP server is configured
	Enabled map[string]bool // tool name → on
	Secrets *stream.Redactor
	Reports chan error // the chat's MCP reports; nil in one-shot mode
}

// StartTools checks the --tool names in only (none: the config's defaults)
// and starts the MCP servers, waiting for them: warn hears about servers
// that fail, starting about servers slow to start (either may be nil).
func (cfg Config) StartTools(ctx context.Context, only []string, warn func(error), starting func(name string)) (*ToolKit, error) {
	k, err := cfg.toolKit(only)
	if err != nil || len(k.Config.Servers) == 0 {
		return k, err
	}
	if warn == nil {
		warn = func(error) {}
	}
	k.MCP = tools.StartMCPWith(ctx, k.Config, tools.StartHooks{
		Report:    warn,
		Starting:  starting,
		SlowAfter: mcpSlowStart,
		Secrets:   k.Secrets,
	})
	return k, nil
}

// StartChatTools is StartTools for the chat: the MCP servers start in the
// background while the chat shows "starting MCP server X…", and problems
// go to Reports, for the chat to show as notices.
func (cfg Config) StartChatTools(ctx context.Context, only []string) (*ToolKit, error) {
	k, err := cfg.toolKit(only)
	if err != nil || len(k.Config.Servers) == 0 {
		return k, err
	}
	reports := make(chan error, 64)
	k.Reports = reports
	k.MCP = tools.NewMCP(k.Config, tools.StartHooks{
		Report: func(err error) {
			select {
			case reports <- err:
			default: // the chat is not reading: the status line still says which servers are not running
			}
		},
		Secrets: k.Secrets,
	})
	go k.MCP.Start(ctx)
	return k, nil
}

// toolKit is the kit without MCP servers started.
func (cfg Config) toolKit(only []string) (*ToolKit, error) {
	tc, err := cfg.ToolSet()
	if err != nil {
		return nil, err
	}
	k := &ToolKit{Config: tc, Enabled: map[string]bool{}, Secrets: stream.NewRedactor(tc.SecretValues(os.Getenv)...)}
	if err := cfg.networkAuth(k, os.Getenv); err != nil {
		return nil, err
	}
	names := tc.Names()
	for _, n := range names {
		k.Enabled[n] = tc.EnabledByDefault(n)
	}
	if len(only) > 0 {
		for _, n := range names {
			k.Enabled[n] = false
		}
		for _, n := range only {
			if _, ok := k.Enabled[n]; !ok {
				if len(names) == 0 {
					return nil, fmt.Errorf("--tool %s: no tools are configured (see [[tools]], [[functions]] and [[mcp_servers]] in config.example.toml)", n)
				}
				return nil, fmt.Errorf("--tool %s: no such tool; configured: %s", n, strings.Join(names, ", "))
			}
			k.Enabled[n] = true
		}
	}
	return k, nil
}

// Attach adds the provider's secrets (the API key, configured header
// values) to the set and gives the set to the client, which hides them in
// everything the server sends.
func (k *ToolKit) Attach(c *stream.Client, s Settings) {
	k.Secrets.Add(s.APIKey)
	for _, v := range s.Headers {
		k.Secrets.Add(v)
	}
	c.Secrets = k.Secrets
}

// On reports whether a tool is switched on.
func (k *ToolKit) On(name string) bool { return k.Enabled[name] }

// Close shuts the MCP servers down.
func (k *ToolKit) Close() {
	if k != nil && k.MCP != nil {
		k.MCP.Close()
	}
}
