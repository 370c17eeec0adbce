package ui

// The numbers agree everywhere: each test here shows one figure in every
// place the chat (and `runnel models`) shows it, and checks that the
// places say the same.

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session"
	"runnel/session/demo"
	"runnel/session/models"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
	"runnel/ui/modellist"
)

// statusValue is the value of a /status row ("turns", "model"…) on screen.
func statusValue(t *testing.T, screen, row string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(row) + `\s{2,}(.+?)\s*$`).FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("/status has no %q row:\n%s", row, screen)
	}
	return m[1]
}

// TestDemoNumbersAgree drives the real demo provider through the chat: a
// prompt whose function call goes back in a tool round, then a plain one.
// The status line and /status name the same model, the demo's, marked as
// the demo (and the /model picker shows no price for it); /status counts 2 turns as the session picker, the store's list
// (`runnel sessions list`) and the resume notice do; the status line's
// session tokens are /status's, reasoning said in the same words.
func TestDemoNumbersAgree(t *testing.T) {
	t.Parallel()
	db := tempDB(t)
	client := &stream.Client{BaseURL: demo.BaseURL, Transport: demo.New(demo.Options{})}
	m := newTestModel(t, Options{Client: client, Provider: "demo", DB: db, Settings: session.Settings{Model: demo.Model, Store: true}})
	d := newDriver(t, m)
	d.run(m.Init())
	idle := func(turns int) func() bool {
		return func() bool {
			return m.turns.cur == nil && m.statusBar.status.State == Idle && len(m.turns.conv.Turns) == turns
		}
	}
	d.send(SubmitMsg{Text: "weather"}) // a function call, answered in a round of its own
	d.until("the weather answer and its tool round", idle(2))
	d.send(SubmitMsg{Text: "markdown"})
	d.until("the markdown answer", idle(3))

	row := statusRow(plain(m))
	if !strings.HasSuffix(row, "DEMO runnel-demo") || strings.Contains(row, "gpt-5-mini") {
		t.Errorf("status line %q: want the demo's model, marked DEMO", row)
	}
	if r := m.turns.conv.Turns[2].Responses; len(r) == 0 || r[0].Model != demo.Model {
		t.Errorf("the demo's answer names another model: %+v", r)
	}
	d.send(SlashMsg{Name: "status"})
	screen := plain(m)
	if got := statusValue(t, screen, "model"); !strings.HasPrefix(got, demo.Model+" (the demo") {
		t.Errorf("/status model %q, the status line %q", got, row)
	}
	if got := statusValue(t, screen, "turns"); got != "2" {
		t.Errorf("/status counts %s turns; want 2 (the tool round belongs to the weather turn)", got)
	}

	// the session's tokens: the status line's Σ is /status's row, compacted
	tokens := regexp.MustCompile(`^↑ in (\d+) \((\d+) cached\) · ↓ out (\d+) \((\d+) reasoning\)$`).FindStringSubmatch(statusValue(t, screen, "tokens"))
	if tokens == nil {
		t.Fatalf("/status tokens %q", statusValue(t, screen, "tokens"))
	}
	n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	if n(tokens[4]) == 0 {
		t.Fatal("the demo counted no reasoning tokens: the fixture no longer shows the wording")
	}
	want := "Σ " + Usage{Input: n(tokens[1]), Output: n(tokens[3]), Reasoning: n(tokens[4])}.String()
	if !strings.Contains(row, want) || !strings.Contains(want, " reasoning)") {
		t.Errorf("status line %q lacks %q (from /status)", row, want)
	}
	if regexp.MustCompile(`\(r\d`).MatchString(row) {
		t.Errorf("status line %q still abbreviates reasoning", row)
	}

	// the /model picker prices nothing for the demo: no model answers
	d.send(SlashMsg{Name: "model"})
	d.until("the picker", func() bool { return m.dialog != nil })
	if v := plain(m); !strings.Contains(v, "the demo has no model list") || strings.Contains(v, "CONTEXT") || strings.Contains(v, "0.25") {
		t.Errorf("the demo's /model picker:\n%s", v)
	}
	d.send(tea.KeyPressMsg{Code: tea.KeyEscape})

	// the store's list (the picker and `runnel sessions list`) and the resume notice
	j := m.history.journal
	m.shutdown()
	infos, err := db.List(10)
	if err != nil || len(infos) != 1 {
		t.Fatalf("list %v %v", infos, err)
	}
	if infos[0].Turns != 2 {
		t.Errorf("the store lists %d turns", infos[0].Turns)
	}
	if v := ansi.Strip(NewPicker(infos, time.Now(), nil).View(100, 10)); !strings.Contains(v, "2 turns") {
		t.Errorf("the session picker:\n%s", v)
	}
	s, _, err := db.Load(j.ID())
	if err != nil {
		t.Fatal(err)
	}
	m = newTestModel(t, Options{Client: client, Provider: "demo", DB: db, Resume: s})
	m.Init()
	if v := plain(m); !strings.Contains(v, "· 2 turns") {
		t.Errorf("resume notice:\n%s", v)
	}
	m.Update(SlashMsg{Name: "status"})
	if got := statusValue(t, plain(m), "turns"); got != "2" {
		t.Errorf("/status after the resume counts %s turns", got)
	}
	m.shutdown()
}

