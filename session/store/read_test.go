package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"runnel/stream"
)

func TestListLatestAndPreview(t *testing.T) {
	db, c := openTest(t)
	if _, err := db.Latest(); !errors.Is(err, ErrNotFound) {
		t.Errorf("Latest on an empty history: %v", err)
	}
	if list := must[[]SessionInfo](t)(db.List(10)); len(list) != 0 {
		t.Errorf("empty history lists %v", list)
	}
	a := newSession(t, db, `{"model":"gpt-a"}`)
	record(t, db, c, a, "first question", "charmbracelet__fantasy/openai-gpt-4o-mini-simple-text.sse")
	b := newSession(t, db, `{"model":"gpt-b"}`)
	record(t, db, c, b, "use tools please", "vercel__ai/openai-shell-container.sse")
	empty := newSession(t, db, `{}`) // created, nothing sent yet: still listed

	list := must[[]SessionInfo](t)(db.List(0))
	if len(list) != 3 || list[0].ID != empty || list[1].ID != b || list[2].ID != a {
		t.Fatalf("order %v, want newest first: %s %s %s", list, empty, b, a)
	}
	if list[1].Model != "gpt-b" || list[1].Turns != 1 || list[1].Title != "use tools please" {
		t.Errorf("listed %+v", list[1])
	}
	if want := "The command ran successfully in the container. Here's the output:"; list[1].Preview != want {
		t.Errorf("preview %q, want %q", list[1].Preview, want)
	}
	if !list[1].Updated.After(list[1].Created) {
		t.Errorf("updated %v not after created %v", list[1].Updated, list[1].Created)
	}
	if got := must[[]SessionInfo](t)(db.List(2)); len(got) != 2 {
		t.Errorf("List(2) gave %d", len(got))
	}
	// A new turn moves a session to the top.
	record(t, db, c, a, "follow-up", "charmbracelet__fantasy/openai-gpt-4o-mini-simple-text.sse")
	if id := must[SessionID](t)(db.Latest()); id != a {
		t.Errorf("Latest %s, want %s", id, a)
	}
}

func TestResolve(t *testing.T) {
	db, _ := openTest(t)
	ids := []SessionID{"0abc123xyz", "0abc124xyz", "0abd999xyz"}
	for _, id := range ids {
		_, err := db.w.Exec(`INSERT INTO sessions (id, title, created, updated) VALUES (?, ?, 1, 1)`, string(id), "title "+string(id))
		check(t, err)
	}
	for in, want := range map[string]SessionID{
		"0abc123xyz": "0abc123xyz", "0ABC123": "0abc123xyz", " 0abd ": "0abd999xyz", "0abc124": "0abc124xyz",
	} {
		if got, err := db.Resolve(in); err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := db.Resolve("0abc")
	if !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "0abc123xyz (title 0abc123xyz)") || !strings.Contains(err.Error(), "0abc124xyz") {
		t.Errorf("ambiguous: %v", err)
	}
	for _, in := range []string{"zzz", "", "0abc123xyz0", "%", "0a_c"} {
		if _, err := db.Resolve(in); !errors.Is(err, ErrNotFound) {
			t.Errorf("Resolve(%q): %v, want ErrNotFound", in, err)
		}
	}
	// Real ids are unique and resolve from a prefix.
	real := newSession(t, db, `{}`)
	if got := must[SessionID](t)(db.Resolve(string(real))); got != real || !validID(string(real)) {
		t.Errorf("real id %q resolved to %q", real, got)
	}
}

func TestNewSessionIDsSortByTimeAndDiffer(t *testing.T) {
	db, c := openTest(t)
	seen := map[SessionID]bool{}
	var last SessionID
	for i := 0; i < 200; i++ {
		c.advance(time1s(i % 2))
		id := newSession(t, db, `{}`)
		if seen[id] || (i%2 == 1 && id < last) {
			t.Fatalf("id %s after %s (duplicate or out of order)", id, last)
		}
		seen[id], last = true, id
	}
}

