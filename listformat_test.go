package main

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
)

// TestOneJSONSpelling: every command that lists takes --format json, and
// --json as its alias, and the two print the same JSON Lines; another
// format is one usage line.
func TestOneJSONSpelling(t *testing.T) {
	cfg := providerConfig(t, "[[mcp_servers]]\nname = \"local\"\ncommand = [\"node\", \"x.js\"]\n[[mcp_servers]]\nname = \"net\"\nurl = \"http://127.0.0.1:1/mcp\"\n")
	data := t.TempDir()
	for _, cmd := range [][]string{
		{"sessions", "list"},
		{"sessions", "search", "nothing"},
		{"prompts"},
		{"providers"},
		{"mcp", "list"},
	} {
		args := append(append([]string{}, cmd...), "--data-dir", data)
		if cmd[0] != "sessions" || cmd[1] == "list" {
			args = append(args, "--config", cfg)
		}
		a, errA, codeA := runnel(t, "", append(args, "--format", "json")...)
		b, errB, codeB := runnel(t, "", append(args, "--json")...)
		if codeA != codeB || errA != errB || a != b || (codeA != exitOK && cmd[1] != "search") {
			t.Errorf("%v: --format json (exit %d %q) and --json (exit %d %q) differ:\n%s\n%s", cmd, codeA, errA, codeB, errB, a, b)
		}
		sc := bufio.NewScanner(strings.NewReader(a))
		for sc.Scan() {
			if !json.Valid(sc.Bytes()) {
				t.Errorf("%v: not a JSON line: %q", cmd, sc.Text())
			}
		}
		if _, errOut, code := runnel(t, "", append(args, "--format", "yaml")...); code != exitUsage || !strings.Contains(errOut, "--format yaml: this command writes text or json") {
			t.Errorf("%v --format yaml: exit %d %q", cmd, code, errOut)
		}
	}
	out, _, _ := runnel(t, "", "mcp", "list", "--config", cfg, "--data-dir", data, "--format", "json")
	if !strings.Contains(out, `{"name":"local","command":"node x.js","login":"-"}`) || !strings.Contains(out, `"url":"http://127.0.0.1:1/mcp"`) {
		t.Errorf("mcp list --format json:\n%s", out)
	}
}