// pickerTestIDs is a provider's list with chat models and others.
var pickerTestIDs = []string{"gpt-5", "gpt-5-nano", "o1", "my-local", "text-embedding-3-small", "tts-1", "gpt-4.1"}

// figuresFrom is each row's figures from a table drawn with a heading
// row holding CONTEXT: the id column cut off, by model id.
func figuresFrom(t *testing.T, table string, ids []string) (map[string]string, int) {
	t.Helper()
	lines := strings.Split(table, "\n")
	at := -1
	for _, l := range lines {
		if i := strings.Index(l, "CONTEXT"); i >= 0 {
			at = ansi.StringWidth(l[:i])
			break
		}
	}
	if at < 0 {
		t.Fatalf("no heading:\n%s", table)
	}
	out := map[string]string{}
	for _, l := range lines {
		f := strings.Fields(strings.TrimLeft(l, "› "))
		if len(f) == 0 || ansi.StringWidth(l) <= at {
			continue
		}
		for _, id := range ids {
			if f[0] == id {
				out[id] = ansi.Cut(l, at, ansi.StringWidth(l))
			}
		}
	}
	return out, at
}

// decimalColumns are the cells at which a figures part has its decimal
// points.
func decimalColumns(figures string) []int {
	var at []int
	for i, r := range []rune(figures) {
		if r == '.' {
			at = append(at, i)
		}
	}
	return at
}

