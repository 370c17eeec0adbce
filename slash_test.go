package main

import (
	"path/filepath"
	"strings"
	"testing"

	"runnel/session/store"
	"runnel/stream/streamtest"
)

// listSessions reads the sessions saved in a data dir.
func listSessions(t *testing.T, dir string) []store.SessionInfo {
	t.Helper()
	db, err := store.Open(filepath.Join(dir, "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list, err := db.List(0)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// -p is saved as a session, which -c continues; --no-save saves nothing.
func TestOneShotSavedUnlessNoSave(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	dir := t.TempDir()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_a", "First.")},
		streamtest.Reply{SSE: streamtest.Text("resp_b", "Second.")},
		streamtest.Reply{SSE: streamtest.Text("resp_c", "Unsaved.")})
	base := []string{"--data-dir", dir, "--base-url", srv.URL, "--format", "text"}
	if out, errOut, code := runnel(t, "", append(base, "-p", "remember the plan")...); code != exitOK || strings.TrimSpace(out) != "First." {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	list := listSessions(t, dir)
	if len(list) != 1 || !strings.Contains(list[0].Title, "remember the plan") {
		t.Fatalf("sessions after -p: %+v; want one titled from the prompt", list)
	}
	if out, errOut, code := runnel(t, "", append(base, "-c", "-p", "and then?")...); code != exitOK || strings.TrimSpace(out) != "Second." {
		t.Fatalf("-c -p: exit %d out %q err %q", code, out, errOut)
	}
	if reqs := srv.Requests(); reqs[1].PreviousResponseID() != "resp_a" {
		t.Fatalf("-c -p chained to %q; want resp_a", reqs[1].PreviousResponseID())
	}
	if out, errOut, code := runnel(t, "", append(base, "--no-save", "-p", "forget this")...); code != exitOK || strings.TrimSpace(out) != "Unsaved." {
		t.Fatalf("--no-save: exit %d out %q err %q", code, out, errOut)
	}
	if reqs := srv.Requests(); reqs[2].PreviousResponseID() != "" {
		t.Fatalf("--no-save chained to %q", reqs[2].PreviousResponseID())
	}
	list = listSessions(t, dir)
	if len(list) != 1 || list[0].Turns != 2 {
		t.Fatalf("sessions after -c and --no-save: %+v; want the one session with 2 turns", list)
	}
}

// -c key=value sets config keys for one run (the request shows them), next
// to -c alone (continue); bad overrides get the file's messages.
func TestConfigOverrides(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	dir := t.TempDir()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_a", "One.")}, streamtest.Reply{SSE: streamtest.Text("resp_b", "Two.")})
	base := []string{"--data-dir", dir, "--base-url", srv.URL, "--format", "text"}
	if _, errOut, code := runnel(t, "", append(base, "-c", "model=gpt-5", "-c", "reasoning.effort=high", "-p", "hi")...); code != exitOK {
		t.Fatalf("exit %d err %q", code, errOut)
	}
	body := srv.Requests()[0].JSON()
	if body["model"] != "gpt-5" || body["reasoning"].(map[string]any)["effort"] != "high" {
		t.Fatalf("request %v; want model gpt-5, effort high", body)
	}
	// -c alone continues next to -c key=value; like the file's, an
	// override's model does not replace the resumed session's (--model does)
	if _, errOut, code := runnel(t, "", append(base, "-c", "-c", "model=gpt-5-mini", "-p", "more")...); code != exitOK {
		t.Fatalf("exit %d err %q", code, errOut)
	}
	if r := srv.Requests()[1]; r.PreviousResponseID() != "resp_a" || r.JSON()["model"] != "gpt-5" {
		t.Fatalf("-c -c model=…: previous %q model %v", r.PreviousResponseID(), r.JSON()["model"])
	}
	for _, tc := range []struct{ arg, want string }{
		{"modle=gpt-5", `runnel: -c modle: unknown key "modle" (did you mean "model"?)`},
		{"max_tool_rounds=lots", `runnel: -c max_tool_rounds: key "max_tool_rounds": want an integer, got a string`},
		{"reasoning.effort=extreme", `runnel: -c reasoning.effort: key "reasoning.effort": "extreme" is not allowed; use one of`},
	} {
		_, errOut, code := runnel(t, "", append(base, "-c", tc.arg, "-p", "hi")...)
		if code != exitUsage || !strings.HasPrefix(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("-c %s: exit %d, stderr %q; want %q", tc.arg, code, errOut, tc.want)
		}
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests; a bad override must send nothing", n)
	}
}
