package config

// This file sets up tools for a session: the config's hosted tools, local
// functions and MCP servers, filtered by --tool.

import (
	"context"
	"fmt"
	"strings"

	"runnel/session/tools"
)

// ToolKit is everything a session needs to offer and run tools.
type ToolKit struct {
	Config  tools.Config
	MCP     *tools.Manager  // nil when no MCP server is configured
	Enabled map[string]bool // tool name → on
}

// StartTools checks the --tool names in only (none: the config's defaults)
// and starts the MCP servers; warn hears about servers that fail.
func (cfg Config) StartTools(ctx context.Context, only []string, warn func(error)) (*ToolKit, error) {
	tc, err := cfg.ToolSet()
	if err != nil {
		return nil, err
	}
	k := &ToolKit{Config: tc, Enabled: map[string]bool{}}
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
	if len(tc.Servers) > 0 {
		k.MCP = tools.StartMCP(ctx, tc, warn)
	}
	return k, nil
}

// On reports whether a tool is switched on.
func (k *ToolKit) On(name string) bool { return k.Enabled[name] }

// Close shuts the MCP servers down.
func (k *ToolKit) Close() {
	if k != nil && k.MCP != nil {
		k.MCP.Close()
	}
}
