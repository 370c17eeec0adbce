package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/session/knob"
)

// TestFlagsApplyWhereTheyMeanSomething: a flag a command does not read is
// an error naming that command's help, not silently ignored (`sessions
// --format json` printed the table); each command's --help lists only its
// own flags; the shared ones still work before the subcommand's name.
func TestFlagsApplyWhereTheyMeanSomething(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"sessions", "--save-images", "x"},
		{"sessions", "rm", "x", "--width", "80"},
		{"models", "--speed", "2"},
		{"providers", "--width", "80"},
		{"sessions", "--model", "gpt-5"},
	} {
		out, errOut, code := runnel(t, "", args...)
		cmd := "runnel " + strings.Join(args[:len(args)-2], " ")
		if args[1] == "rm" {
			cmd = "runnel sessions rm" // its argument is not part of the name
		}
		if code != exitUsage || out != "" || !strings.Contains(errOut, "unknown flag: "+args[len(args)-2]) ||
			!strings.Contains(errOut, "see "+cmd+" --help") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, out %q, err %q", args, code, out, errOut)
		}
	}
	help := func(args ...string) string {
		out, errOut, code := runnel(t, "", append(args, "--help")...)
		if code != exitOK {
			t.Fatalf("%v --help: exit %d %s", args, code, errOut)
		}
		return out
	}
	for _, c := range []struct {
		args       []string
		has, lacks []string
	}{
		{[]string{"sessions"}, []string{"--json", "--format", "--data-dir", "--width", "--config"}, []string{"--model", "--save-images", "--prompt"}},
		{[]string{"sessions", "rm"}, []string{"--yes", "--data-dir"}, []string{"--format", "--width", "--config", "--override"}},
		{[]string{"sessions", "export"}, []string{"--format", "--output", "--data-dir"}, []string{"--width", "--save-images", "--config"}},
		{[]string{"replay"}, []string{"--format", "--width", "--save-images", "--speed", "--config"}, []string{"--model", "--prompt", "--override"}},
		{[]string{"models"}, []string{"--json", "--format", "--model", "--provider", "--config", "--data-dir"}, []string{"--width", "--prompt"}},
		{[]string{"mcp", "list"}, []string{"--json", "--format"}, []string{"--width", "--prompt"}},
		{[]string{"prompts"}, []string{"--json", "--format"}, []string{"--width", "--prompt"}},
		{[]string{"providers", "check"}, []string{"--config", "--override", "--data-dir"}, []string{"--format", "--width"}}, // what it learns is kept in the data dir
		{nil, []string{"--prompt", "--format", "--width", "--config", "--data-dir", "--model"}, nil},
	} {
		h := help(c.args...)
		for _, f := range c.has {
			if !strings.Contains(h, f) {
				t.Errorf("runnel %v --help lacks %s:\n%s", c.args, f, h)
			}
		}
		for _, f := range c.lacks {
			if strings.Contains(h, f+" ") || strings.Contains(h, f+"\n") {
				t.Errorf("runnel %v --help lists %s, which it does not read:\n%s", c.args, f, h)
			}
		}
	}
	// the shared flags still go before the subcommand
	if _, errOut, code := runnel(t, "", "--data-dir", dir, "sessions", "--json"); code != exitOK {
		t.Errorf("--data-dir before sessions: exit %d %s", code, errOut)
	}
	if _, errOut, code := runnel(t, "", "sessions", "--width", "-1"); code != exitUsage || !strings.Contains(errOut, "--width -1") {
		t.Errorf("sessions --width -1: exit %d %s", code, errOut)
	}
}

// TestCompletionKnowsEffortsAndCachedModels: --reasoning-effort completes
// the efforts, and --model the configured model, the models `runnel models`
// cached for the provider in the data directory (not another provider's),
// and the default — on the chat and on `runnel models`.
func TestCompletionKnowsEffortsAndCachedModels(t *testing.T) {
	out, _, code := runnel(t, "", "__complete", "--reasoning-effort", "")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, e := range knob.ReasoningEfforts {
		if !strings.Contains(out, "\n"+e+"\n") && !strings.HasPrefix(out, e+"\n") {
			t.Errorf("--reasoning-effort completion lacks %q:\n%s", e, out)
		}
	}
	dir := t.TempDir()
	cache := filepath.Join(dir, "models")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(cache, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("a.json", `{"base_url":"https://api.openai.com/v1","fetched":"2020-01-02T00:00:00Z","models":[{"id":"gpt-cached-one"},{"id":"gpt-cached-two"}]}`)
	write("b.json", `{"provider":"groq","base_url":"https://api.groq.com/openai/v1","fetched":"2020-01-02T00:00:00Z","models":[{"id":"llama-elsewhere"}]}`)
	write("c.json", `not json`)
	for _, args := range [][]string{
		{"__complete", "--data-dir", dir, "--model", ""},
		{"__complete", "models", "--data-dir", dir, "--model", ""},
	} {
		out, errOut, code := runnel(t, "", args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d %s", args, code, errOut)
		}
		for _, want := range []string{"gpt-cached-one\t", "gpt-cached-two\t", "gpt-5-mini\t"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v lacks %q:\n%s", args, want, out)
			}
		}
		if strings.Contains(out, "llama-elsewhere") {
			t.Errorf("%v offers another provider's model:\n%s", args, out)
		}
	}
	out, _, _ = runnel(t, "", "__complete", "--data-dir", dir, "--provider", "groq", "--model", "")
	if !strings.Contains(out, "llama-elsewhere") || strings.Contains(out, "gpt-cached-one") {
		t.Errorf("--provider groq --model:\n%s", out)
	}
}
