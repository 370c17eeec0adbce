package main

// The conformance suite for servers: for each server personality of
// streamtest (OpenAI, Ollama, vLLM with and without its store, llama.cpp,
// LM Studio, a bare-response gateway), the real binary holds a conversation
// of two turns and a tool round, once with -p (the second and third runs
// with -c) and once in the chat (tmux). Each run checks:
//   - the screen: each answer shown once, and the second answer is the one a
//     model that remembers the first turn gives;
//   - the tool: the local function ran once;
//   - the requests: every answer came from a model that saw the whole
//     conversation once, by a chain the server honoured or by the history;
//     a server that keeps state is chained to, a stateless one is tried
//     with the chain at most once;
//   - the store: each turn holds one item per item the server produced,
//     with the server's final ids and call_ids, and each text once.
// The personalities share nothing, so every run is a parallel subtest with
// its own server and directories.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"runnel/session/store"
	"runnel/stream/streamtest"
)

// The conversation every run holds. The answers' markers appear in no prompt.
const (
	confPromptOne  = "first: name a fruit"
	confPromptTwo  = "second: which fruit was it?"
	confPromptTool = "third: run the probe"

	confAnswerOne   = "FIRSTANSWER an apple."
	confRemembered  = "SECONDANSWER it was an apple."
	confForgotten   = "SECONDANSWER no fruit was named before."
	confAnswerTool  = "TOOLANSWER the probe has run."
	confToolName    = "probe"
	confToolArgs    = `{"word":"kiwi"}`
	confToolPrinted = "probe-printed-this"
)

// conformanceModel is the scripted model: its second answer says whether it
// saw the first one, so a lost context shows on the screen too.
func conformanceModel(seen []json.RawMessage) streamtest.Output {
	lines := streamtest.Transcript(seen)
	last := ""
	if len(lines) > 0 {
		last = lines[len(lines)-1]
	}
	switch {
	case strings.HasPrefix(last, "function_call_output"):
		return streamtest.Output{Reasoning: "The probe answered.", Text: confAnswerTool}
	case strings.Contains(last, confPromptTool):
		return streamtest.Output{Reasoning: "I should run the probe.", Calls: []streamtest.Call{{Name: confToolName, Arguments: confToolArgs}}}
	case strings.Contains(last, confPromptTwo):
		if strings.Contains(strings.Join(lines, "\n"), "assistant: "+confAnswerOne) {
			return streamtest.Output{Reasoning: "It was named before.", Text: confRemembered}
		}
		return streamtest.Output{Reasoning: "Nothing before this.", Text: confForgotten}
	default:
		return streamtest.Output{Reasoning: "A fruit, then.", Text: confAnswerOne}
	}
}

// confSetup is one run's server and directories.
type confSetup struct {
	p       streamtest.Personality
	srv     *streamtest.Server
	home    string
	config  string // the config file, with the probe function
	toolLog string // the probe appends its arguments here, one line a run
}