func TestDelete(t *testing.T) {
	db, c := openTest(t)
	keep := newSession(t, db, `{}`)
	record(t, db, c, keep, "keep the zebra", "charmbracelet__fantasy/openai-gpt-4o-mini-simple-text.sse")
	gone := newSession(t, db, `{}`)
	record(t, db, c, gone, "forget the zebra", "vercel__ai/openai-shell-container.sse")
	check(t, db.Delete(gone))
	if _, _, err := db.Load(gone); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load after Delete: %v", err)
	}
	if err := db.Delete(gone); !errors.Is(err, ErrNotFound) {
		t.Errorf("second Delete: %v", err)
	}
	hits := must[[]Hit](t)(db.Search("zebra", 10))
	if len(hits) != 1 || hits[0].Session != keep {
		t.Errorf("search after delete: %+v", hits)
	}
	for _, table := range []string{"turns", "items", "search"} {
		var n int
		check(t, db.r.QueryRow(`SELECT count(*) FROM `+table+` WHERE `+map[string]string{
			"turns": "session_id = ?", "items": "turn_id IN (SELECT id FROM turns WHERE session_id = ?)",
			"search": "turn NOT IN (SELECT id FROM turns) AND ? != ''",
		}[table], string(gone)).Scan(&n))
		if n != 0 {
			t.Errorf("%d %s rows left behind", n, table)
		}
	}
}

// A row that does not decode is skipped with a warning; the rest loads.
func TestLoadSkipsUndecodableRows(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	var tids []TurnID
	for i := 1; i <= 4; i++ {
		tid := must[TurnID](t)(db.BeginTurn(sid, fmt.Sprint("q", i), []json.RawMessage{stream.UserText("q")}, ""))
		check(t, db.SaveItem(tid, 0, 0, msg("a", fmt.Sprint("answer ", i)), true))
		check(t, db.SaveItem(tid, 0, 1, msg("b", fmt.Sprint("more ", i)), true))
		check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, ResponseIDs: []string{fmt.Sprint("resp_", i)}}))
		tids = append(tids, tid)
	}
	for _, q := range []struct {
		sql string
		tid TurnID
	}{
		{`UPDATE items SET raw = 'not json {' WHERE turn_id = ? AND output_idx = 1`, tids[0]},
		{`UPDATE turns SET input = '{"oops":1}' WHERE id = ?`, tids[1]},
		{`UPDATE turns SET started = 'yesterday' WHERE id = ?`, tids[2]},
	} {
		_, err := db.w.Exec(q.sql, int64(q.tid))
		check(t, err)
	}
	// tids[0]: item 1 broken; tids[1]: input broken; tids[2]: started broken.
	s, warn, err := db.Load(sid)
	check(t, err)
	if len(warn) != 3 {
		t.Fatalf("warnings %v, want 3", warn)
	}
	for i, want := range []string{"turn 1, response 0, item 1: stored item: not valid JSON; skipped", "turn 2: stored input is not a JSON array; turn skipped", "turn row 3"} {
		if !strings.Contains(fmt.Sprint(warn), want) {
			t.Errorf("warning %d: %v lacks %q", i, warn, want)
		}
	}
	if len(s.Turns) != 2 || s.Turns[0].Seq != 1 || s.Turns[1].Seq != 4 {
		t.Fatalf("turns loaded: %d", len(s.Turns))
	}
	if n := len(s.Turns[0].Responses[0].Items); n != 1 {
		t.Errorf("turn 1 has %d items, want the 1 good one", n)
	}
	if n := len(s.Turns[1].Responses[0].Items); n != 2 {
		t.Errorf("turn 4 has %d items", n)
	}
}

func TestLastResponseIDFollowsTheChain(t *testing.T) {
	s := &Session{Turns: []Turn{
		{Status: StatusCompleted, ResponseIDs: []string{"r1"}},
		{Status: StatusIncomplete, ResponseIDs: []string{"r2a", "r2b"}},
		{Status: StatusFailed, ResponseIDs: []string{"r3"}},
		{Status: StatusStopped, ResponseIDs: []string{"r4"}},
		{Status: StatusInterrupted},
	}}
	if got := s.LastResponseID(); got != "r2b" {
		t.Errorf("LastResponseID %q, want r2b", got)
	}
	if got := (&Session{}).LastResponseID(); got != "" {
		t.Errorf("empty session: %q", got)
	}
}

