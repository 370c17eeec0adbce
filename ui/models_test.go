package ui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/models"
	"runnel/session/store"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
	"runnel/ui/block"
)

// modelTestOptions is a chat against srv that lists models through it.
func modelTestOptions(t *testing.T, srv *streamtest.Server, model string) Options {
	c := &stream.Client{BaseURL: srv.URL}
	return Options{Client: c, Provider: srv.URL, Settings: session.Settings{Model: model},
		Models: models.Lister{Client: c, CacheDir: t.TempDir()}}
}

func (d *driver) typeKeys(s string) {
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// TestStatusLineMeterOnFixture: a real gpt-5 snapshot's answer (input
// 3727, 3200 cached; output 347) shows "ctx 1%" (4074 of 400,000) and its
// cost, $0.0045, and /status lists the figures.
func TestStatusLineMeterOnFixture(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "pydantic__pydantic-ai/openai-reasoning-code-interpreter.sse")))
	m := newTestModel(t, modelTestOptions(t, srv, "gpt-5"))
	d := newDriver(t, m)
	d.send(SubmitMsg{Text: "hi"})
	d.until("the answer", func() bool { return m.turns.cur == nil && m.statusBar.status.State == Idle })
	if row := statusRow(plain(m)); !strings.Contains(row, "ctx 1% · $0.0045") {
		t.Fatalf("status line %q lacks the fill and cost", row)
	}
	d.send(SlashMsg{Name: "status"})
	v := plain(m)
	for _, want := range []string{"provider", "127.0.0.1", "base URL", "model", "gpt-5 (the server reports gpt-5-2025-08-07)",
		"effort", "session", "turns", "↑ in 3727 (3200 cached) · ↓ out 347 (128 reasoning)", "context", "1%", "cost", "$0.0045", "tools on", "mcp servers"} {
		if !strings.Contains(v, want) {
			t.Errorf("/status lacks %q:\n%s", want, v)
		}
	}
}

// TestUnknownModelShowsNoFigure: a model the table does not know gets
// neither a fill nor a cost, in the status line and in /status.
func TestUnknownModelShowsNoFigure(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Events(
		`{"type":"response.created","response":{"id":"resp_u","model":"llama3","status":"in_progress","output":[]}}`,
		`{"type":"response.completed","response":{"id":"resp_u","model":"llama3","status":"completed","output":[],"usage":{"input_tokens":1000,"output_tokens":10,"total_tokens":1010}}}`,
	)})
	m := newTestModel(t, modelTestOptions(t, srv, "llama3"))
	d := newDriver(t, m)
	d.send(SubmitMsg{Text: "hi"})
	d.until("the answer", func() bool { return m.turns.cur == nil && m.statusBar.status.State == Idle })
	if row := statusRow(plain(m)); strings.Contains(row, "ctx") || strings.Contains(row, "$") {
		t.Fatalf("status line %q shows a figure for an unknown model", row)
	}
	d.send(SlashMsg{Name: "status"})
	if v := plain(m); !strings.Contains(v, "no context window known for llama3") || !strings.Contains(v, "no price known") {
		t.Errorf("/status:\n%s", v)
	}
	// a config entry gives the window: the fill shows, still no cost
	w := int64(2020)
	m2 := newTestModel(t, modelTestOptions(t, srv, "llama3"))
	m2.opts.Prices = models.NewTable(map[string]models.Override{"llama3": {ContextWindow: &w}}, "config.toml")
	m2.statusBar.status.Meter = m2.metering.account([]*stream.Snapshot{{Model: "llama3", Usage: &stream.Usage{InputTokens: 1000, OutputTokens: 10}}}, m2.meterEnv())
	if row := statusRow(plain(m2)); !strings.Contains(row, "ctx 50%") || strings.Contains(row, "$") {
		t.Fatalf("status line %q: want ctx 50%% and no cost", row)
	}
	// switching to a model without a window drops the fill: the context goes to it next
	m2.Update(SlashMsg{Name: "model", Args: "my-finetune"})
	if row := statusRow(plain(m2)); strings.Contains(row, "ctx") {
		t.Fatalf("status line %q: a fill for an unknown model", row)
	}
	// the demo is no model: no fill, no cost, even for a name the table has
	m3 := newTestModel(t, Options{Provider: "demo", Settings: session.Settings{Model: "gpt-5"}})
	m3.statusBar.status.Meter = m3.metering.account([]*stream.Snapshot{{Model: "gpt-5", Usage: &stream.Usage{InputTokens: 1000, OutputTokens: 10}}}, m3.meterEnv())
	if row := statusRow(plain(m3)); strings.Contains(row, "ctx") || strings.Contains(row, "$") {
		t.Fatalf("demo status line %q shows a figure", row)
	}
	// a tiny fill is "<1%", not 0%
	m4 := newTestModel(t, Options{Settings: session.Settings{Model: "gpt-5"}})
	m4.statusBar.status.Meter = m4.metering.account([]*stream.Snapshot{{Model: "gpt-5", Usage: &stream.Usage{InputTokens: 100, OutputTokens: 10}}}, m4.meterEnv())
	if row := statusRow(plain(m4)); !strings.Contains(row, "ctx <1% · $0.0002") {
		t.Fatalf("status line %q", row)
	}
}

