package tools

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMCPServerEverything runs the reference server-everything over
// streamable HTTP when RUNNEL_TEST_MCP_EVERYTHING names its program
// (node_modules/.bin/mcp-server-everything, from
// `npm install @modelcontextprotocol/server-everything`); it is skipped
// otherwise, as npm is not needed to build or test runnel. Its tools,
// prompts and resources are listed, a tool is called, a prompt got and a
// resource read.
func TestMCPServerEverything(t *testing.T) {
	prog := os.Getenv("RUNNEL_TEST_MCP_EVERYTHING")
	if prog == "" {
		t.Skip("RUNNEL_TEST_MCP_EVERYTHING is not set (the path of mcp-server-everything from npm)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(prog, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.Dir = t.TempDir()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	for sc.Scan() && !strings.Contains(sc.Text(), "listening on port") {
	}
	go func() {
		for sc.Scan() {
		}
	}()
	m, r := startNet(t, Server{Name: "every", URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)})
	select {
	case err := <-r.c:
		t.Fatalf("report: %v", err)
	default:
	}
	tool, ok := m.lookup("every__echo")
	if !ok {
		t.Fatalf("no echo tool; %s", m.Summary())
	}
	got, isErr, err := m.call(t.Context(), tool, `{"message":"hello"}`, nil)
	if err != nil || isErr || !strings.Contains(got, "hello") {
		t.Fatalf("echo: %q %v %v", got, isErr, err)
	}
	if len(m.Prompts(nil)) == 0 || len(m.Resources(nil)) == 0 {
		t.Fatalf("prompts %d, resources %d", len(m.Prompts(nil)), len(m.Resources(nil)))
	}
	var simple *Prompt
	for _, p := range m.Prompts(nil) {
		if len(p.Args) == 0 {
			simple = &p
			break
		}
	}
	if simple != nil {
		if text, err := m.GetPrompt(t.Context(), "every", simple.Name, nil); err != nil || text == "" {
			t.Fatalf("prompt %s: %q %v", simple.Name, text, err)
		}
	}
	for _, res := range m.Resources(nil) {
		if strings.HasPrefix(res.MIMEType, "text/") {
			if text, err := m.ReadResource(t.Context(), "every", res.URI); err != nil || text == "" {
				t.Fatalf("resource %s: %q %v", res.URI, text, err)
			}
			break
		}
	}
	t.Logf("%s; %d prompts, %d resources", m.Summary(), len(m.Prompts(nil)), len(m.Resources(nil)))
}
