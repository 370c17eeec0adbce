package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/models"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// twoProviders is a chat on provider "lmstudio" (server a) that can switch
// to "ollama" (server b, its own model) and to "openai", whose key is
// missing; connects counts the Connect calls by name.
func twoProviders(t *testing.T) (m *Model, a, b *streamtest.Server, connects map[string]int) {
	t.Helper()
	a, b = streamtest.New(t), streamtest.New(t)
	connects = map[string]int{}
	p := &Providers{
		Choices: []ProviderChoice{
			{Name: "lmstudio", BaseURL: a.URL, About: "LM Studio, speaks the OpenAI API"},
			{Name: "ollama", BaseURL: b.URL, About: "Ollama on this machine"},
			{Name: "openai", BaseURL: "https://api.openai.com/v1", About: "OpenAI"},
		},
		Connect: func(_ context.Context, name string) (Connection, error) {
			connects[name]++
			switch name {
			case "ollama":
				c := &stream.Client{BaseURL: b.URL}
				return Connection{Name: name, Label: b.URL, Client: c, Models: models.Lister{Client: c, Provider: name}, Model: "qwen3:8b", Store: false}, nil
			case "lmstudio":
				c := &stream.Client{BaseURL: a.URL}
				return Connection{Name: name, Label: a.URL, Client: c, Store: true}, nil
			}
			return Connection{}, errors.New(`provider "openai": no API key: set $OPENAI_API_KEY`)
		},
	}
	client := &stream.Client{BaseURL: a.URL}
	m = newTestModel(t, Options{
		Client: client, Provider: a.URL, Providers: p, Models: models.Lister{Client: client, Provider: "lmstudio"},
		Settings: session.Settings{Model: "openai/gpt-oss-20b", Store: true, Provider: "lmstudio"},
	})
	m.Init()
	return m, a, b, connects
}

// slashCmd runs a slash command and the Cmd it returns (Connect).
func slashCmd(m *Model, name, args string) {
	_, cmd := m.Update(SlashMsg{Name: name, Args: args})
	runCmd(m, cmd)
}