// TestModelList404 is a server whose /models answers 404: /model opens the
// picker with one line saying why, offering the configured model, and a
// typed name still works; completion offers the configured model.
func TestModelList404(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	m := newTestModel(t, modelTestOptions(t, srv, "gpt-5"))
	d := newDriver(t, m)
	d.send(SlashMsg{Name: "model"})
	d.until("the picker", func() bool { return m.dialog != nil })
	v := plain(m)
	if !strings.Contains(v, "no model list (GET /models answered 404") || !strings.Contains(v, "› gpt-5  (current)") {
		t.Fatalf("picker:\n%s", v)
	}
	d.typeKeys("my-local-model")
	if v := plain(m); !strings.Contains(v, "use “my-local-model”") {
		t.Fatalf("no free-text row:\n%s", v)
	}
	d.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	d.until("the switch", func() bool { return m.dialog == nil && m.turns.conv.Settings.Model == "my-local-model" })
	if got := m.composer.menu.argRows("/model g"); len(got) != 1 || got[0].arg != "gpt-5" {
		t.Errorf("completion without a list: %v", got)
	}
}

// TestModelPickerAndCompletion: from a fake /models list, typing "/model"
// fetches it; "/model mi" completes to the models holding "mi"; the
// picker filters and enter switches.
func TestModelPickerAndCompletion(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.SetModels("o3", "gpt-5-mini", "gpt-5")
	m := newTestModel(t, modelTestOptions(t, srv, "gpt-5"))
	d := newDriver(t, m)
	d.typeKeys("/model ")
	d.until("the list", func() bool { return m.metering.models.loaded })
	d.typeKeys("gpt")
	v := plain(m)
	if !strings.Contains(v, "/model gpt-5") || !strings.Contains(v, "/model gpt-5-mini") || strings.Contains(v, "/model o3") {
		t.Fatalf("completion of /model gpt:\n%s", v)
	}
	d.send(tea.KeyPressMsg{Code: tea.KeyTab})
	if got := m.composer.Value(); got != "/model gpt-5" {
		t.Fatalf("tab completed to %q", got)
	}
	d.send(tea.KeyPressMsg{Code: tea.KeyEnter}) // exact: sent as typed
	if m.turns.conv.Settings.Model != "gpt-5" {
		t.Fatalf("model %q", m.turns.conv.Settings.Model)
	}

	d.send(SlashMsg{Name: "model"})
	if m.dialog == nil {
		t.Fatal("no picker")
	}
	v = plain(m)
	if !strings.Contains(v, "Models 3 of 3") || !strings.Contains(v, "› gpt-5  (current)") {
		t.Fatalf("picker:\n%s", v)
	}
	d.send(keyPress("?"))
	if v := plain(m); !strings.Contains(v, "Models keys") || !strings.Contains(v, "use this model") {
		t.Fatalf("? does not list the keys:\n%s", v)
	}
	d.send(keyPress("?"))
	d.typeKeys("mini")
	if v := plain(m); !strings.Contains(v, "Models 1 of 3") {
		t.Fatalf("filter:\n%s", v)
	}
	d.send(tea.KeyPressMsg{Code: tea.KeyEnter})
	d.until("the switch", func() bool { return m.turns.conv.Settings.Model == "gpt-5-mini" })
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests; want one GET /models", n)
	}
}

