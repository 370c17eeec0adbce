package store

import (
	"encoding/json"
	"strings"
	"testing"

	"runnel/stream"
)

// say stores a completed one-item turn.
func say(t *testing.T, db *DB, sid SessionID, prompt, answer string) TurnID {
	t.Helper()
	tid := must[TurnID](t)(db.BeginTurn(sid, prompt, []json.RawMessage{stream.UserText(prompt)}, ""))
	check(t, db.SaveItem(tid, 0, 0, msg("m", answer), true))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, ResponseIDs: []string{"r"}}))
	return tid
}

func TestSearchRanksThePromptAboveAPassingMention(t *testing.T) {
	db, _ := openTest(t)
	filler := strings.Repeat("The deployment pipeline builds containers, runs the unit tests and pushes images to the registry. ", 30)
	other := newSession(t, db, `{}`)
	say(t, db, other, "how do I speed up my CI pipeline?", filler+"You could also put nginx in front as a cache. "+filler)
	say(t, db, other, "thanks", "You're welcome.")
	main := newSession(t, db, `{}`)
	say(t, db, main, "how do I configure nginx as a reverse proxy?", "Use a server block with proxy_pass pointing at the upstream.")

	hits := must[[]Hit](t)(db.Search("nginx", 10))
	if len(hits) != 2 {
		t.Fatalf("%d hits, want 2: %+v", len(hits), hits)
	}
	if hits[0].Session != main || hits[0].Turn != 1 || hits[0].Title != "how do I configure nginx as a reverse proxy?" {
		t.Errorf("best hit %+v, want the turn that asks about nginx", hits[0])
	}
	if hits[1].Session != other || hits[0].Rank >= hits[1].Rank {
		t.Errorf("second hit %+v (ranks %v, %v)", hits[1], hits[0].Rank, hits[1].Rank)
	}
	for _, h := range hits {
		if len(h.Marks) == 0 {
			t.Fatalf("no marks in %q", h.Snippet)
		}
		for _, m := range h.Marks {
			if got := h.Snippet[m.Start:m.End]; !strings.EqualFold(got, "nginx") {
				t.Errorf("mark %v covers %q in %q", m, got, h.Snippet)
			}
		}
	}
	if !strings.Contains(hits[1].Snippet, "…") || len(hits[1].Snippet) > 300 {
		t.Errorf("long answer's snippet is not cut around the match: %q", hits[1].Snippet)
	}
}

func TestSearchCoversAnswersReasoningAndTools(t *testing.T) {
	db, c := openTest(t)
	sid := newSession(t, db, `{}`)
	record(t, db, c, sid, "how should I cross?", "pydantic__pydantic-ai/openai-reasoning-4-summary-parts.sse")
	record(t, db, c, sid, "run something", "vercel__ai/openai-shell-container.sse")
	record(t, db, c, sid, "arithmetic", "charmbracelet__fantasy/openai-gpt-4o-parallel-function-calls.sse")
	tid := must[TurnID](t)(db.BeginTurn(sid, "", []json.RawMessage{json.RawMessage(
		`{"type":"function_call_output","call_id":"c","output":"barometric pressure falling"}`)}, ""))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted}))

	for q, turn := range map[string]int{
		"interpret guidance":           1, // reasoning summary only
		"road safety professional":     1, // answer
		"uname":                        2, // shell command
		"container-host":               2, // shell output
		"multiply":                     3, // function name
		"barometric pressure":          4, // tool output sent as input
		"crossing instructions street": 1, // stemmed: "crossing" ~ "cross"
	} {
		hits := must[[]Hit](t)(db.Search(q, 5))
		if len(hits) == 0 || hits[0].Turn != turn {
			t.Errorf("search %q: %+v, want turn %d first", q, hits, turn)
		}
	}
}

func TestSearchOneHitPerTurnAndLimit(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	for i := 0; i < 5; i++ {
		say(t, db, sid, "tell me about otters", "Otters are playful. Otters hold hands.")
	}
	if hits := must[[]Hit](t)(db.Search("otters", 0)); len(hits) != 5 {
		t.Errorf("%d hits for 5 turns matching in prompt and answer, want 5", len(hits))
	}
	if hits := must[[]Hit](t)(db.Search("otters", 3)); len(hits) != 3 {
		t.Errorf("limit 3 gave %d", len(hits))
	}
}

