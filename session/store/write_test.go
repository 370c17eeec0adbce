package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream"
	"runnel/stream/sharedtest"
)

// Every real fixture, streamed into one session in SaveItems batches as the
// journal writes them, loads
// back with each item byte for byte as the accumulator last gave it.
func TestRecordRealFixturesByteForByte(t *testing.T) {
	t.Parallel() // it counts no allocations and times nothing; parallel tests run after the sequential ones, which do
	files := sharedtest.RealFiles(t)
	if len(files) != 39 {
		t.Fatalf("found %d real fixtures, want 39", len(files))
	}
	db, c := openTest(t)
	sid := newSession(t, db, `{"model":"gpt-5"}`)
	var recs []recorded
	for _, f := range files {
		rel, _ := filepath.Rel(sharedtest.RealDir(t), f)
		recs = append(recs, record(t, db, c, sid, "replay "+rel, rel))
	}
	s := load(t, db, sid)
	if len(s.Turns) != len(files) {
		t.Fatalf("%d turns, want %d", len(s.Turns), len(files))
	}
	for i, tr := range s.Turns {
		name := strings.TrimPrefix(tr.Prompt, "replay ")
		got, want := itemsOf(tr), recs[i].items
		if len(got) != len(want) {
			t.Errorf("%s: %d items stored (%s), want %d (%s)", name, len(got), fmtKeys(got), len(want), fmtKeys(want))
		}
		for k, w := range want {
			if !bytes.Equal(got[k], w) {
				t.Errorf("%s: item %d.%d differs:\n got %.200s\nwant %.200s", name, k.response, k.output, got[k], w)
			}
		}
		for _, r := range tr.Responses {
			for _, it := range r.Items {
				if !it.Done {
					t.Errorf("%s: item %d.%d not done after the turn finished", name, r.Index, it.OutputIndex)
				}
			}
			if r.Index < len(recs[i].acc.Responses()) && r.ID != recs[i].acc.Responses()[r.Index].ID {
				t.Errorf("%s: response %d id %q", name, r.Index, r.ID)
			}
		}
		if tr.Seq != i+1 || tr.Ended.Before(tr.Started) {
			t.Errorf("%s: seq %d, started %v, ended %v", name, tr.Seq, tr.Started, tr.Ended)
		}
	}
}

func TestRawItemBytesAreKeptExactly(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	in := json.RawMessage("{\"type\":\"message\", \"role\":\"user\",\n \"content\":\"spaced  <&> \\u00e9\"}")
	tid := must[TurnID](t)(db.BeginTurn(sid, "x", []json.RawMessage{in}, "resp_prev"))
	out := json.RawMessage("{ \"type\" : \"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"<b>\\u0041</b>\"}] }")
	check(t, db.SaveItem(tid, 0, 3, out, true))
	s := load(t, db, sid)
	tr := s.Turns[0]
	if string(tr.Input[0]) != string(in) || string(tr.Responses[0].Items[0].Raw) != string(out) {
		t.Errorf("bytes changed:\n%s\n%s", tr.Input[0], tr.Responses[0].Items[0].Raw)
	}
	if tr.PreviousResponseID != "resp_prev" || tr.Responses[0].Items[0].OutputIndex != 3 {
		t.Errorf("turn %+v", tr)
	}
}

func TestPartialNeverReplacesDone(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "q", nil, ""))
	check(t, db.SaveItem(tid, 0, 0, msg("m", "par"), false))
	check(t, db.SaveItem(tid, 0, 0, msg("m", "partial"), false))
	check(t, db.SaveItem(tid, 0, 0, msg("m", "the whole answer"), true))
	check(t, db.SaveItem(tid, 0, 0, msg("m", "late partial"), false))
	it := load(t, db, sid).Turns[0].Responses[0].Items[0]
	if !it.Done || !strings.Contains(string(it.Raw), "the whole answer") {
		t.Errorf("item %s done=%v, want the done one", it.Raw, it.Done)
	}
	if hits := must[[]Hit](t)(db.Search("late", 5)); len(hits) != 0 {
		t.Errorf("the ignored partial was indexed: %+v", hits)
	}
	if hits := must[[]Hit](t)(db.Search("whole answer", 5)); len(hits) != 1 {
		t.Errorf("done item not indexed once: %+v", hits)
	}
}

