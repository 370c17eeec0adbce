package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

func toolConfig(t *testing.T, approval string) string {
	path := filepath.Join(t.TempDir(), "config.toml")
	cfg := `[[functions]]
name = "echo_args"
description = "Echo the arguments"
parameters = { type = "object", properties = { x = { type = "integer" } }, required = ["x"] }
command = ["cat"]
approval = "` + approval + `"
`
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func functionCallStream(respID string) []byte {
	return streamtest.Events(
		`{"type":"response.created","response":{"id":"`+respID+`","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","name":"echo_args","call_id":"call_1","arguments":""}}`,
		`{"type":"response.function_call_arguments.done","output_index":0,"arguments":"{\"x\":41}"}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","name":"echo_args","call_id":"call_1","arguments":"{\"x\":41}","status":"completed"}}`,
		`{"type":"response.completed","response":{"id":"`+respID+`","status":"completed","output":[]}}`,
	)
}

// TestOneShotRunsLocalFunction: the model calls a local function; runnel runs
// it and sends the function_call_output back, chained, until the answer.
func TestOneShotRunsLocalFunction(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: functionCallStream("resp_call")}, streamtest.Reply{SSE: streamtest.Text("resp_answer", "the answer is 41")})
	out, errOut, code := runnel(t, "", "-p", "call it", "--config", toolConfig(t, "never"), "--base-url", srv.URL, "--format", "markdown")
	if code != exitOK || !strings.Contains(out, "the answer is 41") {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := string(reqs[0].Body)
	if !strings.Contains(first, `"name":"echo_args"`) || !strings.Contains(first, `"type":"function"`) {
		t.Errorf("the function tool was not offered: %s", first)
	}
	second := string(reqs[1].Body)
	if reqs[1].PreviousResponseID() != "resp_call" || !strings.Contains(second, `"type":"function_call_output"`) ||
		!strings.Contains(second, `"call_id":"call_1"`) || !strings.Contains(second, `{\"x\":41}`) {
		t.Errorf("second request: %s", second)
	}
}

// TestOneShotRefusesApprovalToolsWithoutYes: a tool that needs approval is
// refused in -p unless --yes, and the refusal is explained on stderr.
func TestOneShotRefusesApprovalToolsWithoutYes(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: functionCallStream("resp_call")}, streamtest.Reply{SSE: streamtest.Text("resp_answer", "ok")})
	_, errOut, code := runnel(t, "", "-p", "call it", "--config", toolConfig(t, "always"), "--base-url", srv.URL, "--format", "markdown")
	if code != exitOK || !strings.Contains(errOut, "echo_args") || !strings.Contains(errOut, "--yes") {
		t.Fatalf("exit %d err %q", code, errOut)
	}
	if second := string(srv.Requests()[1].Body); strings.Contains(second, `{\"x\":41}`) || !strings.Contains(second, "function_call_output") {
		t.Errorf("the refused tool ran, or no output went back: %s", second)
	}

	srv.Enqueue(streamtest.Reply{SSE: functionCallStream("resp_call2")}, streamtest.Reply{SSE: streamtest.Text("resp_answer2", "ok")})
	_, errOut, code = runnel(t, "", "-p", "call it", "--yes", "--config", toolConfig(t, "always"), "--base-url", srv.URL, "--format", "markdown")
	reqs := srv.Requests()
	if code != exitOK || !strings.Contains(string(reqs[len(reqs)-1].Body), `{\"x\":41}`) {
		t.Errorf("with --yes the tool should run: exit %d err %q", code, errOut)
	}
}

func TestOneShotUnknownTool(t *testing.T) {
	_, errOut, code := runnel(t, "", "-p", "x", "--tool", "nope", "--base-url", "http://127.0.0.1:1")
	if code != exitUsage || !strings.Contains(errOut, "--tool nope") {
		t.Errorf("exit %d err %q", code, errOut)
	}
}
