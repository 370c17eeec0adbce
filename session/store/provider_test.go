package store

import (
	"encoding/json"
	"testing"
)

// A session's provider is its settings' "provider": written with them,
// listed and loaded, and replaced when the settings change (a /provider
// switch); a JSON export and import keeps it.
func TestProviderRoundTrip(t *testing.T) {
	db, _ := openTest(t)
	id := newSession(t, db, `{"model":"qwen3","provider":"ollama","store":false}`)
	if got := load(t, db, id).Info.Provider; got != "ollama" {
		t.Fatalf("loaded provider %q, want ollama", got)
	}
	check(t, db.SetSettings(id, json.RawMessage(`{"model":"gpt-5","provider":"openai","store":true}`)))
	s := load(t, db, id)
	if s.Info.Provider != "openai" || s.Info.Model != "gpt-5" {
		t.Fatalf("after SetSettings: provider %q model %q, want openai gpt-5", s.Info.Provider, s.Info.Model)
	}
	list := must[[]SessionInfo](t)(db.List(0))
	if len(list) != 1 || list[0].Provider != "openai" {
		t.Fatalf("listed %+v, want provider openai", list)
	}
	exported := must[ExportFile](t)(db.Export(id))
	back := must[SessionID](t)(db.Import(exported.Data))
	if got := load(t, db, back).Info.Provider; got != "openai" {
		t.Errorf("imported provider %q, want openai", got)
	}
	old := newSession(t, db, `{"model":"gpt-4.1"}`) // saved before providers were named
	if got := load(t, db, old).Info.Provider; got != "" {
		t.Errorf("a session naming no provider loads %q, want \"\"", got)
	}
}

// A version-4 database gains the column, filled from the settings.
func TestMigrateV4AddsProvider(t *testing.T) {
	path, _ := loadV1(t)
	db, err := Open(path)
	check(t, err)
	defer db.Close()
	var n int
	check(t, db.r.QueryRow(`SELECT count(*) FROM sessions WHERE provider = ''`).Scan(&n))
	if n != 2 {
		t.Errorf("%d migrated sessions with an empty provider, want 2 (their settings name none)", n)
	}
}
