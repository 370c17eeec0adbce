package main

// This file sets up tools for a session: the config's hosted tools, local
// functions and MCP servers, filtered by --tool.

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"runnel/session/tools"
	"runnel/stream"
)

// mcpSlowStart is how long an MCP server may take to start before stderr
// says runnel is waiting for it: a quick server adds no line to every -p
// run, a slow or silent one is named while runnel waits (up to its
// startup_timeout).
const mcpSlowStart = 500 * time.Millisecond

// toolKit is everything a session needs to offer and run tools, and the
// session's secret set: every value runnel knows to be secret, hidden in
// all it shows and stores (see stream.Redactor).
type toolKit struct {
	config  tools.Config
	mcp     *tools.Manager
	enabled map[string]bool
	secrets *stream.Redactor
	reports chan error // the chat's MCP reports; nil in one-shot mode
}

// newToolKit validates --tool names and starts the MCP servers, naming on
// stderr those slow to start and reporting problems there.
func newToolKit(ctx context.Context, cfg Config, only []string, stderr io.Writer) (*toolKit, error) {
	return buildToolKit(ctx, cfg, only, stderr, false)
}

// newChatToolKit is newToolKit for the chat: the MCP servers start in the
// background while the chat shows "starting MCP server X…", and problems
// go to reports, for the chat to show as notices.
func newChatToolKit(ctx context.Context, cfg Config, only []string, stderr io.Writer) (*toolKit, error) {
	return buildToolKit(ctx, cfg, only, stderr, true)
}

func buildToolKit(ctx context.Context, cfg Config, only []string, stderr io.Writer, inChat bool) (*toolKit, error) {
	tc, err := cfg.ToolSet()
	if err != nil {
		return nil, err
	}
	k := &toolKit{config: tc, enabled: map[string]bool{}, secrets: stream.NewRedactor(tc.SecretValues(os.Getenv)...)}
	names := tc.Names()
	for _, n := range names {
		k.enabled[n] = tc.EnabledByDefault(n)
	}
	if len(only) > 0 {
		for _, n := range names {
			k.enabled[n] = false
		}
		for _, n := range only {
			if _, ok := k.enabled[n]; !ok {
				if len(names) == 0 {
					return nil, fmt.Errorf("--tool %s: no tools are configured (see [[tools]], [[functions]] and [[mcp_servers]] in config.example.toml)", n)
				}
				return nil, fmt.Errorf("--tool %s: no such tool; configured: %s", n, strings.Join(names, ", "))
			}
			k.enabled[n] = true
		}
	}
	switch {
	case len(tc.Servers) == 0:
	case inChat:
		reports := make(chan error, 64)
		k.reports = reports
		k.mcp = tools.NewMCP(tc, tools.StartHooks{
			Report: func(err error) {
				select {
				case reports <- err:
				default: // the chat is not reading: the status line still says which servers are not running
				}
			},
			Secrets: k.secrets,
		})
		go k.mcp.Start(ctx)
	default:
		k.mcp = tools.StartMCPWith(ctx, tc, tools.StartHooks{
			Report:    func(err error) { warnf(stderr, "%s", errLine(err)) },
			Starting:  func(name string) { warnf(stderr, "starting MCP server %s…", name) },
			SlowAfter: mcpSlowStart,
			Secrets:   k.secrets,
		})
	}
	return k, nil
}

// attach adds the provider's secrets (the API key, configured header
// values) to the set and gives the set to the client, which hides them in
// everything the server sends.
func (k *toolKit) attach(c *stream.Client, s Settings) {
	k.secrets.Add(s.APIKey)
	for _, v := range s.Headers {
		k.secrets.Add(v)
	}
	c.Secrets = k.secrets
}

// on reports whether a tool is switched on.
func (k *toolKit) on(name string) bool { return k.enabled[name] }

// close shuts the MCP servers down.
func (k *toolKit) close() {
	if k != nil && k.mcp != nil {
		k.mcp.Close()
	}
}
