package models_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"runnel/session/models"
	"runnel/stream"
	"runnel/stream/sharedtest"
	"runnel/stream/streamtest"
)

// completedUsage is the model and usage of a recorded stream's
// response.completed event.
func completedUsage(t *testing.T, sse []byte) (string, *stream.Usage) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(sse))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || !strings.Contains(data, `"response.completed"`) {
			continue
		}
		var ev struct {
			Response struct {
				Model string        `json:"model"`
				Usage *stream.Usage `json:"usage"`
			} `json:"response"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatal(err)
		}
		return ev.Response.Model, ev.Response.Usage
	}
	t.Fatal("no response.completed in the fixture")
	return "", nil
}

// TestCostOnFixture prices a real gpt-5 snapshot's usage (input 3727 of
// which 3200 cached, output 347 of which 128 reasoning): uncached input at
// $1.25/M, cached at $0.125/M, all output (reasoning included) at $10/M.
func TestCostOnFixture(t *testing.T) {
	model, u := completedUsage(t, sharedtest.ReadReal(t, "pydantic__pydantic-ai/openai-reasoning-code-interpreter.sse"))
	if model != "gpt-5-2025-08-07" {
		t.Fatalf("model %q", model)
	}
	use := models.FromWire(u)
	if use != (models.Usage{Input: 3727, Cached: 3200, Output: 347, Reasoning: 128}) {
		t.Fatalf("usage %+v", use)
	}
	info, ok := models.Table{}.Lookup(model)
	if !ok {
		t.Fatal("the dated snapshot is not found as gpt-5")
	}
	got, ok := info.Cost(use)
	want := (527*1.25 + 3200*0.125 + 347*10.0) / 1e6
	if !ok || math.Abs(got-want) > 1e-12 {
		t.Fatalf("cost %v, want %v", got, want)
	}
	if s := models.FormatCost(got); s != "$0.0045" {
		t.Fatalf("formatted %q", s)
	}
	fill, ok := info.Fill(use)
	if !ok || fill != 1 { // 4074 of 400,000
		t.Fatalf("fill %d %v", fill, ok)
	}
}

func TestLookupRule(t *testing.T) {
	var tab models.Table
	for name, want := range map[string]bool{
		"gpt-5": true, "gpt-5-2025-08-07": true, "gpt-4o-20240806": true, "gpt-4.1-mini-2025-04-14": true,
		"gpt-5-turbo": false, "openai/gpt-5": false, "GPT-5": false, "-2025-08-07": false, "": false, "llama3": false,
	} {
		if _, ok := tab.Lookup(name); ok != want {
			t.Errorf("Lookup(%q) = %v, want %v", name, ok, want)
		}
	}
	for _, r := range tab.Rows() {
		if !strings.HasPrefix(r.Source, "https://") || r.Date == "" || r.ContextWindow <= 0 || !r.Priced() {
			t.Errorf("row %s has no source, date, window or price: %+v", r.Name, r.Info)
		}
	}
}

func TestUnknownModelHasNoFigure(t *testing.T) {
	info, ok := models.Table{}.Lookup("llama3")
	if ok {
		t.Fatal("found")
	}
	if _, ok := info.Cost(models.Usage{Input: 10, Output: 10}); ok {
		t.Fatal("a cost for an unknown model")
	}
	if _, ok := info.Fill(models.Usage{Input: 10, Output: 10}); ok {
		t.Fatal("a fill for an unknown model")
	}
	// a window without prices: a fill, no cost
	w := int64(1000)
	tab := models.NewTable(map[string]models.Override{"llama3": {ContextWindow: &w}}, "config.toml")
	info, _ = tab.Lookup("llama3")
	if p, ok := info.Fill(models.Usage{Input: 400, Output: 20}); !ok || p != 42 {
		t.Fatalf("fill %d %v", p, ok)
	}
	if _, ok := info.Cost(models.Usage{Input: 10}); ok {
		t.Fatal("a cost without prices")
	}
}

func TestOverrides(t *testing.T) {
	in, out, w := 2.0, 8.0, int64(32_000)
	tab := models.NewTable(map[string]models.Override{
		"gpt-5":            {InputPrice: &in},                                       // one figure changes, the others stay
		"my-model":         {ContextWindow: &w, InputPrice: &in, OutputPrice: &out}, // added
		"gpt-5-2025-08-07": {OutputPrice: &out},                                     // exact beats the snapshot rule
	}, "config.toml")
	g, _ := tab.Lookup("gpt-5")
	if g.Input != 2 || g.Output != 10 || g.CachedInput != 0.125 || g.ContextWindow != 400_000 || g.Source != "config.toml" {
		t.Fatalf("gpt-5 %+v", g)
	}
	s, _ := tab.Lookup("gpt-5-2025-08-07")
	if s.Output != 8 || s.Input != 1.25 {
		t.Fatalf("snapshot %+v", s)
	}
	m, _ := tab.Lookup("my-model")
	// no cached price: cached tokens are priced as input
	if c, ok := m.Cost(models.Usage{Input: 1_000_000, Cached: 500_000, Output: 1_000_000}); !ok || c != 10 {
		t.Fatalf("my-model cost %v %v", c, ok)
	}
	if b, _ := (models.Table{}).Lookup("gpt-5"); b.Input != 1.25 {
		t.Fatal("the built-in table changed")
	}
}

// TestListFromServerAndCache: the list is fetched once, then read from
// the cache until the TTL passes.
func TestListFromServerAndCache(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" || r.Method != http.MethodGet || r.Header.Get("Authorization") != "Bearer k" {
			http.NotFound(w, r)
			return
		}
		hits++
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"list","data":[{"id":"gpt-5","owned_by":"openai"},{"id":"bad\u001b[31m"},{"id":"a b"},{"id":"gpt-4.1"}]}`))
	}))
	defer srv.Close()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := models.Lister{Client: &stream.Client{BaseURL: srv.URL + "/v1", APIKey: "k"}, CacheDir: t.TempDir(), Now: func() time.Time { return now }}
	got, err := l.List(context.Background(), false)
	if err != nil || got.Cached || strings.Join(got.IDs(), ",") != "bad,gpt-4.1,gpt-5" {
		t.Fatalf("%v %v %v", got.IDs(), got.Cached, err)
	}
	got, err = l.List(context.Background(), false)
	if err != nil || !got.Cached || hits != 1 {
		t.Fatalf("cached %v, hits %d, %v", got.Cached, hits, err)
	}
	now = now.Add(models.TTL)
	if got, _ = l.List(context.Background(), false); got.Cached || hits != 2 {
		t.Fatalf("after the TTL: cached %v, hits %d", got.Cached, hits)
	}
	if got, _ = l.List(context.Background(), true); got.Cached || hits != 3 {
		t.Fatalf("refresh: cached %v, hits %d", got.Cached, hits)
	}
}

