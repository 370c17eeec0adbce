package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"runnel/stream"
	"runnel/stream/sharedtest"
)

// TestMain lets the test binary double as the child process of the
// multi-process tests: with RUNNEL_STORE_CHILD set it runs that role and exits.
func TestMain(m *testing.M) {
	if role := os.Getenv(childEnv); role != "" {
		os.Exit(runChild(role))
	}
	code := m.Run()
	cleanBench()
	os.Exit(code)
}

// clock is a fake time source that moves one millisecond per reading, so
// rows written one after another get distinct, ordered times.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// openTest opens a fresh database in a temporary directory on a fake clock.
func openTest(t testing.TB) (*DB, *clock) {
	t.Helper()
	c := newClock()
	db, err := open(filepath.Join(t.TempDir(), "runnel.db"), options{now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, c
}

func must[T any](t testing.TB) func(v T, err error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func check(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// fixture returns the bytes of a recorded stream under ../shared/fixtures/real.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	return sharedtest.ReadReal(t, name)
}

// recorded is what streaming a fixture into the store wrote.
type recorded struct {
	turn  TurnID
	items map[itemKey]json.RawMessage // final bytes per item, as the accumulator gave them
	acc   *stream.Accumulator
}

// record streams a real fixture into a new turn the way session.Journal
// does: every event goes to the accumulator, the touched item is kept
// pending, and the pending items go to SaveItems in one batch when one of
// them is done or a second has passed since the last batch (time moving
// 50 ms per event); at the end every item is saved done, then FinishTurn.
func record(t testing.TB, db *DB, c *clock, sid SessionID, prompt, name string) recorded {
	t.Helper()
	prev := ""
	tid := must[TurnID](t)(db.BeginTurn(sid, prompt, []json.RawMessage{stream.UserText(prompt)}, prev))
	pending := map[itemKey]ItemWrite{}
	var last time.Time
	save := func(now time.Time) {
		batch := make([]ItemWrite, 0, len(pending))
		for _, w := range pending {
			batch = append(batch, w)
		}
		clear(pending)
		last = now
		check(t, db.SaveItems(tid, batch))
	}
	var acc stream.Accumulator
	d := stream.NewDecoder(strings.NewReader(string(fixture(t, name))))
	for d.Next() {
		it, err := acc.Apply(d.Event())
		c.advance(50 * time.Millisecond)
		if err != nil || it == nil {
			continue
		}
		ri := len(acc.Responses()) - 1
		pending[itemKey{ri, it.Index}] = ItemWrite{Response: ri, Output: it.Index, Raw: it.JSON(), Done: it.Done}
		if now := c.now(); it.Done || now.Sub(last) >= time.Second {
			save(now)
		}
	}
	acc.Finish()
	out := recorded{turn: tid, items: map[itemKey]json.RawMessage{}, acc: &acc}
	end := TurnEnd{Status: StatusCompleted}
	for ri, s := range acc.Responses() {
		for _, it := range s.Items {
			raw := it.JSON()
			pending[itemKey{ri, it.Index}] = ItemWrite{Response: ri, Output: it.Index, Raw: raw, Done: true}
			out.items[itemKey{ri, it.Index}] = raw
		}
		end.ResponseIDs = append(end.ResponseIDs, s.ID)
		if s.Status != "" && s.Status != "completed" {
			end.Status = Status(s.Status)
		}
		if s.Usage != nil {
			end.Usage, _ = json.Marshal(s.Usage)
		}
		if s.Error != nil {
			end.Error = s.Error.Message
		}
	}
	if !end.Status.final() {
		end.Status = StatusFailed
	}
	save(c.now())
	check(t, db.FinishTurn(tid, end))
	return out
}

// SaveItem stores one item: SaveItems for a batch of one.
func (db *DB) SaveItem(tid TurnID, responseIdx, outputIdx int, raw json.RawMessage, done bool) error {
	return db.SaveItems(tid, []ItemWrite{{Response: responseIdx, Output: outputIdx, Raw: raw, Done: done}})
}

func newSession(t testing.TB, db *DB, settings string) SessionID {
	t.Helper()
	return must[SessionID](t)(db.CreateSession(NewSession{Settings: json.RawMessage(settings)}))
}

// msg returns an assistant message item with text.
func msg(id, text string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"id": id, "type": "message", "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}},
	})
	return b
}

func load(t testing.TB, db *DB, id SessionID) *Session {
	t.Helper()
	s, warn, err := db.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warn {
		t.Errorf("unexpected load warning: %v", w)
	}
	return s
}

func itemsOf(tr Turn) map[itemKey]json.RawMessage {
	out := map[itemKey]json.RawMessage{}
	for _, r := range tr.Responses {
		for _, it := range r.Items {
			out[itemKey{r.Index, it.OutputIndex}] = it.Raw
		}
	}
	return out
}

func fmtKeys(m map[itemKey]json.RawMessage) string {
	var b strings.Builder
	for k := range m {
		fmt.Fprintf(&b, "%d.%d ", k.response, k.output)
	}
	return b.String()
}