// A batch that fails on a full disk writes nothing, and the same batch
// saved again once there is room lands whole: the journal's next write of
// the item loses nothing.
func TestSaveItemsOnAFullDiskCanBeRetried(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "q", nil, ""))
	var pages int
	check(t, db.w.QueryRow("PRAGMA page_count").Scan(&pages))
	check(t, execSQL(db.w, "PRAGMA max_page_count = "+itoa(pages)))
	batch := []ItemWrite{
		{Response: 0, Output: 0, Raw: msg("m", "short"), Done: true},
		{Response: 0, Output: 1, Raw: msg("m2", strings.Repeat("big answer ", 3000)), Done: true},
	}
	if err := db.SaveItems(tid, batch); !errors.Is(err, ErrFull) {
		t.Fatalf("save on a full disk: %v", err)
	}
	if rs := load(t, db, sid).Turns[0].Responses; len(rs) != 0 {
		t.Fatalf("a failed batch left %d responses behind", len(rs))
	}
	check(t, execSQL(db.w, "PRAGMA max_page_count = 1073741823"))
	check(t, db.SaveItems(tid, batch))
	items := load(t, db, sid).Turns[0].Responses[0].Items
	if len(items) != 2 || !items[1].Done || len(items[1].Raw) < 30000 {
		t.Errorf("retried batch: %d items", len(items))
	}
}

func TestTitles(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	long := "  Why does\tmy \x1b[31mRust\x1b[0m code\nfail to compile?\n" + strings.Repeat("More detail. ", 20)
	must[TurnID](t)(db.BeginTurn(sid, long, nil, ""))
	must[TurnID](t)(db.BeginTurn(sid, "a later prompt", nil, ""))
	got := load(t, db, sid).Info.Title
	if !strings.HasPrefix(got, "Why does my Rust code fail to compile? More detail.") || strings.ContainsAny(got, "\n\t\x1b") {
		t.Errorf("title %q", got)
	}
	if n := len([]rune(got)); n != 80 || !strings.HasSuffix(got, "…") {
		t.Errorf("title is %d runes (%q), want 80 ending in …", n, got)
	}

	named := must[SessionID](t)(db.CreateSession(NewSession{Title: "my title"}))
	must[TurnID](t)(db.BeginTurn(named, "prompt", nil, ""))
	if got := load(t, db, named).Info.Title; got != "my title" {
		t.Errorf("explicit title replaced: %q", got)
	}
	check(t, db.SetTitle(named, "renamed"))
	if got := load(t, db, named).Info.Title; got != "renamed" {
		t.Errorf("after SetTitle: %q", got)
	}

	// No typed prompt (an approval turn): the input's text names it.
	quiet := newSession(t, db, `{}`)
	must[TurnID](t)(db.BeginTurn(quiet, "", []json.RawMessage{stream.UserText("from the input")}, ""))
	if got := load(t, db, quiet).Info.Title; got != "from the input" {
		t.Errorf("title from input: %q", got)
	}
}

const testAPIKey = "sk-runnel-test-7f3a9c1e5b2d4680"