// TestModelPickerFiguresAndColumns: the /model picker shows each model's
// context window and prices as `runnel models` prints them (the same
// cells), leaves out what is not for chat (and says how many), and keeps
// its columns aligned — decimal points under each other — at every width:
// all four figures when wide, without the cached price when narrower, none
// when the names would have no room.
func TestModelPickerFiguresAndColumns(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.SetModels(pickerTestIDs...)
	m := newTestModel(t, modelTestOptions(t, srv, "gpt-5"))
	d := newDriver(t, m)
	d.send(SlashMsg{Name: "model"})
	d.until("the picker", func() bool { return m.dialog != nil })
	v := plain(m)
	if !strings.Contains(v, "Models 5 of 5 · 2 not for chat left out") || strings.Contains(v, "text-embedding") || strings.Contains(v, "tts-1") {
		t.Fatalf("picker:\n%s", v)
	}
	for _, c := range m.composer.menu.argRows("/model t") {
		if !models.Chat(c.arg) {
			t.Errorf("/model t completes to %q, which is not for chat", c.arg)
		}
	}
	if got := m.composer.menu.argRows("/model gpt-5-n"); len(got) != 1 || got[0].arg != "gpt-5-nano" {
		t.Errorf("/model gpt-5-n completes to %v", got)
	}

	var table bytes.Buffer
	e := modellist.Env{Ctx: context.Background(), Stdout: &table, Stderr: &table, Lister: m.opts.Models, Configured: "gpt-5"}
	if err := e.Run(false, false); err != nil {
		t.Fatal(err)
	}
	chat := []string{"gpt-4.1", "gpt-5", "gpt-5-nano", "my-local", "o1"}
	cli, _ := figuresFrom(t, table.String(), chat)
	priced := []string{"gpt-4.1", "gpt-5", "gpt-5-nano", "o1"}

	p := NewModelPicker(ModelChoices{IDs: chat, Hidden: 2, Current: "gpt-5", Prices: models.Table{}}, nil)
	for _, width := range []int{120, 100, 80, 62, 60, 50, 40, 30} {
		view := ansi.Strip(p.View(width, 20))
		for _, l := range strings.Split(view, "\n") {
			if ansi.StringWidth(l) > width {
				t.Errorf("at %d a row is %d wide: %q", width, ansi.StringWidth(l), l)
			}
		}
		if !strings.Contains(view, "CONTEXT") {
			if width >= 60 {
				t.Errorf("at %d the picker shows no figures:\n%s", width, view)
			}
			continue
		}
		cached := strings.Contains(view, "CACHED")
		if cached != (width >= 62) {
			t.Errorf("at %d the cached price shows: %v\n%s", width, cached, view)
		}
		rows, _ := figuresFrom(t, view, chat)
		var dots []int
		for _, id := range priced {
			got := rows[id]
			want := cli[id]
			if !cached { // the same cells, less the cached price
				f := strings.Fields(want)
				want = strings.Join(append(f[:2:2], f[3]), " ")
			}
			if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(want), " ") {
				t.Errorf("at %d the picker shows %s as %q, `runnel models` as %q", width, id, got, cli[id])
			}
			if dots == nil {
				dots = decimalColumns(got)
			} else if d := decimalColumns(got); !slices.Equal(d, dots) {
				t.Errorf("at %d %s's decimal points are at %v, the rows above at %v:\n%s", width, id, d, dots, view)
			}
		}
		if !strings.Contains(view, "gpt-5  (current)") {
			t.Errorf("at %d the current model is not marked:\n%s", width, view)
		}
		if r := strings.Fields(rows["my-local"]); len(r) == 0 || strings.Trim(strings.Join(r, ""), "-") != "" {
			t.Errorf("at %d a model the table lacks shows figures %q", width, rows["my-local"])
		}
	}
}

// TestDroppedUsageIsUnknown: a turn whose stream broke before its usage
// came shows its tokens as unknown on the status line ("↑? ↓?"), not as
// nothing; after a turn that finished, the session's Σ is a floor ("≥"),
// and /status says how many responses' usage is unknown, in its tokens
// and cost rows, as the drop's notice does.
func TestDroppedUsageIsUnknown(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	fixture := sharedtest.Path(t, "fixtures", "real", "vercel__ai", "xai-text-reasoning-markdown.sse")
	srv.Enqueue(streamtest.Reply{File: fixture, DropAfter: 120}, // after the answer's first words
		streamtest.Reply{SSE: streamtest.Text("resp_2", "A whole answer.")})
	m := newTestModel(t, Options{Client: &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, Settings: session.Settings{Model: "gpt-5-mini", Store: true}})
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 200})
	m.Update(SubmitMsg{Text: "first"})
	pump(t, m, nil)
	if !strings.Contains(plain(m), "its tokens and cost are unknown") {
		t.Fatalf("the first stream did not drop:\n%s", plain(m))
	}
	if row := statusRow(plain(m)); !strings.Contains(row, "↑? ↓?") {
		t.Errorf("status line after the drop %q: want the turn's usage shown unknown", row)
	}
	m.Update(SubmitMsg{Text: "second"})
	pump(t, m, nil)
	row := statusRow(plain(m))
	if !strings.Contains(row, "Σ ≥ ↑") {
		t.Errorf("status line after a whole turn %q: want the session's Σ marked a floor", row)
	}
	slashSent(m, "status", "")
	screen := plain(m)
	if got := statusValue(t, screen, "tokens"); !strings.HasSuffix(got, "+ 1 response unknown (stream ended first)") {
		t.Errorf("/status tokens %q", got)
	}
}
