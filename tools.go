package main

// This file sets up tools for a session: the config's hosted tools, local
// functions and MCP servers, filtered by --tool.

import (
	"context"
	"fmt"
	"io"
	"strings"

	"runnel/session/config"
	"runnel/session/tools"
)

// toolKit is everything a session needs to offer and run tools.
type toolKit struct {
	config  tools.Config
	mcp     *tools.Manager
	enabled map[string]bool
}

// newToolKit validates --tool names and starts the MCP servers.
func newToolKit(ctx context.Context, cfg config.Config, only []string, stderr io.Writer) (*toolKit, error) {
	tc, err := cfg.ToolSet()
	if err != nil {
		return nil, err
	}
	k := &toolKit{config: tc, enabled: map[string]bool{}}
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
	if len(tc.Servers) > 0 {
		k.mcp = tools.StartMCP(ctx, tc, func(err error) { warnf(stderr, "%s", errLine(err)) })
	}
	return k, nil
}

// on reports whether a tool is switched on.
func (k *toolKit) on(name string) bool { return k.enabled[name] }

// close shuts the MCP servers down.
func (k *toolKit) close() {
	if k != nil && k.mcp != nil {
		k.mcp.Close()
	}
}
