package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// liveRefusal is the body of one refusal in fixtures/live/errors.
func liveRefusal(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(sharedtest.Path(t, "fixtures", "live", "errors", name))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Body string `json:"body"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return []byte(f.Body)
}

// liveServers are servers shaped like the live recordings: llama-server,
// which refuses previous_response_id, and responses.js, which drops it
// without a word and refuses its own reasoning items sent back.
func liveServers(t *testing.T) map[string]streamtest.Personality {
	return map[string]streamtest.Personality{
		"llama.cpp":    streamtest.LlamaCppServer(liveRefusal(t, "llamacpp-previous-response-id-400.json")),
		"responses.js": streamtest.ResponsesJS(liveRefusal(t, "responsesjs-reasoning-item-in-input-400.json")),
	}
}

// reasoningModel is CountingModel thinking first, as a reasoning model
// behind responses.js answers.
func reasoningModel() streamtest.Model {
	count := streamtest.CountingModel()
	return func(seen []json.RawMessage) streamtest.Output {
		o := count(seen)
		o.Reasoning = "thinking it over"
		return o
	}
}

// TestOneShotKeepsTurnOneOnLiveServers: -p, then -c -p twice, against each
// live-shaped server, set up with --base-url, OPENAI_BASE_URL or a
// [providers.mine] table (all of which keep store on): every turn answers
// knowing turn 1; the third run sends what the server takes at once. The
// rules are the turn engine's (session: TestEngineNegotiatesEveryLiveRefusal);
// this is -p's wiring of them.
func TestOneShotKeepsTurnOneOnLiveServers(t *testing.T) {
	for name, p := range liveServers(t) {
		for _, setup := range []string{"--base-url", "OPENAI_BASE_URL", "[providers.mine]"} {
			t.Run(name+" "+setup, func(t *testing.T) {
				srv := streamtest.NewAs(t, p, reasoningModel())
				dir := t.TempDir()
				args := []string{"--data-dir", dir, "--format", "text"}
				switch setup {
				case "--base-url":
					args = append(args, "--base-url", srv.URL)
				case "OPENAI_BASE_URL":
					t.Setenv("OPENAI_BASE_URL", srv.URL)
				default:
					cfg := providerConfig(t, "[providers.mine]\nbase_url = \""+srv.URL+"\"\nmodel = \"tiny\"\n")
					args = append(args, "--config", cfg, "--provider", "mine")
				}
				t.Setenv("OPENAI_API_KEY", "sk-test")
				for i, prompt := range []string{"one", "two", "three"} {
					run := append([]string{}, args...)
					if i > 0 {
						run = append(run, "-c")
					}
					before := len(srv.Exchanges())
					out, errOut, code := runnel(t, "", append(run, "-p", prompt)...)
					saw := []string{"saw 1 user messages", "saw 2 user messages", "saw 3 user messages"}[i]
					if code != exitOK || !strings.Contains(out, saw) {
						t.Fatalf("run %d: exit %d out %q err %q", i+1, code, out, errOut)
					}
					sent := len(srv.Exchanges()) - before
					switch {
					case i == 1 && (errOut == "" || strings.Count(errOut, "\n") > 2):
						t.Errorf("run 2 says %q; want a line or two naming what was refused", errOut)
					case i == 2 && (errOut != "" || sent != 1):
						t.Errorf("run 3 sent %d requests and said %q; want one and nothing", sent, errOut)
					}
				}
			})
		}
	}
}

// TestOneShotOnOpenRouterByBaseURL: OPENAI_BASE_URL pointed at an
// OpenRouter-shaped server, which answers store: true with its 400 (the
// documented refusal): the first run is sent again with store: false at
// once, with one line; the next runs send store: false and the history
// from the start.
func TestOneShotOnOpenRouterByBaseURL(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{Status: 400, Body: liveRefusal(t, "openrouter-store-true-400.json")},
		streamtest.Reply{SSE: streamtest.Text("resp_1", "first")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "second")},
		streamtest.Reply{SSE: streamtest.Text("resp_3", "third")})
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	t.Setenv("OPENAI_API_KEY", "sk-or-test")
	dir := t.TempDir()
	for i, prompt := range []string{"one", "two", "three"} {
		args := []string{"--data-dir", dir, "--format", "text"}
		if i > 0 {
			args = append(args, "-c")
		}
		out, errOut, code := runnel(t, "", append(args, "-p", prompt)...)
		want := []string{"first", "second", "third"}[i]
		if code != exitOK || strings.TrimSpace(out) != want {
			t.Fatalf("run %d: exit %d out %q err %q", i+1, code, out, errOut)
		}
		if (i == 0) != (errOut != "") || (i == 0 && (strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "store"))) {
			t.Errorf("run %d said %q", i+1, errOut)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 4 || reqs[0].JSON()["store"] != true {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs[1:] {
		if r.JSON()["store"] != false || r.PreviousResponseID() != "" {
			t.Errorf("after the refusal: %s", r.Body)
		}
	}
	if in, _ := json.Marshal(reqs[3].JSON()["input"]); !strings.Contains(string(in), "one") || !strings.Contains(string(in), "second") {
		t.Errorf("the third run lost the history: %s", in)
	}
}
