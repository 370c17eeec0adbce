package stream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
)

// TestLiveFixtureFiles walks every file of fixtures/live (answers recorded
// from llama.cpp and responses.js running on the recording machine) by
// what it is: each stream has its expected items (TestEveryFixture
// replays them), each whole Response object (stream: false) reads as the
// final response, with its items, through the bare-response path, and
// each error answer (JSON, zod or an HTML page) reads as one line that
// names its status. A file of a kind not listed here fails the test, so
// none is skipped unseen.
func TestLiveFixtureFiles(t *testing.T) {
	dir := sharedtest.Path(t, "fixtures", "live")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	counts := map[string]int{}
	for _, path := range files {
		rel, _ := filepath.Rel(dir, path)
		name := filepath.Base(path)
		if strings.HasPrefix(rel, "expected"+string(filepath.Separator)) || strings.HasPrefix(rel, "errors"+string(filepath.Separator)) {
			continue // the summaries, and the refusal table (session's)
		}
		switch {
		case strings.HasSuffix(name, ".headers"):
			counts["headers"]++
		case strings.HasSuffix(name, ".sse"):
			counts["sse"]++
			exp := filepath.Join(dir, "expected", strings.TrimSuffix(rel, ".sse")+".jsonl")
			if _, err := os.Stat(exp); err != nil {
				t.Errorf("%s: no expected items (%v)", rel, err)
			}
		case strings.Contains(name, ".error."):
			counts["error"]++
			t.Run(rel, func(t *testing.T) { checkLiveError(t, path) })
		case strings.HasSuffix(name, ".json"):
			counts["json"]++
			t.Run(rel, func(t *testing.T) { checkLiveJSON(t, path) })
		default:
			t.Errorf("%s: a file of a kind this test does not know", rel)
		}
	}
	if counts["sse"] != 22 || counts["json"] < 6 || counts["error"] < 10 || counts["headers"] == 0 {
		t.Errorf("files by kind %v; want 22 streams, the whole answers and the error answers", counts)
	}
}

// checkLiveJSON: a whole Response object is the final response, read
// through the bare-response path as a gateway's would be; the model list
// is JSON and nothing more is asked of it.
func checkLiveJSON(t *testing.T, path string) {
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var probe struct {
		Object string            `json:"object"`
		Status string            `json:"status"`
		Output []json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(body, &probe); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if probe.Object != "response" {
		return // the model list
	}
	acc, probs := replay(t, sse(string(bytes.TrimSpace(body))))
	rs := acc.Responses()
	if len(probs) > 0 || len(rs) != 1 || !rs[0].Terminal || rs[0].Status != probe.Status || len(rs[0].Items) != len(probe.Output) || rs[0].ID == "" {
		t.Fatalf("problems %v, %d responses", probs, len(rs))
	}
	for i, it := range rs[0].Items {
		if it.Type == "" || (it.Type == "message" && it.Text() == "") {
			t.Errorf("item %d: %s with no text", i, it.Type)
		}
	}
}

// checkLiveError: the recorded error answer, with its status and
// Content-Type, reads as one line naming the status.
func checkLiveError(t *testing.T, path string) {
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	hdr, err := os.ReadFile(strings.SplitN(path, ".error.", 2)[0] + ".headers")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(append(bytes.TrimRight(hdr, "\r\n"), "\r\n\r\n"...))), nil)
	if err != nil {
		t.Fatalf("headers: %v", err)
	}
	e := parseAPIError(resp, body, "tiny")
	line := e.Error()
	if line == "" || strings.ContainsAny(line, "\n\r\x1b") || !strings.Contains(line, itoa(resp.StatusCode)) {
		t.Errorf("status %d: %q", resp.StatusCode, line)
	}
}