// TestResumeKeepsCost: a resumed session shows the same cost, each turn
// priced as the model that answered it (stored with the turn's usage),
// even when the session's model has changed since.
func TestResumeKeepsCost(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.FromFile(sharedtest.Real(t, "pydantic__pydantic-ai/openai-reasoning-code-interpreter.sse")))
	db, err := store.Open(filepath.Join(t.TempDir(), "runnel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	o := modelTestOptions(t, srv, "gpt-5")
	o.DB = db
	m := newTestModel(t, o)
	d := newDriver(t, m)
	d.run(m.Init())
	d.send(SubmitMsg{Text: "hi"})
	d.until("the answer", func() bool { return m.turns.cur == nil && m.statusBar.status.State == Idle })
	d.send(SlashMsg{Name: "model", Args: "gpt-4.1"}) // the session's model changes; the turn was gpt-5's
	j := m.history.journal
	m.shutdown() // the journal's writes land first, the session row among them
	id := j.ID()
	s, _, err := db.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	m = newTestModel(t, Options{DB: db, Resume: s})
	m.Init()
	if row := statusRow(plain(m)); !strings.Contains(row, "$0.0045") {
		t.Errorf("after the resume %q; want the gpt-5 price, $0.0045", row)
	}
}

// TestMeteringReportsByMessage: the metering child changes nothing outside
// itself. A model picked posts, in order, the dialog's close, the settings
// change and the new meter, and the root applies them: the conversation's
// model, the status line, a notice. A provider's answer while a reply
// streams posts one notice and keeps the models the child had; once it
// can, the child drops them and posts the switch, with the new provider's
// model for completion.
func TestMeteringReportsByMessage(t *testing.T) {
	t.Parallel()
	var mt metering
	f := &frameState{}
	env := meterEnv{model: "gpt-5", lister: models.Lister{Provider: "lmstudio"}}
	mt.account([]*stream.Snapshot{{Model: "gpt-5", Usage: &stream.Usage{InputTokens: 3727, OutputTokens: 347}}}, env)
	if cmd := mt.Update(ModelPickedMsg{Name: "my-finetune"}, f, env); cmd != nil {
		t.Error("a named model needs no I/O")
	}
	if len(f.outbox) != 3 || f.outbox[0] != any(DialogClosedMsg{}) || f.outbox[1] != any(modelSwitchedMsg{"my-finetune"}) {
		t.Fatalf("posted %#v", f.outbox)
	}
	if mm, ok := f.outbox[2].(meterMsg); !ok || mm.meter.Ctx != "" || !strings.Contains(mm.meter.Cost, "$") {
		t.Fatalf("meter %#v: want the cost so far and no fill for a model without a window", f.outbox[2])
	}

	f.outbox = nil
	mt.models = modelList{asked: true, loaded: true, ids: []string{"openai/gpt-oss-20b"}}
	busy := meterEnv{model: "gpt-5", providerName: "lmstudio", busy: "a reply is still streaming — esc stops it, then /provider"}
	mt.Update(providerMsg{name: "ollama", conn: Connection{Name: "ollama", Model: "qwen3:8b"}}, f, busy)
	if len(f.outbox) != 1 || f.outbox[0] != any(noticeMsg{block.Info, busy.busy}) {
		t.Fatalf("a blocked switch posted %#v", f.outbox)
	}
	if len(mt.models.ids) != 1 {
		t.Errorf("a blocked switch dropped the models: %v", mt.models.ids)
	}
	f.outbox = nil
	busy.busy = ""
	mt.Update(providerMsg{name: "ollama", conn: Connection{Name: "ollama", Model: "qwen3:8b"}}, f, busy)
	if len(f.outbox) != 3 || len(mt.models.ids) != 0 || mt.models.asked {
		t.Fatalf("a switch posted %#v; models %+v", f.outbox, mt.models)
	}
	if a, ok := f.outbox[1].(argChoicesMsg); !ok || a.name != "model" || strings.Join(a.values, ",") != "qwen3:8b" {
		t.Errorf("completion after the switch: %#v", f.outbox[1])
	}
	if p, ok := f.outbox[2].(providerSwitchedMsg); !ok || p.from != "lmstudio" || p.conn.Name != "ollama" {
		t.Errorf("the switch's report: %#v", f.outbox[2])
	}

	m := newTestModel(t, Options{Settings: session.Settings{Model: "gpt-5"}})
	m.Update(ModelPickedMsg{Name: "gpt-5-mini"})
	if m.turns.conv.Settings.Model != "gpt-5-mini" || m.statusBar.status.Model != "gpt-5-mini" || len(m.frame.outbox) != 0 {
		t.Fatalf("model %q, status %q, %d reports left", m.turns.conv.Settings.Model, m.statusBar.status.Model, len(m.frame.outbox))
	}
	if !strings.Contains(plain(m), "model: gpt-5-mini") {
		t.Errorf("no notice:\n%s", plain(m))
	}
}
