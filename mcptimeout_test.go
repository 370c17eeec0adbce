package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// testMCPServer builds session/tools' test MCP server.
func testMCPServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpserver")
	if out, err := exec.Command("go", "build", "-o", bin, "./session/tools/testdata/mcpserver").CombinedOutput(); err != nil {
		t.Fatalf("build the test MCP server: %v\n%s", err, out)
	}
	return bin
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