func newConfSetup(t *testing.T, p streamtest.Personality) *confSetup {
	home := t.TempDir()
	c := &confSetup{p: p, home: home, config: filepath.Join(home, "config.toml"), toolLog: filepath.Join(home, "probe.log")}
	cfg := `[[functions]]
name = "` + confToolName + `"
description = "Records that it ran"
parameters = { type = "object", properties = { word = { type = "string" } }, required = ["word"] }
command = ["sh", "-c", "cat >> '` + c.toolLog + `'; echo >> '` + c.toolLog + `'; echo ` + confToolPrinted + `"]
approval = "never"
`
	if err := os.WriteFile(c.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c.srv = streamtest.NewAs(t, p, conformanceModel)
	return c
}

// env is the environment runnel runs with: everything under home.
func (c *confSetup) env() map[string]string {
	return map[string]string{
		"HOME": c.home, "XDG_CONFIG_HOME": filepath.Join(c.home, "config"), "XDG_DATA_HOME": filepath.Join(c.home, "data"),
		"XDG_CACHE_HOME": filepath.Join(c.home, "cache"), "XDG_STATE_HOME": filepath.Join(c.home, "state"), "TMPDIR": c.home,
		"OPENAI_API_KEY": "sk-e2e-conformance", "OPENAI_BASE_URL": c.srv.URL, "NO_COLOR": "1",
	}
}

func (c *confSetup) dbPath() string { return filepath.Join(c.home, "data", "runnel", "runnel.db") }

// oneShot runs `runnel -p prompt` (with more args) as a process, bounded in
// time.
func (c *confSetup) oneShot(t *testing.T, prompt string, more ...string) (stdout, stderr string, code int) {
	t.Helper()
	bin := binary(t) // built before the clock starts
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	args := append([]string{"-p", prompt, "--config", c.config, "--format", "text"}, more...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range c.env() {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("runnel -p %q did not end within its time bound; stderr:\n%s", prompt, e.String())
	}
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("runnel -p %q: %v", prompt, err)
	}
	return o.String(), e.String(), code
}

// TestServersOneShot: for each personality, three -p runs in one session:
// a first turn, a second with -c, and a tool round with -c.
func TestServersOneShot(t *testing.T) {
	for _, p := range streamtest.Personalities() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			c := newConfSetup(t, p)
			steps := []struct {
				prompt, answer string
				args           []string
			}{
				{confPromptOne, confAnswerOne, nil},
				{confPromptTwo, confRemembered, []string{"-c"}},
				{confPromptTool, confAnswerTool, []string{"-c"}},
			}
			for i, s := range steps {
				out, errOut, code := c.oneShot(t, s.prompt, s.args...)
				t.Logf("-p %q: stderr %q", s.prompt, errOut)
				if code != exitOK || strings.Count(out, s.answer) != 1 || strings.Count(out, strings.Fields(s.answer)[0]) != 1 {
					t.Errorf("-p %q: exit %d; want the answer %q once\nstdout:\n%s\nstderr:\n%s", s.prompt, code, s.answer, out, errOut)
				}
				if want := wantStderrLines(p, i); want >= 0 && strings.Count(errOut, "\n") != want {
					t.Errorf("-p %q: stderr holds %d lines, want %d:\n%s", s.prompt, strings.Count(errOut, "\n"), want, errOut)
				}
			}
			c.check(t)
		})
	}
}

// wantStderrLines is how many lines -p run i (0, 1, 2) may write to stderr
// with personality p, -1 for any number: nothing from a server that keeps
// state, one notice when the second run finds the chain ignored. The
// gateway's bare object warns once a response; vLLM without its store loses
// each chain it is given.
func wantStderrLines(p streamtest.Personality, run int) int {
	switch {
	case p.Name == "gateway":
		return []int{1, 1, 2}[run]
	case p.Keeps():
		return 0
	case !p.Chains:
		return []int{0, 1, 0}[run]
	}
	return -1
}

// TestServersChat: for each personality, the chat in tmux holds two turns
// and a tool round.
func TestServersChat(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: end-to-end terminal tests need it (apt-get install tmux)")
	}
	for _, p := range streamtest.Personalities() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			c := newConfSetup(t, p)
			pn := startPane(t, 100, 60, c.env(), binary(t), "--config", c.config)
			pn.waitText("Ask anything")
			for _, s := range []struct{ prompt, answer string }{
				{confPromptOne, confAnswerOne}, {confPromptTwo, confRemembered}, {confPromptTool, confAnswerTool},
			} {
				pn.say(s.prompt)
				pn.waitFor(fmt.Sprintf("the answer to %q and the turn's end", s.prompt), func(sc string) bool {
					return strings.Contains(flat(sc), s.answer) && strings.Contains(lastLines(sc, 2), "ready")
				})
			}
			raw := pn.screen()
			t.Logf("the screen after the three turns:\n%s", raw)
			screen := flat(raw)
			for _, marker := range []string{"FIRSTANSWER", "SECONDANSWER", "TOOLANSWER"} {
				if n := strings.Count(screen, marker); n != 1 {
					t.Errorf("%s shown %d times; screen:\n%s", marker, n, raw)
				}
			}
			if n := strings.Count(screen, "ƒ "+confToolName); n != 1 {
				t.Errorf("the tool call is drawn %d times, want once; screen:\n%s", n, raw)
			}
			notices, warnings := screenNotes(raw)
			if want := wantChatNotes(p); want >= 0 && (len(notices) != want || (len(warnings) > 0 && p.Name != "gateway")) {
				t.Errorf("notices %q and warnings %q on the screen; want %d notices and no warning", notices, warnings, want)
			}
			if strings.Contains(screen, confForgotten) {
				t.Errorf("the second turn reached a model that forgot the first; screen:\n%s", raw)
			}
			pn.quit()
			pn.waitText("[exited")
			c.check(t)
		})
	}
}

// screenNotes returns the screen's notice rows ("· …") and warning rows
// ("! …"), their first rows only.
func screenNotes(screen string) (notices, warnings []string) {
	for _, l := range strings.Split(screen, "\n") {
		switch l = strings.TrimSpace(l); {
		case strings.HasPrefix(l, "· "):
			notices = append(notices, l)
		case strings.HasPrefix(l, "! "):
			warnings = append(warnings, l)
		}
	}
	return notices, warnings
}

