package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"runnel/session/attach"
	"runnel/session/store"
	"runnel/stream/streamtest"
)

// TestPipedStdinIsNotThePrompt: piped text goes to the model as a text
// file named stdin, so the session is titled from -p's prompt (or from the
// file's name when there is none) and the prompt history (↑, ctrl+g) holds
// only what was typed, never the piped log.
func TestPipedStdinIsNotThePrompt(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "A summary.")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "Four.")})
	dir := t.TempDir()
	const log = "2026-01-02 ERROR disk full\n2026-01-02 ERROR retrying\n"
	if _, errOut, code := runnel(t, log, "--data-dir", dir, "--base-url", srv.URL, "--format", "text", "-p", "summarize this log"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, errOut, code := runnel(t, "what is 2+2\n", "--data-dir", dir, "--base-url", srv.URL, "--format", "text"); code != exitOK {
		t.Fatalf("stdin alone: exit %d: %s", code, errOut)
	}
	input := string(srv.Requests()[0].Body)
	if !strings.Contains(input, `"summarize this log"`) || !strings.Contains(input, `path=\"stdin\"`) || !strings.Contains(input, "ERROR disk full") {
		t.Errorf("first request: %s", input)
	}
	db, err := store.Open(filepath.Join(dir, "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	infos, err := db.List(0)
	if err != nil || len(infos) != 2 {
		t.Fatalf("%d sessions, %v", len(infos), err)
	}
	if infos[1].Title != "summarize this log" || infos[0].Title != "stdin" {
		t.Errorf("titles %q and %q; want the prompt, then the file's name", infos[1].Title, infos[0].Title)
	}
	prompts, err := db.Prompts(0)
	if err != nil || !slices.Equal(prompts, []string{"summarize this log"}) {
		t.Errorf("prompt history %q %v; want only the typed prompt", prompts, err)
	}
	s, _, err := db.Load(infos[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if files := attach.FromInput(s.Turns[0].Input); len(files) != 1 || files[0].Name != "stdin" {
		t.Errorf("stdin alone is shown as %+v; want the stdin file", files)
	}
}