// The store takes no key, and settings that carry one by accident are
// redacted before they reach the file.
func TestNoSecretsInTheFile(t *testing.T) {
	db, c := openTest(t)
	settings := `{"model":"gpt-5","instructions":"be nice","api_key":"` + testAPIKey + `",
		"tools":[{"type":"mcp","server_label":"x","server_url":"https://mcp.example","authorization":"tok-secret-42",
		"headers":{"Authorization":"Bearer ` + testAPIKey + `","X-Trace":"fine"}}],
		"extra":["` + testAPIKey + `"]}`
	sid := newSession(t, db, settings)
	record(t, db, c, sid, "hello", "charmbracelet__fantasy/openai-gpt-4o-mini-simple-text.sse")
	check(t, db.SetSettings(sid, json.RawMessage(settings)))
	s := load(t, db, sid)
	var m map[string]any
	check(t, json.Unmarshal(s.Settings, &m))
	if m["model"] != "gpt-5" || m["instructions"] != "be nice" || m["api_key"] != redacted {
		t.Errorf("settings %s", s.Settings)
	}
	if !strings.Contains(string(s.Settings), `"X-Trace":"fine"`) || !strings.Contains(string(s.Settings), `"server_url":"https://mcp.example"`) {
		t.Errorf("harmless settings lost: %s", s.Settings)
	}
	check(t, db.Close())
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(db.Path()), "*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, secret := range []string{testAPIKey, "tok-secret-42"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s contains %q", filepath.Base(f), secret)
			}
		}
	}
	if len(files) == 0 {
		t.Fatal("no database files to check")
	}
}

func TestBadArgumentsAreRefused(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "q", nil, ""))
	for name, err := range map[string]error{
		"string item":      db.SaveItem(tid, 0, 0, json.RawMessage(`"text"`), true),
		"broken item":      db.SaveItem(tid, 0, 0, json.RawMessage(`{"type":`), true),
		"negative index":   db.SaveItem(tid, -1, 0, msg("m", "x"), true),
		"unknown turn":     db.SaveItem(tid+100, 0, 0, msg("m", "x"), true),
		"streaming finish": db.FinishTurn(tid, TurnEnd{Status: StatusStreaming}),
		"bad usage":        db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, Usage: json.RawMessage(`{`)}),
		"array settings":   func() error { _, err := db.CreateSession(NewSession{Settings: json.RawMessage(`[1]`)}); return err }(),
		"input not object": func() error {
			_, err := db.BeginTurn(sid, "q", []json.RawMessage{json.RawMessage(`1`)}, "")
			return err
		}(),
	} {
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: err = %v, want ErrBadInput", name, err)
		}
	}
	if err := db.SaveItem(tid, 0, 0, json.RawMessage(`[]`), true); err.Error() != "not saved (save item): item 0 (response 0, output 0): want a JSON object, got an array" {
		t.Errorf("bad item reads %q", err)
	}
	if _, err := db.BeginTurn("nosuchid00", "q", nil, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown session: %v", err)
	}
	// None of that broke the turn.
	check(t, db.SaveItem(tid, 0, 0, msg("m", "fine"), true))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted}))
}

func TestFinishTurnFields(t *testing.T) {
	db, c := openTest(t)
	sid := newSession(t, db, `{}`)
	start := c.now()
	tid := must[TurnID](t)(db.BeginTurn(sid, "q", nil, "resp_0"))
	check(t, db.SaveItem(tid, 1, 0, msg("m", "second response"), true))
	check(t, db.FinishTurn(tid, TurnEnd{
		ResponseIDs: []string{"resp_a", "resp_b"}, Status: StatusFailed,
		Usage: json.RawMessage(`{"input_tokens":1}`), Error: "server_error: boom",
	}))
	tr := load(t, db, sid).Turns[0]
	if tr.Status != StatusFailed || tr.Error != "server_error: boom" || string(tr.Usage) != `{"input_tokens":1}` {
		t.Errorf("turn %+v", tr)
	}
	if len(tr.Responses) != 2 || tr.Responses[0].ID != "resp_a" || len(tr.Responses[0].Items) != 0 ||
		tr.Responses[1].ID != "resp_b" || len(tr.Responses[1].Items) != 1 {
		t.Errorf("responses %+v", tr.Responses)
	}
	if !tr.Started.After(start) || !tr.Ended.After(tr.Started) {
		t.Errorf("started %v ended %v (clock started at %v)", tr.Started, tr.Ended, start)
	}
}
