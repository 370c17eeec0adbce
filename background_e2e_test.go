package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"runnel/session/store"
	"runnel/stream/streamtest"
)

// bgWords is a long answer as deltas: "w0 w1 … w59 ".
func bgWords(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("w%d ", i)
	}
	return out
}

// A runnel killed with -9 while a background response streams leaves its id
// and last sequence number in the history; `runnel -c` reattaches: a
// response still running streams the rest in after the saved part
// (starting_after), one that finished meanwhile is fetched whole.
func TestBackgroundKillThenContinueReattaches(t *testing.T) {
	t.Parallel()
	t.Run("running", func(t *testing.T) {
		killThenContinue(t, true, "GET /v1/responses/resp_bgkill?", "GET /v1/responses/resp_bgkill?starting_after=29&stream=true")
	})
	t.Run("finished", func(t *testing.T) {
		killThenContinue(t, false, "GET /v1/responses/resp_bgkill?")
	})
}

func killThenContinue(t *testing.T, running bool, want ...string) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{RunUntilStreamed: running})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_bgkill", bgWords(60)...), StallAfter: 30}) // sequence numbers 0…29
	data := t.TempDir()
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "XDG_DATA_HOME": data}
	p := startPane(t, 100, 30, env, binary(t), "--background")
	p.waitText("Ask anything")
	p.say("tell me a long story")
	p.waitText("w25")

	// wait until the history holds the turn's background response as of the stall
	dbPath := filepath.Join(data, "runnel", "runnel.db")
	deadline := time.Now().Add(20 * time.Second)
	for {
		db, err := store.Open(dbPath)
		if err == nil {
			var bg store.Background
			if id, err := db.Latest(); err == nil {
				if s, _, err := db.Load(id); err == nil && len(s.Turns) == 1 {
					bg = s.Turns[0].Background
				}
			}
			db.Close()
			if bg.ID == "resp_bgkill" && bg.After == 29 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the history never recorded the background response at sequence 29")
		}
		time.Sleep(50 * time.Millisecond) // polling interval, not an assertion delay
	}
	if err := sendSignal(runnelPID(t, p), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.waitText("exited 137") // the bracket may wrap after the killed line

	q := startPane(t, 100, 30, env, binary(t), "-c")
	s := q.waitText("w59")
	if !strings.Contains(s, "reattaching to it on the server") || strings.Contains(s, "your next message sends") {
		t.Errorf("no reattach notice:\n%s", s)
	}
	var resume []string
	for _, r := range srv.Background() {
		resume = append(resume, r.Method+" "+r.Path+"?"+r.Query)
	}
	if strings.Join(resume, "\n") != strings.Join(want, "\n") {
		t.Fatalf("reattach requests %q, want %q", resume, want)
	}
	// the answer is whole, once: no word is missing or doubled
	q.keys("Escape") // nothing in flight: harmless
	db, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q.waitFor("the turn saved completed", func(string) bool {
		id, err := db.Latest()
		if err != nil {
			return false
		}
		s, _, err := db.Load(id)
		return err == nil && len(s.Turns) == 1 && s.Turns[0].Status == store.StatusCompleted
	})
	id, _ := db.Latest()
	saved, _, _ := db.Load(id)
	text := ""
	for _, r := range saved.Turns[0].Responses {
		for _, it := range r.Items {
			text += string(it.Raw)
		}
	}
	if !strings.Contains(text, strings.Join(bgWords(60), "")) || strings.Count(text, "w59 ") != 1 {
		t.Errorf("saved answer is not whole: %s", text)
	}
}

// esc on a background response cancels it on the server too.
func TestBackgroundEscCancelsOnServer(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_bgesc", bgWords(40)...), StallAfter: 10})
	p := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e"}, binary(t), "--background")
	p.waitText("Ask anything")
	p.say("go")
	p.waitText("w5")
	p.keys("Escape")
	p.waitFor("the cancel request", func(string) bool {
		for _, r := range srv.Background() {
			if r.Method == "POST" && r.Path == "/v1/responses/resp_bgesc/cancel" {
				return true
			}
		}
		return false
	})
	if r, _ := srv.Response("resp_bgesc"); !r.Cancelled {
		t.Error("the server did not see the cancel")
	}
}

// A dropped background stream reconnects in place, saying so.
func TestBackgroundDropReconnectsOnScreen(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_bgdrop", bgWords(50)...), DropAfter: 41})
	p := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e"}, binary(t), "--background")
	p.waitText("Ask anything")
	p.say("go")
	s := p.waitText("w49")
	if !strings.Contains(s, "reconnecting 1/20") {
		t.Errorf("no reconnect line:\n%s", s)
	}
	if strings.Count(s, "w20 ") != 1 {
		t.Errorf("the answer is not continued in place:\n%s", s)
	}
}
