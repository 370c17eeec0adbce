package main

// This file is `runnel mcp`: list the configured MCP servers with their
// login state, and log in to (or out of) a server on the network with
// OAuth (package session/mcpauth).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"runnel/session/config"
	"runnel/session/mcpauth"
	"runnel/stream"
)

// mcpAuthDir is the data directory the logins are kept in ("" when there
// is none: then nothing is saved or found).
func mcpAuthDir(o options) string {
	if o.dbPathErr != nil || o.dbPath == "" {
		return ""
	}
	return filepath.Dir(o.dbPath)
}

// addMCPCommand adds `runnel mcp list|login|logout`.
func addMCPCommand(ctx context.Context, root *cobra.Command, stdout io.Writer) {
	var o options
	load := func(cmd *cobra.Command) (config.Config, error) {
		o.dbPath, o.dbPathErr = dataDir(cmd)
		cfg, err := loadConfig(o)
		if err != nil {
			return cfg, usageErrorf("%s", errLine(err))
		}
		cfg.MCPAuthDir = mcpAuthDir(o)
		return cfg, nil
	}
	mcpCmd := &cobra.Command{
		Use:   "mcp",
		Short: "List the MCP servers ([[mcp_servers]]) and log in to those on the network",
		Args:  cobra.NoArgs,
	}
	var format *listFormat
	list := &cobra.Command{
		Use:   "list",
		Short: "List the configured MCP servers: where each runs and whether it is logged in",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			asJSON, err := format.JSON()
			if err != nil {
				return err
			}
			cfg, err := load(cmd)
			if err != nil {
				return err
			}
			return exitWith(listMCP(ctx, cfg, os.Getenv, time.Now(), asJSON, stdout))
		},
	}
	named := func(cmd *cobra.Command, name string) (config.Config, config.MCPServerConfig, error) {
		cfg, err := load(cmd)
		if err != nil {
			return cfg, config.MCPServerConfig{}, err
		}
		s, err := networkServer(cfg, name)
		return cfg, s, err
	}
	login := &cobra.Command{
		Use:   "login NAME",
		Short: "Log in to an MCP server on the network with OAuth (opens the browser, or prints the URL)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, a []string) error {
			cfg, s, err := named(cmd, a[0])
			if err != nil {
				return err
			}
			l, err := mcpauth.LogIn(ctx, mcpauth.LoginOptions{Name: s.Name, URL: s.URL, Store: cfg.LoginStore(), Out: stdout, Hidden: cfg.SecretEnv()})
			if err != nil {
				return usageErrorf("%s", errLine(err))
			}
			fmt.Fprintf(stdout, "logged in to mcp server %s (saved in %s)\n", s.Name, cfg.LoginStore().Path(l.ServerURL))
			return nil
		},
	}
	logout := &cobra.Command{
		Use:   "logout NAME",
		Short: "Forget the saved login to an MCP server",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, a []string) error {
			cfg, s, err := named(cmd, a[0])
			if err != nil {
				return err
			}
			removed, err := cfg.LoginStore().Remove(s.URL)
			switch {
			case err != nil:
				return usageErrorf("mcp server %s: %s", s.Name, errLine(err))
			case !removed:
				fmt.Fprintf(stdout, "mcp server %s: not logged in\n", s.Name)
			default:
				fmt.Fprintf(stdout, "logged out of mcp server %s\n", s.Name)
			}
			return nil
		},
	}
	names := func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cfg, _ := loadConfig(o)
		var out []cobra.Completion
		for _, s := range cfg.MCPServers {
			if s.URL != "" {
				out = append(out, s.Name)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
	for _, c := range []*cobra.Command{list, login, logout} {
		configFlags(c, &o)
		dataDirFlags(c) // the logins are kept there
		mcpCmd.AddCommand(c)
	}
	login.ValidArgsFunction, logout.ValidArgsFunction = names, names
	format = addListFormat(list, "one server")
	root.AddCommand(mcpCmd)
}

// networkServer finds the [[mcp_servers]] entry called name, which must
// have a url.
func networkServer(cfg config.Config, name string) (config.MCPServerConfig, error) {
	var urls []string
	for _, s := range cfg.MCPServers {
		if s.Name == name {
			if s.URL == "" {
				return s, usageErrorf("mcp server %s runs here (command), not on the network: it needs no login", name)
			}
			return s, nil
		}
		if s.URL != "" {
			urls = append(urls, s.Name)
		}
	}
	if len(urls) == 0 {
		return config.MCPServerConfig{}, usageErrorf("no mcp server %s: the config has no [[mcp_servers]] with a url", name)
	}
	return config.MCPServerConfig{}, usageErrorf("no mcp server %s; servers on the network: %s", name, strings.Join(urls, ", "))
}

// listMCP writes one row per server: its name, where it runs, and how it
// authenticates (loginStates).
func listMCP(ctx context.Context, cfg config.Config, env func(string) string, now time.Time, asJSON bool, stdout io.Writer) int {
	states := loginStates(ctx, cfg, env, now)
	if asJSON {
		enc := json.NewEncoder(stdout)
		for i, s := range cfg.MCPServers {
			row := mcpRow{Name: s.Name, Command: s.CommandLine(), Login: "-"}
			if s.URL != "" {
				row.Command, row.URL, row.Login = "", stream.SanitizeLine(s.URL), states[i]
			}
			if err := enc.Encode(row); err != nil {
				return exitFailure
			}
		}
		return exitOK
	}
	if len(cfg.MCPServers) == 0 {
		fmt.Fprintln(stdout, "no MCP servers are configured (see [[mcp_servers]] in config.example.toml)")
		return exitOK
	}
	w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tSERVER\tLOGIN")
	for i, s := range cfg.MCPServers {
		where, state := s.CommandLine(), "-"
		if s.URL != "" {
			where, state = s.URL, states[i]
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", s.Name, stream.SanitizeLine(where), state)
	}
	w.Flush()
	return exitOK
}

// loginStates says how each network server authenticates (loginState);
// one with no token, no Authorization header and no saved login is asked,
// all at once, each within httppolicy.MCPProbeWait (mcpauth.Probe): "no
// login needed", "not logged in (…)", or why it could not be asked.
func loginStates(ctx context.Context, cfg config.Config, env func(string) string, now time.Time) []string {
	states := make([]string, len(cfg.MCPServers))
	var wg sync.WaitGroup
	for i, s := range cfg.MCPServers {
		if s.URL == "" {
			continue
		}
		state, ask := loginState(cfg, s, env, now)
		states[i] = state
		if !ask || strings.EqualFold(s.Transport, "sse") { // an SSE endpoint takes no initialize POST: left as the config says
			continue
		}
		wg.Go(func() {
			switch p := mcpauth.Probe(ctx, s.URL, s.Headers); {
			case p.Problem != "":
				states[i] = stream.SanitizeLine(p.Problem)
			case !p.NeedsLogin:
				states[i] = "no login needed"
			}
		})
	}
	wg.Wait()
	return states
}

// mcpRow is one server of `runnel mcp list --format json`.
type mcpRow struct {
	Name    string `json:"name"`
	Command string `json:"command,omitempty"` // a server started here
	URL     string `json:"url,omitempty"`     // a server on the network
	Login   string `json:"login"`
}

// loginState says how a network server authenticates, from the config and
// the saved logins; ask is set when nothing says, and the server itself
// must be asked (loginStates).
func loginState(cfg config.Config, s config.MCPServerConfig, env func(string) string, now time.Time) (state string, ask bool) {
	if s.BearerTokenEnv != "" {
		if env(s.BearerTokenEnv) == "" {
			return "bearer token from $" + s.BearerTokenEnv + " (not set)", false
		}
		return "bearer token from $" + s.BearerTokenEnv, false
	}
	for k := range s.Headers {
		if strings.EqualFold(k, "Authorization") {
			return "Authorization header from the config", false
		}
	}
	l, err := cfg.LoginStore().Load(s.URL)
	switch {
	case err != nil:
		return "unreadable login: " + errLine(err), false
	case l == nil:
		return "not logged in (runnel mcp login " + s.Name + ")", true
	case !l.Expiry.IsZero() && now.After(l.Expiry):
		if l.RefreshToken != "" {
			return "logged in (token expired; renewed on next use)", false
		}
		return "login expired (runnel mcp login " + s.Name + ")", false
	}
	return "logged in", false
}
