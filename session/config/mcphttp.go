package config

// This file checks and sets up [[mcp_servers]] on the network (url): the
// keys that apply to them, the bearer token and the saved OAuth login.

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"runnel/session/mcpauth"
)

// validateHTTP checks url, transport, headers and bearer_token_env.
func (s *MCPServerConfig) validateHTTP(bad func(key, format string, args ...any) error) error {
	if s.URL == "" {
		for key, set := range map[string]bool{"transport": s.Transport != "", "headers": len(s.Headers) > 0, "bearer_token_env": s.BearerTokenEnv != ""} {
			if set {
				return bad(key, "applies to a server on the network only; set url, or remove %s", key)
			}
		}
		return nil
	}
	if s.Command != nil {
		return bad("url", "a server has either a command (run here) or a url (on the network), not both")
	}
	if u, err := url.Parse(s.URL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return bad("url", "%q is not an http(s) URL; write it as https://host/path", s.URL)
	}
	if s.Transport != "" && s.Transport != "sse" && s.Transport != "streamable" {
		return bad("transport", "%q is not a transport; use \"streamable\" (the default) or \"sse\"", s.Transport)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		if err := checkHeader(k, s.Headers[k]); err != nil {
			return bad("headers", "%v", err)
		}
	}
	if s.BearerTokenEnv != "" && !validEnvName(s.BearerTokenEnv) {
		return bad("bearer_token_env", "%q is not an environment variable name (letters, digits and _)", s.BearerTokenEnv)
	}
	return nil
}

// networkAuth gives each network server of tc its credentials: the bearer
// token from bearer_token_env (read with env), else the saved OAuth login
// in store (a server without one is asked without, and says so if it wants
// one). Every token joins k.Secrets.
func (cfg Config) networkAuth(k *ToolKit, env func(string) string) error {
	store := mcpauth.StoreIn(cfg.MCPAuthDir)
	for i, s := range cfg.MCPServers {
		ts := &k.Config.Servers[i]
		if s.URL == "" {
			continue
		}
		if s.BearerTokenEnv != "" {
			tok := env(s.BearerTokenEnv)
			if tok == "" {
				return fmt.Errorf("mcp server %s: bearer_token_env %s is not set; export it or remove the key", s.Name, s.BearerTokenEnv)
			}
			k.Secrets.Add(tok)
			if ts.Headers == nil {
				ts.Headers = map[string]string{}
			}
			ts.Headers["Authorization"] = "Bearer " + tok
			continue
		}
		if hasAuthorization(ts.Headers) {
			continue
		}
		ts.OAuth = mcpauth.NewHandler(s.Name, s.URL, store, k.Secrets)
	}
	return nil
}

func hasAuthorization(h map[string]string) bool {
	for k := range h {
		if strings.EqualFold(k, "Authorization") {
			return true
		}
	}
	return false
}

// LoginStore is where `runnel mcp login` keeps logins for this config.
func (cfg Config) LoginStore() mcpauth.Store { return mcpauth.StoreIn(cfg.MCPAuthDir) }