// TestProviderSwitchCarriesTheHistory: after /provider ollama the next
// request goes to the new server with the whole conversation as input and
// no previous_response_id, on the provider's own model and store; a
// divider names the switch; the turns after it send the history once each,
// and no turn keeps it.
func TestProviderSwitchCarriesTheHistory(t *testing.T) {
	t.Parallel()
	m, a, b, _ := twoProviders(t)
	a.Enqueue(streamtest.FromFile(sharedtest.Real(t, "vercel__ai/lmstudio-basic-markdown.sse")))
	b.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_b1", "second answer")}, streamtest.Reply{SSE: streamtest.Text("resp_b2", "third answer")})
	m.Update(SubmitMsg{Text: "first question"})
	pump(t, m, nil)

	slashCmd(m, "provider", "ollama")
	v := plain(m)
	if !strings.Contains(v, "provider: lmstudio → ollama") {
		t.Fatalf("no divider naming the switch:\n%s", v)
	}
	if !strings.Contains(v, "@ollama") || !strings.Contains(v, "qwen3:8b") {
		t.Errorf("the status line does not name the new provider and model:\n%s", v)
	}
	if m.opts.Client.BaseURL != b.URL || m.turns.conv.Settings.Provider != "ollama" || m.turns.conv.Settings.Store || m.turns.conv.Settings.Model != "qwen3:8b" {
		t.Fatalf("after the switch: client %s, settings %+v", m.opts.Client.BaseURL, m.turns.conv.Settings)
	}

	m.Update(SlashMsg{Name: "status"})
	if v := plain(m); !strings.Contains(v, "ollama ("+strings.TrimSuffix(strings.TrimPrefix(b.URL, "http://"), "/v1")+")") {
		t.Errorf("/status does not name the provider:\n%s", v)
	}

	m.Update(SubmitMsg{Text: "second question"})
	pump(t, m, nil)
	reqs := b.Requests()
	if len(a.Requests()) != 1 || len(reqs) != 1 {
		t.Fatalf("requests: %d to the old server, %d to the new; want 1 and 1", len(a.Requests()), len(reqs))
	}
	if id := reqs[0].PreviousResponseID(); id != "" {
		t.Errorf("the first request to the new server chains to %q, a response it never saw", id)
	}
	body := string(reqs[0].Body)
	for _, want := range []string{"first question", "msg_j8xwiqp4xj0qgn3hrsoit9", "second question", `"model":"qwen3:8b"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the request to the new server lacks %s:\n%s", want, body)
		}
	}
	if strings.Index(body, "first question") > strings.Index(body, "second question") {
		t.Error("the history does not come before the new message")
	}
	if !strings.Contains(plain(m), "second answer") {
		t.Errorf("the answer of the new server is not shown:\n%s", plain(m))
	}
	m.Update(SubmitMsg{Text: "third question"})
	pump(t, m, nil)
	reqs = b.Requests()
	third := string(reqs[len(reqs)-1].Body)
	if len(reqs) != 2 || reqs[1].PreviousResponseID() != "" || strings.Count(third, "first question") != 1 || strings.Count(third, "second answer") != 1 {
		t.Errorf("the turn after the switch does not carry the history once: %s", third)
	}
	for _, turn := range m.turns.conv.Turns {
		if len(turn.Input) > 2 {
			t.Errorf("a turn keeps %d input items: the history is kept twice", len(turn.Input))
		}
	}
}

// TestProviderSwitchRefused: a provider without its key, an unknown name
// and the current one each get one line, and the chat stays where it was.
func TestProviderSwitchRefused(t *testing.T) {
	t.Parallel()
	m, a, _, connects := twoProviders(t)
	for _, tt := range []struct{ name, want string }{
		{"openai", `cannot switch to provider "openai": provider "openai": no API key: set $OPENAI_API_KEY — still on lmstudio`},
		{"olama", `unknown provider "olama" — use one of lmstudio, ollama, openai`},
		{"lmstudio", "already on provider lmstudio"},
	} {
		slashCmd(m, "provider", tt.name)
		if v := strings.Join(strings.Fields(plain(m)), " "); !strings.Contains(v, tt.want) {
			t.Errorf("/provider %s: no line %q:\n%s", tt.name, tt.want, plain(m))
		}
	}
	if m.opts.Client.BaseURL != a.URL || m.statusBar.status.ProviderName != "lmstudio" || m.turns.conv.Settings.Provider != "lmstudio" {
		t.Errorf("a refused switch moved the chat: client %s, status %q", m.opts.Client.BaseURL, m.statusBar.status.ProviderName)
	}
	if connects["olama"]+connects["lmstudio"] != 0 || connects["openai"] != 1 {
		t.Errorf("Connect calls %v; want openai once and no others", connects)
	}
	if strings.Contains(plain(m), "→") {
		t.Error("a refused switch drew a divider")
	}
}

// TestProviderPicker: /provider alone lists every provider, the current
// one marked; typing filters, enter switches (through /provider NAME).
func TestProviderPicker(t *testing.T) {
	t.Parallel()
	m, _, b, _ := twoProviders(t)
	m.Update(SlashMsg{Name: "provider"})
	v := plain(m)
	for _, want := range []string{"Providers", "lmstudio", "(current)", "ollama", "Ollama on this machine", "openai"} {
		if !strings.Contains(v, want) {
			t.Errorf("the picker lacks %q:\n%s", want, v)
		}
	}
	for _, r := range "openai" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if d, ok := m.dialog.(dlg[ProviderPicker]); !ok || d.v.Selected() != "openai" {
		t.Fatalf("typing openai does not select it (LM Studio's row says OpenAI-ish things too):\n%s", plain(m))
	}
	for range "openai" {
		m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	for _, r := range "oll" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if v := plain(m); strings.Contains(v, "lmstudio ") && strings.Contains(v, "(current)") {
		t.Errorf("the filter kept rows without \"oll\":\n%s", v)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter did nothing")
	}
	_, cmd = m.Update(cmd()) // SlashMsg{provider ollama}
	runCmd(m, cmd)           // Connect, then the switch
	if m.dialog != nil || m.statusBar.status.ProviderName != "ollama" || m.opts.Client.BaseURL != b.URL {
		t.Fatalf("enter did not switch: dialog %v, provider %q", m.dialog != nil, m.statusBar.status.ProviderName)
	}
}

// TestResumedOnAnotherProvider: a stored session saved on another
// provider goes on on the chat's, without its old chain.
func TestResumedOnAnotherProvider(t *testing.T) {
	t.Parallel()
	m, _, _, _ := twoProviders(t)
	m.turns.conv.Settings.Provider = "ollama" // as FromStore gives a session saved there
	line := keepProvider(m.turns.conv, m.statusBar.status.ProviderName, m.opts.Settings)
	if m.turns.conv.Settings.Provider != "lmstudio" || !strings.Contains(line, `was on provider "ollama"; it goes on on "lmstudio"`) {
		t.Errorf("keepProvider: provider %q, line %q", m.turns.conv.Settings.Provider, line)
	}
	if m.turns.conv.ChainID() != "" {
		t.Errorf("the old chain %q stays", m.turns.conv.ChainID())
	}
	if again := keepProvider(m.turns.conv, m.statusBar.status.ProviderName, m.opts.Settings); again != "" {
		t.Errorf("a session on the chat's provider: %q", again)
	}
}

// TestResumedDemoSession: a session the demo answered goes on on a real
// provider with the chat's model, and a real session shown in the demo
// takes the demo's, never a model name of the other side.
func TestResumedDemoSession(t *testing.T) {
	t.Parallel()
	m, _, _, _ := twoProviders(t)
	m.turns.conv.Settings.Provider, m.turns.conv.Settings.Model = "demo", "runnel-demo"
	keepProvider(m.turns.conv, m.statusBar.status.ProviderName, m.opts.Settings)
	if m.turns.conv.Settings.Model != m.opts.Settings.Model || m.turns.conv.Settings.Provider != "lmstudio" {
		t.Errorf("a demo session on lmstudio: provider %q model %q; want the chat's model %q", m.turns.conv.Settings.Provider, m.turns.conv.Settings.Model, m.opts.Settings.Model)
	}
	m.turns.conv.Settings.Provider, m.turns.conv.Settings.Model = "lmstudio", "qwen3"
	keepProvider(m.turns.conv, "demo", session.Settings{Model: "runnel-demo"})
	if m.turns.conv.Settings.Model != "runnel-demo" {
		t.Errorf("a real session in the demo keeps model %q", m.turns.conv.Settings.Model)
	}
}

// TestModelListOfTheOldProvider: a model list asked of the provider before
// a switch, arriving after it, is dropped; the new provider's is kept.
func TestModelListOfTheOldProvider(t *testing.T) {
	t.Parallel()
	m, _, _, _ := twoProviders(t)
	slashCmd(m, "provider", "ollama")
	m.Update(modelsMsg{list: models.List{Provider: "lmstudio", Models: []stream.ModelEntry{{ID: "openai/gpt-oss-20b"}}}})
	if m.metering.models.loaded || len(m.metering.models.ids) != 0 {
		t.Fatalf("the old provider's list was taken: %v", m.metering.models.ids)
	}
	m.Update(modelsMsg{list: models.List{Provider: "ollama", Models: []stream.ModelEntry{{ID: "qwen3:8b"}}}})
	if strings.Join(m.metering.models.ids, ",") != "qwen3:8b" {
		t.Errorf("the new provider's list: %v", m.metering.models.ids)
	}
}