func TestSearchOddInputNeverErrors(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	say(t, db, sid, `what is "AND" in SQL; NOT NULL (or *)?`, "col:value and NEAR(a b) are FTS syntax, -x too. C++ and C# ^caret")
	odd := []string{
		`"`, `""`, `"""`, `AND`, `OR`, `NOT`, `AND OR NOT`, `*`, `-`, `-foo`, `col:foo`, `prompt:what`,
		`NEAR(a b)`, `^x`, `a"b`, `(`, `)`, `{}`, "\x00", "\x1b[31m", `'`, `;DROP TABLE sessions;--`,
		`C++`, `C#`, `🙂`, strings.Repeat("word ", 500), "   ", "", `\`, `%`, `_`, "\uE000",
	}
	for _, q := range odd {
		if _, err := db.Search(q, 5); err != nil {
			t.Errorf("Search(%.30q): %v", q, err)
		}
	}
	for q, want := range map[string]int{`"AND"`: 1, `NOT`: 1, `NEAR(a`: 1, `C++`: 1, `col:value`: 1, `nothing-here`: 0} {
		if hits := must[[]Hit](t)(db.Search(q, 5)); len(hits) != want {
			t.Errorf("Search(%q): %d hits, want %d", q, len(hits), want)
		}
	}
	if must[[]SessionInfo](t)(db.List(0))[0].Turns != 1 {
		t.Error("the injection attempt changed something")
	}
}

func TestSnippetIsSafeAndMarkersAreOurs(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	say(t, db, sid, "colours", "line one\n\x1b[31mdanger\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x07 zone\r\nfake \uE000marker\uE001 here")
	hits := must[[]Hit](t)(db.Search("danger", 5))
	if len(hits) != 1 {
		t.Fatalf("hits %+v", hits)
	}
	h := hits[0]
	if strings.ContainsAny(h.Snippet, "\x1b\x07\r\n\uE000\uE001") {
		t.Errorf("unsafe snippet %q", h.Snippet)
	}
	if len(h.Marks) != 1 || h.Snippet[h.Marks[0].Start:h.Marks[0].End] != "danger" {
		t.Errorf("marks %v in %q, want exactly the match", h.Marks, h.Snippet)
	}
	if !strings.Contains(h.Snippet, "line one danger link zone fake marker here") {
		t.Errorf("snippet %q", h.Snippet)
	}
}

func TestParseSnippet(t *testing.T) {
	for in, want := range map[string]struct {
		text  string
		marks []Span
	}{
		"a \uE000b\uE001 c":           {"a b c", []Span{{2, 3}}},
		"\uE000x\uE001\uE000y\uE001":  {"xy", []Span{{0, 1}, {1, 2}}},
		"  lead \n\n \uE000é\uE001  ": {"lead é", []Span{{5, 7}}},
		"…tail \uE000end":             {"…tail end", nil},
		"\uE001stray close":           {"stray close", nil},
	} {
		text, marks := parseSnippet(in)
		if text != want.text || len(marks) != len(want.marks) {
			t.Errorf("parseSnippet(%q) = %q %v, want %q %v", in, text, marks, want.text, want.marks)
			continue
		}
		for i := range marks {
			if marks[i] != want.marks[i] {
				t.Errorf("parseSnippet(%q) marks %v, want %v", in, marks, want.marks)
			}
		}
	}
}

// A streaming turn is findable from its partial items; once it ends, its
// rows fold into one, so bm25 ranks whole turns.
func TestIndexFoldsAFinishedTurn(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "tell me about lemurs", nil, ""))
	check(t, db.SaveItem(tid, 0, 0, json.RawMessage(`{"type":"reasoning","summary":[{"type":"summary_text","text":"Thinking about primates"}]}`), true))
	check(t, db.SaveItem(tid, 0, 1, msg("m", "Lemurs live in Madag"), false))
	rows := func() int {
		var n int
		check(t, db.r.QueryRow(`SELECT count(*) FROM search WHERE turn = ?`, int64(tid)).Scan(&n))
		return n
	}
	if n := rows(); n != 3 {
		t.Errorf("streaming turn has %d search rows, want prompt + 2 items", n)
	}
	if hits := must[[]Hit](t)(db.Search("madag", 5)); len(hits) != 1 {
		t.Errorf("partial answer not findable: %+v", hits)
	}
	check(t, db.SaveItem(tid, 0, 1, msg("m", "Lemurs live in Madagascar."), true))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted}))
	if n := rows(); n != 1 {
		t.Errorf("finished turn has %d search rows, want 1", n)
	}
	for _, q := range []string{"lemurs primates madagascar", "tell"} {
		if hits := must[[]Hit](t)(db.Search(q, 5)); len(hits) != 1 || hits[0].Turn != 1 {
			t.Errorf("search %q after folding: %+v", q, hits)
		}
	}
	if hits := must[[]Hit](t)(db.Search("madag", 5)); len(hits) != 0 {
		t.Errorf("the replaced partial is still indexed: %+v", hits)
	}
	// A late save to the finished turn re-folds it.
	check(t, db.SaveItem(tid, 0, 2, msg("m2", "Also ring-tailed."), true))
	if n := rows(); n != 1 || len(must[[]Hit](t)(db.Search("ring-tailed", 5))) != 1 {
		t.Errorf("after a late save: %d rows", n)
	}
}
