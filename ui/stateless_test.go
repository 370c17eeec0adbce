package ui

import (
	"strings"
	"testing"

	"runnel/session"
	"runnel/session/models"
	"runnel/stream"
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

// TestChatRemembersAServerThatLosesTheChain: vLLM without its store
// answers every previous_response_id with 404 "Response with id … not
// found."; the turn is sent again with the history, the provider
// remembered, and the next turn sends the history at once.
func TestChatRemembersAServerThatLosesTheChain(t *testing.T) {
	t.Parallel()
	srv := streamtest.NewAs(t, streamtest.VLLMNoStore(), streamtest.CountingModel())
	m := statelessChat(t, srv, t.TempDir())
	say(t, m, "one")
	say(t, m, "two")
	say(t, m, "three")
	ex := srv.Exchanges()
	if len(ex) != 4 || ex[1].Status != 404 || ex[3].Request.PreviousResponseID() != "" {
		t.Fatalf("%d requests; want one 404, then no chain", len(ex))
	}
	v := plain(m)
	if strings.Count(v, "keeps no conversation state (it lost the response it had just given)") != 1 || !strings.Contains(v, "saw 3 user messages") {
		t.Errorf("screen:\n%s", v)
	}
}

// TestChatRemembersARefusedChain: a server that refuses the parameter
// (Groq's 400 "property 'previous_response_id' is unsupported") is answered
// from local history and remembered.
func TestChatRemembersARefusedChain(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "first")},
		streamtest.Reply{Status: 400, Body: []byte(`{"error":{"message":"property 'previous_response_id' is unsupported","type":"invalid_request_error"}}`)},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "second")},
		streamtest.Reply{SSE: streamtest.Text("resp_3", "third")})
	m := statelessChat(t, srv, t.TempDir())
	say(t, m, "one")
	say(t, m, "two")
	say(t, m, "three")
	reqs := srv.Requests()
	if len(reqs) != 4 || reqs[1].PreviousResponseID() != "resp_1" || reqs[2].PreviousResponseID() != "" || reqs[3].PreviousResponseID() != "" {
		t.Fatalf("%d requests", len(reqs))
	}
	if v := plain(m); strings.Count(v, "it refused previous_response_id") != 1 || !strings.Contains(v, "third") {
		t.Errorf("screen:\n%s", v)
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