// wantChatNotes is how many notices the chat may show with personality p,
// -1 for any number: none from a server that keeps state, one when it
// finds the chain ignored.
func wantChatNotes(p streamtest.Personality) int {
	switch {
	case p.Keeps():
		return 0
	case !p.Chains:
		return 1
	}
	return -1
}

// flat joins the screen's words with single spaces, so a text wrapped
// across rows still reads as one.
func flat(screen string) string { return strings.Join(strings.Fields(screen), " ") }

// check runs the checks every run shares: the tool, the requests, the store.
func (c *confSetup) check(t *testing.T) {
	t.Helper()
	if log, err := os.ReadFile(c.toolLog); err != nil || strings.Count(string(log), "kiwi") != 1 {
		t.Errorf("the probe ran %d times, want once (log %q, %v)", strings.Count(string(log), "kiwi"), log, err)
	}
	steps := c.checkRequests(t)
	c.checkStore(t, steps)
}

// confStep is one step of the conversation and the exchange that answered it
// (the last one answered with 200 whose input ended the same way: a resend
// after a refused or ignored chain replaces the attempt).
type confStep struct {
	key string // the last line of the request's input
	ex  streamtest.Exchange
}

func inputOf(t *testing.T, r streamtest.Recorded) []json.RawMessage {
	var body struct {
		Input json.RawMessage `json:"input"`
	}
	json.Unmarshal(r.Body, &body)
	var items []json.RawMessage
	if json.Unmarshal(body.Input, &items) != nil {
		var s string
		if json.Unmarshal(body.Input, &s) == nil {
			items = []json.RawMessage{json.RawMessage(fmt.Sprintf(`{"role":"user","content":%q}`, s))}
		}
	}
	return items
}

// checkRequests checks what the server saw and returns the answered steps.
func (c *confSetup) checkRequests(t *testing.T) []confStep {
	t.Helper()
	exs := c.srv.Exchanges()
	var steps []confStep
	chainTries := 0
	for i, ex := range exs {
		in := streamtest.Transcript(inputOf(t, ex.Request))
		t.Logf("request %d: %d, previous_response_id %q (honoured: %v), %d input items, the model saw %d, answered %s",
			i+1, ex.Status, ex.Request.PreviousResponseID(), ex.Chained != "", len(in), len(ex.Seen), ex.ResponseID)
		if ex.Request.PreviousResponseID() != "" && ex.Chained == "" {
			chainTries++ // a chain the server ignored or refused
		}
		switch {
		case ex.Status == 404 && c.p.Name == "vllm-nostore":
			chainTries++
			continue
		case ex.Status != 200:
			t.Errorf("request %d was refused with %d: %s", i+1, ex.Status, ex.Request.Body)
			continue
		}
		key := ""
		if len(in) > 0 {
			key = in[len(in)-1]
		}
		if n := len(steps); n > 0 && steps[n-1].key == key {
			steps[n-1].ex = ex
			continue
		}
		steps = append(steps, confStep{key: key, ex: ex})
	}
	var keys []string
	for _, s := range steps {
		keys = append(keys, s.key)
	}
	if len(steps) != 4 || !strings.Contains(keys[0], confPromptOne) || !strings.Contains(keys[1], confPromptTwo) ||
		!strings.Contains(keys[2], confPromptTool) || !strings.HasPrefix(keys[3], "function_call_output") {
		t.Errorf("the answered steps, by their last input item:\n%s\nwant the two prompts, the tool prompt and the tool's output", strings.Join(keys, "\n"))
		return steps
	}

	// Every answer came from a model that saw the conversation so far once.
	var before []string // the conversation's lines so far, as the model must see them
	for i, s := range steps {
		seen := streamtest.Transcript(s.ex.Seen)
		want := append(append([]string(nil), before...), s.key)
		var wrong []string
		for _, w := range want {
			if n := countLines(seen, w); n != 1 {
				wrong = append(wrong, fmt.Sprintf("%dx %s", n, w))
			}
		}
		for _, l := range seen {
			if strings.HasPrefix(l, "reasoning: ") && countLines(seen, l) > 1 {
				wrong = append(wrong, fmt.Sprintf("%dx %s", countLines(seen, l), l))
			}
		}
		if len(wrong) > 0 {
			t.Errorf("step %d: the model saw, instead of once each:\n  %s\nit saw:\n  %s",
				i+1, strings.Join(wrong, "\n  "), strings.Join(seen, "\n  "))
		}
		before = append(want, nonReasoning(streamtest.Transcript(s.ex.Output))...)
	}
	if out := outputLine(steps[3].key); !strings.Contains(out, confToolPrinted) {
		t.Errorf("the tool's output sent back: %q", steps[3].key)
	}

	// The requests: chained where the server keeps state, the history
	// where it does not, with at most one try of the chain.
	switch {
	case c.p.Keeps():
		if len(exs) != 4 {
			t.Errorf("%d requests for 4 steps to a server that keeps state", len(exs))
		}
		for i := 1; i < len(steps); i++ {
			if got, want := steps[i].ex.Chained, steps[i-1].ex.ResponseID; got != want {
				t.Errorf("step %d chained to %q, want the previous response %q", i+1, got, want)
			}
		}
	case !c.p.Chains:
		if chainTries > 1 {
			t.Errorf("%d requests chained to a server that ignores the chain; want at most one try before the history is sent", chainTries)
		}
	}
	return steps
}

