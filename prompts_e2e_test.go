package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// TestChatPromptFiles: in the chat a project's prompts are asked about
// once, at the first /NAME of one, never at start (the welcome is the
// first screen and keys typed at once are the composer's); y allows them
// and runs the /NAME that asked; /rev completes to the global /review,
// which sends its template with its file, instructions and model.
// Started again, the chat does not ask.
func TestChatPromptFiles(t *testing.T) {
	t.Parallel()
	home, wd := t.TempDir(), t.TempDir()
	for _, d := range []string{filepath.Join(home, "config", "runnel", "prompts"), filepath.Join(wd, ".runnel", "prompts")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(home, "config", "runnel", "prompts", "review.md"), []byte("+++\ndescription = \"Review code for bugs\"\ninstructions = \"You review code.\"\nmodel = \"gpt-5-mini\"\n+++\nReview @main.go for {{input}}\n"))
	write(t, filepath.Join(wd, ".runnel", "prompts", "deploy.md"), []byte("+++\ndescription = \"Deploy notes\"\ninstructions = \"You write deploy notes.\"\n+++\nDeploy notes for {{input}}\n"))
	write(t, filepath.Join(wd, "main.go"), []byte("package main // e2e"))
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "notes written")}, streamtest.Reply{SSE: streamtest.Text("resp_2", "reviewed it")})
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "HOME": home,
		"XDG_CONFIG_HOME": filepath.Join(home, "config"), "XDG_DATA_HOME": filepath.Join(home, "data")}
	start := func() *pane {
		return startPane(t, 100, 30, env, "sh", "-c", "cd "+shellQuote(wd)+" && exec "+shellQuote(binary(t)))
	}
	p := start()
	p.waitText("Ask anything")
	if s := p.screen(); strings.Contains(s, "Use this project's prompt files?") {
		t.Fatalf("asked at start:\n%s", s)
	}
	p.say("/deploy v2")
	p.waitText("Use this project's prompt files?")
	p.keys("y")
	p.waitText("project prompts allowed: /deploy")
	p.waitText("notes written")
	p.text("/rev")
	p.waitText("/review [INPUT]")
	p.keys("Tab")
	p.say("races")
	s := p.waitFor("the turn to end", func(s string) bool {
		return strings.Contains(s, "reviewed it") && strings.Contains(lastLines(s, 3), "ready")
	})
	if !strings.Contains(s, "▸ /review — its instructions, model gpt-5-mini, for this turn") || !strings.Contains(s, "attached: [main.go") {
		t.Errorf("screen:\n%s", s)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	second, first := reqs[0].JSON(), reqs[1].JSON() // /deploy went first, once allowed
	if first["instructions"] != "You review code." || first["model"] != "gpt-5-mini" || !strings.Contains(string(reqs[1].Body), "package main // e2e") {
		t.Errorf("the /review request %s", reqs[1].Body)
	}
	if second["instructions"] != "You write deploy notes." || !strings.Contains(string(reqs[0].Body), "Deploy notes for v2") {
		t.Errorf("the /deploy request %s", reqs[0].Body)
	}
	p.quit()
	p.waitText("[exited")

	p = start()
	p.waitText("Ask anything")
	p.text("/dep") // with the question open, the keys would go to it
	if s := p.waitText("/deploy [INPUT]"); strings.Contains(s, "Use this project's prompt files?") {
		t.Errorf("asked again:\n%s", s)
	}
}
