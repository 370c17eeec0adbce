package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// testMCPServer builds session/tools' test MCP server, once per run.
func testMCPServer(t *testing.T) string {
	t.Helper()
	return build(t, "./session/tools/testdata/mcpserver")
}

// TestOneShotMCPCallTimeout: `runnel -p --yes` with an MCP tool that never
// answers ends the call at the server's timeout with one line naming the
// server and the tool, on stderr and as the call's output, and finishes
// the turn.
func TestOneShotMCPCallTimeout(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte(`[[mcp_servers]]
name = "stuck"
command = "`+testMCPServer(t)+`"
timeout = "200ms"
`), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_call","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","name":"stuck__hang","call_id":"call_1","arguments":"{}","status":"completed"}}`,
		`{"type":"response.completed","response":{"id":"resp_call","status":"completed","output":[]}}`,
	)}, streamtest.Reply{SSE: streamtest.Text("resp_answer", "the tool hung")})
	out, errOut, code := runnel(t, "", "-p", "call it", "--yes", "--config", cfg, "--base-url", srv.URL, "--format", "markdown")
	line := "mcp server stuck: tool hang did not answer within 200ms (timeout in [[mcp_servers]])"
	if code != exitOK || !strings.Contains(out, "the tool hung") || !strings.Contains(errOut, "runnel: "+line+"\n") {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), `"output":"error: `+line) {
		t.Errorf("the model did not get the error as the call's output: %d requests", len(reqs))
	}
}

// TestChatMCPStartingShown: in the chat, a silent MCP server is named in the
// status line while runnel waits for it, and its failure to start is a
// notice once startup_timeout has passed; the chat is usable meanwhile.
func TestChatMCPStartingShown(t *testing.T) {
	t.Parallel()
	cfgDir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfgDir, "runnel"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "runnel", "config.toml"), []byte(`[[mcp_servers]]
name = "mute"
command = "`+testMCPServer(t)+`"
args = ["silent"]
startup_timeout = "1s"
`), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := streamtest.New(t)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_DATA_HOME": t.TempDir(), "XDG_CONFIG_HOME": cfgDir}
	p := startPane(t, 100, 30, env, binary(t))
	p.waitText("starting MCP server mute…")
	s := p.waitText("mcp server mute did not start: no answer to initialize within 1s")
	if !strings.Contains(s, "not running: mute") {
		t.Errorf("status line after the failed start:\n%s", s)
	}
}
