package main

import (
	"strings"
	"testing"

	"runnel/session/store"
	"runnel/stream/streamtest"
)

// onlySession is the one session saved in dir.
func onlySession(t *testing.T, dir string) *store.Session {
	t.Helper()
	db, err := store.Open(dir + "/runnel.db")
	if err != nil {
		t.Fatal(err)
	}
	id, err := db.Latest()
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	return loadSession(t, dir, id)
}

// TestOneShotSendsHistoryToAServerThatIgnoresTheChain: runnel -p, then
// runnel -c -p twice, against Ollama and llama.cpp (which ignore
// previous_response_id). The second run's chained attempt stops at its
// first response object and goes again with the first turn, with one line
// on stderr; nothing of the attempt reaches stdout or the history; the
// third run sends the history without trying the chain first.
func TestOneShotSendsHistoryToAServerThatIgnoresTheChain(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	for _, p := range []streamtest.Personality{streamtest.Ollama(), streamtest.LlamaCpp()} {
		t.Run(p.Name, func(t *testing.T) {
			srv := streamtest.NewAs(t, p, streamtest.CountingModel())
			dir := t.TempDir()
			base := []string{"--data-dir", dir, "--base-url", srv.URL, "--format", "text"}
			if out, errOut, code := runnel(t, "", append(base, "-p", "one")...); code != exitOK || !strings.Contains(out, "Answer 1") {
				t.Fatalf("first run: exit %d out %q err %q", code, out, errOut)
			}
			out, errOut, code := runnel(t, "", append(base, "-c", "-p", "two")...)
			if code != exitOK || strings.TrimSpace(out) != "Answer 3 (saw 2 user messages)" {
				t.Fatalf("second run: exit %d out %q err %q", code, out, errOut)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "runnel: 127.0.0.1:") ||
				!strings.Contains(errOut, "keeps no conversation state (it ignored previous_response_id) — sending the history with each turn from now on") {
				t.Errorf("stderr %q; want the one notice", errOut)
			}
			ex := srv.Exchanges()
			if len(ex) != 3 || ex[1].Request.PreviousResponseID() == "" || ex[2].Request.PreviousResponseID() != "" {
				t.Fatalf("%d requests; want the chained attempt, then the resend", len(ex))
			}
			if seen := strings.Join(streamtest.Transcript(ex[2].Seen), "\n"); !strings.Contains(seen, "user: one") || !strings.Contains(seen, "Answer 1") {
				t.Errorf("the resend carried:\n%s", seen)
			}

			out, errOut, code = runnel(t, "", append(base, "-c", "-p", "three")...)
			if code != exitOK || strings.TrimSpace(out) != "Answer 4 (saw 3 user messages)" || errOut != "" {
				t.Errorf("third run: exit %d out %q err %q", code, out, errOut)
			}
			if ex = srv.Exchanges(); len(ex) != 4 || ex[3].Request.PreviousResponseID() != "" {
				t.Errorf("the third run tried the chain first (%d requests)", len(ex))
			}
			s := onlySession(t, dir)
			var texts []string
			for _, st := range s.Turns {
				for _, r := range st.Responses {
					for _, it := range r.Items {
						texts = append(texts, string(it.Raw))
					}
				}
			}
			if all := strings.Join(texts, "\n"); len(s.Turns) != 3 || strings.Contains(all, "Answer 2") || !strings.Contains(all, "Answer 3") {
				t.Errorf("%d turns saved:\n%s", len(s.Turns), all)
			}
		})
	}
}

// TestOneShotFallsBackWhenTheChainIsNotFound: vLLM without its store
// answers 404 "Response with id … not found."; the turn goes again with
// the history, and the server is remembered as keeping no state (vLLM
// keeps responses in memory, if at all), as the chat remembers it: the
// next run sends the history at once. OpenAI's expired response (a 400
// not found) is resent too, but its next run chains again.
func TestOneShotFallsBackWhenTheChainIsNotFound(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	srv := streamtest.NewAs(t, streamtest.VLLMNoStore(), streamtest.CountingModel())
	dir := t.TempDir()
	base := []string{"--data-dir", dir, "--base-url", srv.URL, "--format", "text"}
	runnel(t, "", append(base, "-p", "one")...)
	out, errOut, code := runnel(t, "", append(base, "-c", "-p", "two")...)
	if code != exitOK || strings.TrimSpace(out) != "Answer 2 (saw 2 user messages)" {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "keeps no conversation state (it lost the response it gave)") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr %q", errOut)
	}
	if ex := srv.Exchanges(); len(ex) != 3 || ex[1].Status != 404 {
		t.Fatalf("%d requests", len(ex))
	}
	out, errOut, code = runnel(t, "", append(base, "-c", "-p", "three")...)
	if ex := srv.Exchanges(); code != exitOK || errOut != "" || len(ex) != 4 || ex[3].Request.PreviousResponseID() != "" || !strings.Contains(out, "saw 3 user messages") {
		t.Fatalf("the next run tried the chain again: exit %d out %q err %q, %d requests", code, out, errOut, len(ex))
	}

	// a stateful server whose stored response expired: sent again, and the
	// next run chains again
	stateful := streamtest.NewAs(t, streamtest.OpenAI(), streamtest.CountingModel())
	dir2, _ := seedChained(t, "resp_expired")
	out, errOut, code = runnel(t, "", "--data-dir", dir2, "--base-url", stateful.URL, "--format", "text", "-c", "-p", "and then?")
	if code != exitOK || !strings.Contains(out, "Answer 1") || !strings.Contains(errOut, "no longer has the previous response") {
		t.Fatalf("expired: exit %d out %q err %q", code, out, errOut)
	}
	runnel(t, "", "--data-dir", dir2, "--base-url", stateful.URL, "--format", "text", "-c", "-p", "more")
	if ex := stateful.Exchanges(); len(ex) != 3 || ex[2].Chained == "" {
		t.Errorf("after an expired response the next run chains again: %d requests", len(ex))
	}
}
