package ui

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"runnel/session"
	"runnel/session/models"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// statelessChat is a chat with a history database and a memory directory,
// talking to srv.
func statelessChat(t *testing.T, srv *streamtest.Server, cacheDir string) *Model {
	t.Helper()
	db := openDB(t)
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, DB: db,
		Settings: session.Settings{Model: "m", Store: true}, Models: models.Lister{CacheDir: cacheDir}})
	m.Init()
	return m
}

func say(t *testing.T, m *Model, text string) {
	t.Helper()
	m.Update(SubmitMsg{Text: text})
	pump(t, m, nil)
}

// TestChatNoticesAServerThatIgnoresTheChain: against Ollama and llama.cpp
// (which ignore previous_response_id), the second turn's chained attempt is
// stopped at its first response object and sent again with the first
// turn; the notice shows once; the discarded answer shows nowhere and is
// not saved; the third turn sends the history without a first try; and a
// later run remembers the provider.
func TestChatNoticesAServerThatIgnoresTheChain(t *testing.T) {
	t.Parallel()
	for _, p := range []streamtest.Personality{streamtest.Ollama(), streamtest.LlamaCpp()} {
		t.Run(p.Name, func(t *testing.T) {
			srv := streamtest.NewAs(t, p, streamtest.CountingModel())
			cache := t.TempDir()
			m := statelessChat(t, srv, cache)
			say(t, m, "one")
			say(t, m, "two")
			ex := srv.Exchanges()
			if len(ex) != 3 || ex[1].Request.PreviousResponseID() == "" || ex[2].Request.PreviousResponseID() != "" {
				t.Fatalf("%d requests; want the first, the chained attempt, then the resend without a chain", len(ex))
			}
			if seen := strings.Join(streamtest.Transcript(ex[2].Seen), "\n"); !strings.Contains(seen, "user: one") || !strings.Contains(seen, "Answer 1") || !strings.Contains(seen, "user: two") {
				t.Errorf("the resend carried:\n%s", seen)
			}
			notice := session.ProviderName(session.ProviderKey(srv.URL)) + " keeps no conversation state"
			v := plain(m)
			if strings.Count(v, notice) != 1 {
				t.Errorf("want the notice once:\n%s", v)
			}
			if strings.Contains(v, "Answer 2") || !strings.Contains(v, "Answer 3 (saw 2 user messages)") {
				t.Errorf("the discarded attempt shows, or the resend does not:\n%s", v)
			}

			say(t, m, "three")
			ex = srv.Exchanges()
			if len(ex) != 4 || ex[3].Request.PreviousResponseID() != "" || !strings.Contains(plain(m), "Answer 4 (saw 3 user messages)") {
				t.Fatalf("the third turn: %d requests, chain %q\n%s", len(ex), ex[len(ex)-1].Request.PreviousResponseID(), plain(m))
			}
			if strings.Count(plain(m), notice) != 1 {
				t.Errorf("the notice came again:\n%s", plain(m))
			}
			s := loadOnly(t, m, m.opts.DB)
			var saved []string
			for _, st := range s.Turns {
				for _, r := range st.Responses {
					for _, it := range r.Items {
						if x, err := stream.ItemFromJSON(it.Raw); err == nil {
							saved = append(saved, x.Text())
						}
					}
				}
			}
			if got := strings.Join(saved, " | "); strings.Contains(got, "Answer 2") || len(s.Turns) != 3 {
				t.Errorf("%d turns saved: %s", len(s.Turns), got)
			}

			// a later run: the first chained turn sends the history at once
			later := statelessChat(t, srv, cache)
			say(t, later, "four")
			say(t, later, "five")
			ex = srv.Exchanges()
			if len(ex) != 6 || ex[5].Request.PreviousResponseID() != "" || strings.Contains(plain(later), "keeps no conversation state") {
				t.Errorf("a later run chained again (%d requests):\n%s", len(ex), plain(later))
			}
		})
	}
}

// TestChatKeepsTurnOneOnLiveServers: three turns against servers shaped
// like the live recordings — llama-server, which refuses
// previous_response_id with its recorded body, and responses.js, which
// drops it without a word and refuses its own reasoning items sent back
// (its recorded zod body): every turn knows turn 1, the third is sent once,
// and what was learned shows in /status. The rules are the turn engine's
// (session: TestEngineNegotiatesEveryLiveRefusal); this is the chat's wiring.
func TestChatKeepsTurnOneOnLiveServers(t *testing.T) {
	refusal := func(name string) []byte {
		data, err := os.ReadFile(sharedtest.Path(t, "fixtures", "live", "errors", name))
		if err != nil {
			t.Fatal(err)
		}
		var f struct{ Body string }
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		return []byte(f.Body)
	}
	count := streamtest.CountingModel()
	thinking := func(seen []json.RawMessage) streamtest.Output {
		o := count(seen)
		o.Reasoning = "thinking it over"
		return o
	}
	for _, c := range []struct {
		p       streamtest.Personality
		learned string
	}{
		{streamtest.LlamaCppServer(refusal("llamacpp-previous-response-id-400.json")), "keeps no state"},
		{streamtest.ResponsesJS(refusal("responsesjs-reasoning-item-in-input-400.json")), "refuses reasoning items in input"},
	} {
		t.Run(c.p.Name, func(t *testing.T) {
			srv := streamtest.NewAs(t, c.p, thinking)
			m := statelessChat(t, srv, t.TempDir())
			say(t, m, "one")
			say(t, m, "two")
			before := len(srv.Exchanges())
			say(t, m, "three")
			v := plain(m)
			if !strings.Contains(v, "saw 2 user messages") || !strings.Contains(v, "saw 3 user messages") || len(srv.Exchanges()) != before+1 {
				t.Errorf("%d requests for turn 3:\n%s", len(srv.Exchanges())-before, v)
			}
			knobSlash(t, m, "status")
			if v := plain(m); !strings.Contains(v, c.learned) {
				t.Errorf("/status does not say what was learned (%q):\n%s", c.learned, v)
			}
		})
	}
}

// TestChatKeepsChainingWithAStatefulServer: OpenAI's and vLLM's (with its
// store) echo the chain; nothing is noticed and every turn chains.
func TestChatKeepsChainingWithAStatefulServer(t *testing.T) {
	t.Parallel()
	for _, p := range []streamtest.Personality{streamtest.OpenAI(), streamtest.VLLM(), streamtest.LMStudio()} {
		t.Run(p.Name, func(t *testing.T) {
			srv := streamtest.NewAs(t, p, streamtest.CountingModel())
			m := statelessChat(t, srv, t.TempDir())
			say(t, m, "one")
			say(t, m, "two")
			ex := srv.Exchanges()
			if len(ex) != 2 || ex[1].Chained == "" || strings.Contains(plain(m), "keeps no conversation state") {
				t.Errorf("%d requests, chained %q:\n%s", len(ex), ex[len(ex)-1].Chained, plain(m))
			}
		})
	}
}
