package toolrun

// This file builds the one environment every child process runnel starts
// gets: [[functions]], local MCP servers, hosted tools'
// authorization_command, notify_command, provider.api_key_command, a
// !command, the status line's command, $EDITOR, the browser of `runnel mcp
// login`, the clipboard readers and the questions asked of tmux (and so
// whatever each of them starts). None of them sees a variable runnel reads
// a secret from, unless a tool's pass_api_key or env_passthrough hands it
// one. A test (childenv_guard_test.go) fails when a process is started
// anywhere without it.

import (
	"os"
	"slices"
)

// Environ is an environment built by ChildEnv: a function that starts a
// process with an environment it was handed takes an Environ, never a
// plain []string, so the guard test can tell where it came from.
type Environ []string

// ChildEnv is runnel's own environment without the variables named in
// hidden (the config's secret variables: Config.SecretEnv), plus extra.
// Every child process runnel starts gets its environment from here.
func ChildEnv(hidden []string, extra ...string) Environ {
	return childEnv(os.Environ(), hidden, extra...)
}

// childEnv is base without hidden, plus extra.
func childEnv(base []string, hidden []string, extra ...string) Environ {
	out := make(Environ, 0, len(base)+len(extra))
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
