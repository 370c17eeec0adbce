package tools

// This file builds the one environment every child process runnel starts
// gets: [[functions]], local MCP servers, hosted tools'
// authorization_command, notify_command and provider.api_key_command (and
// so whatever each of them starts). None of them sees a variable runnel
// reads a secret from, unless a tool's pass_api_key or env_passthrough
// hands it one.

import (
	"os"
	"slices"
)

// ChildEnv is runnel's own environment without the variables named in
// hidden (the config's secret variables: Config.SecretEnv), plus extra.
// Every child process runnel starts gets its environment from here.
func ChildEnv(hidden []string, extra ...string) []string {
	return childEnv(os.Environ(), hidden, extra...)
}

// childEnv is base without hidden, plus extra.
func childEnv(base []string, hidden []string, extra ...string) []string {
	out := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		name, _, _ := splitEnv(kv)
		if !slices.Contains(hidden, name) {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}

func splitEnv(kv string) (name, value string, ok bool) {
	for i := 1; i < len(kv); i++ { // from 1: Windows has "=C:=C:\\" entries
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return kv, "", false
}