func TestRebuildInput(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	user := func(s string) json.RawMessage { return stream.UserText(s) }
	items := func(raws ...string) []Response {
		r := Response{}
		for i, s := range raws {
			r.Items = append(r.Items, Item{OutputIndex: i, Raw: raw(s), Done: true})
		}
		return []Response{r}
	}
	s := &Session{Turns: []Turn{
		{Status: StatusCompleted, Input: []json.RawMessage{user("weather?")}, Responses: items(
			`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"ENC"}`,
			`{"type":"reasoning","id":"rs_2","summary":[]}`,
			`{"type":"function_call","call_id":"c1","name":"w","arguments":"{}"}`)},
		{Status: StatusCompleted, Input: []json.RawMessage{raw(`{"type":"function_call_output","call_id":"c1","output":"sunny"}`)},
			Responses: items(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Sunny."}]}`)},
		{Status: StatusStopped, Input: []json.RawMessage{user("stopped prompt")}, Responses: items(
			`{"type":"function_call","call_id":"c2","name":"w","arguments":"{}"}`)},
		{Status: StatusFailed, Input: []json.RawMessage{raw(`{"type":"function_call_output","call_id":"c2","output":"x"}`)}},
		{Status: StatusCompleted, Input: []json.RawMessage{raw(`{"type":"function_call_output","call_id":"c2","output":"orphan"}`), user("next")},
			Responses: items(`{"type":"mcp_approval_request","id":"apr_1","name":"t","server_label":"s","arguments":"{}"}`)},
		{Status: StatusCompleted, Input: []json.RawMessage{raw(`{"type":"mcp_approval_response","approval_request_id":"apr_1","approve":true}`),
			raw(`{"type":"mcp_approval_response","approval_request_id":"apr_gone","approve":true}`)}},
		{Status: StatusInterrupted, Input: []json.RawMessage{user("died")}, Responses: items(`{"type":"message","role":"assistant","content":[]}`)},
	}}
	var got []string
	for _, r := range s.RebuildInput() {
		got = append(got, string(r))
	}
	want := []string{
		string(user("weather?")),
		`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"ENC"}`,
		`{"type":"function_call","call_id":"c1","name":"w","arguments":"{}"}`,
		`{"type":"function_call_output","call_id":"c1","output":"sunny"}`,
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Sunny."}]}`,
		string(user("next")),
		`{"type":"mcp_approval_request","id":"apr_1","name":"t","server_label":"s","arguments":"{}"}`,
		`{"type":"mcp_approval_response","approval_request_id":"apr_1","approve":true}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("RebuildInput:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// RebuildInput on a real recorded conversation: the function call fixture's
// items come back byte for byte, paired with the output the next turn sent.
func TestRebuildInputFromStore(t *testing.T) {
	db, c := openTest(t)
	sid := newSession(t, db, `{}`)
	first := record(t, db, c, sid, "weather in two cities", "charmbracelet__fantasy/openai-gpt-4o-parallel-function-calls.sse")
	var calls []string
	for _, s := range first.acc.Responses() {
		for _, it := range s.Items {
			if it.Type == "function_call" {
				calls = append(calls, it.CallID)
			}
		}
	}
	if len(calls) != 2 {
		t.Fatalf("fixture has %d calls", len(calls))
	}
	var outs []json.RawMessage
	for _, id := range calls {
		outs = append(outs, json.RawMessage(`{"type":"function_call_output","call_id":"`+id+`","output":"20C"}`))
	}
	tid := must[TurnID](t)(db.BeginTurn(sid, "", outs, "resp_x"))
	check(t, db.SaveItem(tid, 0, 0, msg("m", "Both are 20C."), true))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, ResponseIDs: []string{"resp_y"}}))

	s := load(t, db, sid)
	in := s.RebuildInput()
	if len(in) != 1+2+2+1 {
		t.Fatalf("%d input items: %s", len(in), in)
	}
	if string(in[1]) != string(first.items[itemKey{0, 0}]) || string(in[3]) != string(outs[0]) || string(in[5]) != string(msg("m", "Both are 20C.")) {
		t.Errorf("rebuilt input out of order or changed:\n%s", in)
	}
	if s.LastResponseID() != "resp_y" {
		t.Errorf("LastResponseID %q", s.LastResponseID())
	}
}

func time1s(n int) time.Duration { return time.Duration(n) * time.Second }

// A session row with damaged fields is still listed and loads.
func TestDamagedSessionRowIsStillListed(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{"model":"m"}`)
	say(t, db, sid, "hello", "hi")
	_, err := db.w.Exec(`UPDATE sessions SET updated = 'soon', created = x'00', title = 42, settings = 'nope' WHERE id = ?`, string(sid))
	check(t, err)
	list := must[[]SessionInfo](t)(db.List(0))
	if len(list) != 1 || list[0].ID != sid || list[0].Turns != 1 || !list[0].Updated.IsZero() {
		t.Fatalf("list %+v", list)
	}
	s, warn, err := db.Load(sid)
	check(t, err)
	if len(s.Turns) != 1 || len(warn) != 1 || !strings.Contains(warn[0].Error(), "settings") || string(s.Settings) != "{}" {
		t.Errorf("load: %d turns, warnings %v, settings %s", len(s.Turns), warn, s.Settings)
	}
}