func countLines(lines []string, want string) int {
	n := 0
	for _, l := range lines {
		if l == want {
			n++
		}
	}
	return n
}

func nonReasoning(lines []string) []string {
	var out []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "reasoning: ") {
			out = append(out, l)
		}
	}
	return out
}

// outputLine is the output part of a function_call_output transcript line.
func outputLine(l string) string {
	_, out, _ := strings.Cut(l, ": ")
	return out
}

// checkStore checks that the session holds a turn per step whose items are
// the step's answer's: one stored item per server item, with the server's
// final ids and call_ids, each text once.
func (c *confSetup) checkStore(t *testing.T, steps []confStep) {
	t.Helper()
	if len(steps) != 4 {
		return
	}
	db, err := store.Open(c.dbPath())
	if err != nil {
		t.Fatalf("store: %v", err)
	}
	defer db.Close()
	id, err := db.Latest()
	if err != nil {
		t.Fatalf("store: %v", err)
	}
	sess, _, err := db.Load(id)
	if err != nil {
		t.Fatalf("store: %v", err)
	}
	// a tool round is a turn of its own, with no prompt
	prompts := []string{confPromptOne, confPromptTwo, confPromptTool, ""}
	var desc []string
	for _, tu := range sess.Turns {
		n := 0
		for _, r := range tu.Responses {
			n += len(r.Items)
		}
		desc = append(desc, fmt.Sprintf("%q (%s): %d responses, %d items", tu.Prompt, tu.Status, len(tu.Responses), n))
	}
	if len(sess.Turns) != len(prompts) {
		t.Fatalf("the session holds %d turns, want %d:\n%s", len(sess.Turns), len(prompts), strings.Join(desc, "\n"))
	}
	for ti, s := range steps {
		if tu := sess.Turns[ti]; tu.Prompt != prompts[ti] || tu.Status != store.StatusCompleted || !slices.Contains(tu.ResponseIDs, s.ex.ResponseID) {
			t.Errorf("turn %d: %s, response ids %q; want %q, completed, with the answer's response %s", ti+1, desc[ti], sess.Turns[ti].ResponseIDs, prompts[ti], s.ex.ResponseID)
		}
		want, got := s.ex.Output, []json.RawMessage(nil)
		for _, r := range sess.Turns[ti].Responses {
			for _, it := range r.Items {
				got = append(got, it.Raw)
			}
		}
		if len(got) != len(want) {
			t.Errorf("turn %d: %d items stored, the server produced %d:\nstored:\n%s\nserver:\n%s",
				ti+1, len(got), len(want), strings.Join(streamtest.Transcript(got), "\n"), strings.Join(streamtest.Transcript(want), "\n"))
			continue
		}
		for i := range want {
			if g, w := itemIdentity(got[i]), itemIdentity(want[i]); g != w {
				t.Errorf("turn %d item %d: stored %s\nthe server's %s", ti+1, i, g, w)
			}
		}
	}
}

// itemIdentity is what a stored item must share with the server's: type,
// id and call_id where the server gave them, and the message's text.
func itemIdentity(raw json.RawMessage) string {
	var it struct {
		Type   string  `json:"type"`
		ID     *string `json:"id"`
		CallID string  `json:"call_id"`
	}
	json.Unmarshal(raw, &it)
	s := it.Type
	if it.ID != nil && *it.ID != "" {
		s += " id=" + *it.ID
	}
	if it.CallID != "" {
		s += " call_id=" + it.CallID
	}
	if it.Type == "message" {
		s += " " + strings.Join(streamtest.Transcript([]json.RawMessage{raw}), "")
	}
	return s
}
