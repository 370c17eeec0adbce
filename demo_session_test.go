package main

import (
	"strings"
	"testing"

	"runnel/session/config"
	"runnel/session/demo"
	"runnel/session/knob"
	"runnel/session/store"
	"runnel/stream/streamtest"
)

// A session the demo answered records the demo and its model, so the
// picker and `runnel sessions` name what answered it; continued later with
// a key, it goes on on the configured provider and model (not the demo's),
// sending the conversation so far instead of the demo's response ids.
func TestDemoSessionRecordsTheDemo(t *testing.T) {
	noKey(t)
	dir := t.TempDir()
	if out, errOut, code := runnel(t, "", "--data-dir", dir, "--demo", "-p", "hello", "--format", "text"); code != exitOK || out == "" {
		t.Fatalf("demo -p: exit %d out %q err %q", code, out, errOut)
	}
	list, errOut, code := historyRun(t, dir, "", false, "sessions", "list")
	if code != exitOK || !strings.Contains(list, demo.Model) || strings.Contains(list, config.DefaultModel) {
		t.Fatalf("sessions list (exit %d, err %q) does not name the demo's model %q:\n%s", code, errOut, demo.Model, list)
	}
	db, err := store.Open(dir + "/runnel.db")
	if err != nil {
		t.Fatal(err)
	}
	sid, err := db.Latest()
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got := knob.FromJSON(loadSession(t, dir, sid).Settings); got.Provider != config.DemoProvider || got.Model != demo.Model {
		t.Fatalf("stored provider %q model %q; want %q and %q", got.Provider, got.Model, config.DemoProvider, demo.Model)
	}

	t.Setenv("OPENAI_API_KEY", "sk-test")
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_real", "Real ", "answer.")})
	out, errOut, code := runnel(t, "", "--data-dir", dir, "--base-url", srv.URL, "--format", "text", "-p", "and now?", "-c")
	if code != exitOK || strings.TrimSpace(out) != "Real answer." {
		t.Fatalf("-c on a real server: exit %d out %q err %q", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests; want 1", len(reqs))
	}
	body := reqs[0].JSON()
	if body["model"] != config.DefaultModel || reqs[0].PreviousResponseID() != "" || !strings.Contains(string(reqs[0].Body), "hello") {
		t.Errorf("continued demo session sent model %v, previous_response_id %q; want %s, no chain, the history (body %.300s)",
			body["model"], reqs[0].PreviousResponseID(), config.DefaultModel, reqs[0].Body)
	}
	if got := knob.FromJSON(loadSession(t, dir, sid).Settings); got.Model != config.DefaultModel || got.Provider == config.DemoProvider {
		t.Errorf("after going on with a key the session records provider %q model %q", got.Provider, got.Model)
	}
}