// TestList404 is a server without /models (streamtest answers 404): one
// line saying why, that a name can be typed, and the configured model.
func TestList404(t *testing.T) {
	srv := streamtest.New(t)
	l := models.Lister{Client: &stream.Client{BaseURL: srv.URL}, CacheDir: t.TempDir()}
	_, err := l.List(context.Background(), false)
	if err == nil {
		t.Fatal("no error")
	}
	why := models.Why(err, "gpt-5")
	if strings.Contains(why, "\n") || !strings.Contains(why, "404") || !strings.Contains(why, "type a model name; configured: gpt-5") {
		t.Fatalf("why: %q", why)
	}
	if _, err := (models.Lister{}).List(context.Background(), false); models.Why(err, "x") != "no model list (the demo has no model list) — type a model name; configured: x" {
		t.Fatalf("demo: %q", models.Why(err, "x"))
	}
}

// TestListBadAnswers: a body that is not a model list, or an HTML error
// page, is one line; nothing is cached.
func TestListBadAnswers(t *testing.T) {
	for body, want := range map[string]string{
		`{"object":"list"}`:                       "the answer is not a model list",
		`<html><title>Bad Gateway</title></html>`: "502 Bad Gateway",
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(body, "<") {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(http.StatusBadGateway)
			}
			w.Write([]byte(body))
		}))
		dir := t.TempDir()
		_, err := models.Lister{Client: &stream.Client{BaseURL: srv.URL}, CacheDir: dir}.List(context.Background(), false)
		srv.Close()
		if why := models.Why(err, "gpt-5"); err == nil || !strings.Contains(why, want) || strings.Contains(why, "\n") {
			t.Errorf("%s: %q", body, why)
		}
	}
}

// TestListPerProvider: two providers on one server (one port, two keys)
// keep their own cached lists; each is asked once.
func TestListPerProvider(t *testing.T) {
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Authorization")
		hits[key]++
		w.Header().Set("Content-Type", "application/json")
		if key == "Bearer a" {
			w.Write([]byte(`{"object":"list","data":[{"id":"model-a"}]}`))
			return
		}
		w.Write([]byte(`{"object":"list","data":[{"id":"model-b"}]}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	a := models.Lister{Client: &stream.Client{BaseURL: srv.URL, APIKey: "a"}, Provider: "team-a", CacheDir: dir}
	b := models.Lister{Client: &stream.Client{BaseURL: srv.URL, APIKey: "b"}, Provider: "team-b", CacheDir: dir}
	for range 2 {
		la, errA := a.List(context.Background(), false)
		lb, errB := b.List(context.Background(), false)
		if errA != nil || errB != nil || strings.Join(la.IDs(), ",") != "model-a" || strings.Join(lb.IDs(), ",") != "model-b" {
			t.Fatalf("team-a %v (%v), team-b %v (%v)", la.IDs(), errA, lb.IDs(), errB)
		}
	}
	if hits["Bearer a"] != 1 || hits["Bearer b"] != 1 {
		t.Errorf("asked %v; want each provider once, then its own cache", hits)
	}
}

// Priority costs twice the standard prices and flex half; the cache share
// is cached over input tokens.
func TestTierCostAndCacheShare(t *testing.T) {
	info := models.Info{Input: 1.25, CachedInput: 0.125, Output: 10}
	u := models.Usage{Input: 1_000_000, Cached: 500_000, Output: 100_000}
	std, _ := info.Cost(u)
	for tier, f := range map[string]float64{"": 1, "default": 1, "auto": 1, "priority": 2, "flex": 0.5} {
		if d, ok := info.TierCost(u, tier); !ok || math.Abs(d-std*f) > 1e-9 {
			t.Errorf("%q: %v, want %v", tier, d, std*f)
		}
	}
	if p, ok := models.CacheShare(models.Usage{Input: 1000, Cached: 833}); !ok || p != 83 {
		t.Errorf("share %d %v", p, ok)
	}
	if _, ok := models.CacheShare(models.Usage{}); ok {
		t.Error("a share of nothing")
	}
}
