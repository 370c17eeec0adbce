package main

// End-to-end test of notifications: a slow turn in a tmux pane, with the
// terminal's focus reports sent as a terminal sends them (CSI I, CSI O),
// and the OSC 9 bytes runnel writes to the pty.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

var osc9RE = regexp.MustCompile(`\x1b\]9;([^\x07\x1b]*)\x07`)

func TestChatNotifiesWhenAway(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	gates := []chan struct{}{make(chan struct{}), make(chan struct{})}
	for i, g := range gates {
		srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_n"+string(rune('a'+i)), "the secret answer"), Gate: g})
	}
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("notify_after = \"1s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// a terminal that shows OSC 9, outside tmux as far as runnel knows
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e", "TERM_PROGRAM": "WezTerm", "TMUX": ""}
	p := startPane(t, 100, 30, env, binary(t), "--config", cfg)
	p.waitText("Ask anything")
	raw := filepath.Join(t.TempDir(), "pty.out")
	p.tmux("pipe-pane", "-o", "-t", "t", "cat >> "+shellQuote(raw))
	notes := func() []string {
		data, _ := os.ReadFile(raw)
		var out []string
		for _, m := range osc9RE.FindAllSubmatch(data, -1) {
			out = append(out, string(m[1]))
		}
		return out
	}
	// slow runs a turn that waits until the status line counts 2s, then
	// lets the answer through and waits for its end.
	slow := func(i int) {
		p.say("slow one")
		p.waitFor("the turn to run 2s", func(s string) bool { return strings.Contains(lastLines(s, 2), "· 2s") })
		close(gates[i])
		p.waitTurnEnd()
	}

	p.text("\x1b[I") // focused
	slow(0)
	if n := notes(); len(n) != 0 {
		t.Errorf("a turn that ended while focused notified: %q", n)
	}

	p.text("\x1b[O") // the terminal lost focus
	slow(1)
	p.waitFor("an OSC 9 notification on the pty", func(string) bool { return len(notes()) > 0 })
	n := notes()
	if len(n) != 1 || !regexp.MustCompile(`^runnel: answer ready \(\ds\)$`).MatchString(n[0]) {
		t.Errorf("notifications: %q, want one short title", n)
	}
}
