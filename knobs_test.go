package main

import (
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// Each knob set with -c goes in the request body: service_tier,
// text.verbosity, and a prompt_cache_key of the session's own. A continued
// session (-c) sends its key and its tier again (the chat's /fast is kept
// with the session); prompt_cache_key=off sends none.
func TestKnobsInRequestBody(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	dir := t.TempDir()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_a", "One.")},
		streamtest.Reply{SSE: streamtest.Text("resp_b", "Two.")},
		streamtest.Reply{SSE: streamtest.Text("resp_c", "Three.")})
	base := []string{"--data-dir", dir, "--base-url", srv.URL, "--format", "text"}
	if _, errOut, code := runnel(t, "", append(base, "-c", "service_tier=flex", "-c", "verbosity=low", "-p", "one")...); code != exitOK {
		t.Fatalf("exit %d err %q", code, errOut)
	}
	if _, errOut, code := runnel(t, "", append(base, "-c", "-p", "two")...); code != exitOK {
		t.Fatalf("-c: exit %d err %q", code, errOut)
	}
	if _, errOut, code := runnel(t, "", append(base, "--no-save", "-c", "prompt_cache_key=off", "-p", "three")...); code != exitOK {
		t.Fatalf("off: exit %d err %q", code, errOut)
	}
	reqs := srv.Requests()
	first, second, third := reqs[0].JSON(), reqs[1].JSON(), reqs[2].JSON()
	text, _ := first["text"].(map[string]any)
	if first["service_tier"] != "flex" || text["verbosity"] != "low" {
		t.Fatalf("first request: service_tier %v, text %v", first["service_tier"], first["text"])
	}
	key, _ := first["prompt_cache_key"].(string)
	if !strings.HasPrefix(key, "runnel-") || second["prompt_cache_key"] != key {
		t.Fatalf("prompt_cache_key %q then %v; want the session's own, twice", key, second["prompt_cache_key"])
	}
	if _, ok := third["prompt_cache_key"]; ok {
		t.Fatalf("prompt_cache_key=off sent %v", third["prompt_cache_key"])
	}
	if second["service_tier"] != "flex" {
		t.Errorf("continued session sent service_tier %v; want the session's flex", second["service_tier"])
	}
	if _, ok := third["service_tier"]; ok {
		t.Errorf("a new session sent service_tier %v; the -c was for the first run", third["service_tier"])
	}
}

// A response that reports another tier than the one asked gives one line;
// the one asked for gives none.
func TestServiceTierDeclinedSaid(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.WithResponse(streamtest.Text("resp_a", "Slow."), map[string]any{"service_tier": "default"})},
		streamtest.Reply{SSE: streamtest.WithResponse(streamtest.Text("resp_b", "Fast."), map[string]any{"service_tier": "priority"})})
	args := []string{"--base-url", srv.URL, "--no-save", "--format", "text", "-c", "service_tier=priority", "-p", "hi"}
	out, errOut, code := runnel(t, "", args...)
	if code != exitOK || strings.TrimSpace(out) != "Slow." {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	if line := oneLine(t, errOut); !strings.Contains(line, "asked for the priority service tier") || !strings.Contains(line, "default") {
		t.Fatalf("stderr %q", line)
	}
	if out, errOut, code = runnel(t, "", args...); code != exitOK || errOut != "" {
		t.Fatalf("tier granted: exit %d out %q err %q; want no line", code, out, errOut)
	}
}
