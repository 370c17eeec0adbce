package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// TestChatPromptFiles: in the chat a project's prompts are asked about
// once; y allows them; /rev completes to the global /review, which sends
// its template with its file, instructions and model; /deploy (the
// project's) sends its own. Started again, the chat does not ask.
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
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "reviewed it")}, streamtest.Reply{SSE: streamtest.Text("resp_2", "notes written")})
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "HOME": home,
		"XDG_CONFIG_HOME": filepath.Join(home, "config"), "XDG_DATA_HOME": filepath.Join(home, "data")}
	start := func() *pane {
		return startPane(t, 100, 30, env, "sh", "-c", "cd "+shellQuote(wd)+" && exec "+shellQuote(binary(t)))
	}
	p := start()
	p.waitText("Use this project's prompt files?")
	p.keys("y")
	p.waitText("project prompts allowed: /deploy")
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
	p.say("/deploy v2")
	p.waitText("notes written")
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	first, second := reqs[0].JSON(), reqs[1].JSON()
	if first["instructions"] != "You review code." || first["model"] != "gpt-5-mini" || !strings.Contains(string(reqs[0].Body), "package main // e2e") {
		t.Errorf("first request %s", reqs[0].Body)
	}
	if second["instructions"] != "You write deploy notes." || !strings.Contains(string(reqs[1].Body), "Deploy notes for v2") {
		t.Errorf("second request %s", reqs[1].Body)
	}
	p.keys("C-c")
	p.keys("C-c")
	p.waitText("[exited")

	p = start()
	p.waitText("Ask anything")
	p.text("/dep") // with the question open, the keys would go to it
	if s := p.waitText("/deploy [INPUT]"); strings.Contains(s, "Use this project's prompt files?") {
		t.Errorf("asked again:\n%s", s)
	}
}
