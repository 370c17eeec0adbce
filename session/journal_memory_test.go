package session_test

import (
	"bytes"
	"encoding/json"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"runnel/session"
	"runnel/stream"

	"runnel/stream/costtest"
)

// TestLongAnswerTurnEndHeap: the end of a turn whose answer is as long as
// the response limit allows (the journal handing the answer's JSON over,
// the store writing it a chunk at a time, indexing it and folding the
// turn's search rows) allocates a small part of the answer's text: a
// chunk's buffer and the indexed text, where it allocated 21 copies
// (json.Marshal's buffer and result, StoredItem's decoding of the JSON
// twice, the index's copies of the whole text), and then one (the JSON
// built whole, 1.6 bytes per byte, which database/sql, the driver and
// SQLite then copied again outside the Go heap). What is live at the
// peak of the end is at most what the chat held before plus what the
// end allocates, so this bounds the peak too. The least of three turns
// counts: the allocation counter is the process's. The answer is then
// stored whole and its start is findable.
func TestLongAnswerTurnEndHeap(t *testing.T) {
	costtest.SkipAllocsIfRace(t)
	const n = 8 << 20
	para := "## Part\n\nSome <b>markdown</b> & \"quotes\", with `code` and a [link](https://example.com/x).\n\n- an item\n- another item\n\n"
	var sse bytes.Buffer
	event := func(v map[string]any) {
		b, _ := json.Marshal(v)
		sse.WriteString("data: ")
		sse.Write(b)
		sse.WriteString("\n\n")
	}
	event(map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_long", "status": "in_progress", "output": []any{}}})
	event(map[string]any{"type": "response.output_item.added", "output_index": 0,
		"item": map[string]any{"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress", "content": []any{}}})
	event(map[string]any{"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "Zebrafinches first.\n\n"})
	chunk := strings.Repeat(para, 4096/len(para)+1)[:4096]
	for written := 0; written < n; written += len(chunk) {
		event(map[string]any{"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": chunk})
	}
	var acc stream.Accumulator
	d := stream.NewDecoder(&sse)
	for d.Next() {
		ev := *d.Event()
		if _, err := acc.Apply(&ev); err != nil {
			t.Fatal(err)
		}
	}
	sse = bytes.Buffer{}

	db := openStore(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	var j *session.Journal
	var text string
	least := uint64(math.MaxUint64)
	for range 3 {
		j = session.NewJournal(db, c.Settings)
		turn := c.Say("a long one")
		log := j.Begin(turn)
		turn.Responses = acc.Responses()
		text = turn.Responses[0].Items[0].Text()

		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		log.End(time.Now(), turn)
		j.Close()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}

	perByte := float64(least) / float64(len(text))
	t.Logf("the end of a turn with a %d MiB answer allocated %.2f bytes per byte of text", len(text)>>20, perByte)
	if perByte > 0.6 {
		t.Errorf("the end of a turn with a %d MiB answer allocated %.2f bytes per byte of its text, want at most 0.6 (no copy of its JSON)", len(text)>>20, perByte)
	}
	back, _ := reload(t, db, j.ID())
	if got := back.Turns[0].Responses[0].Items[0].Text(); got != text {
		t.Errorf("stored %d bytes of the answer, want all %d", len(got), len(text))
	}
	if hits, err := db.Search("zebrafinches", 5); err != nil || len(hits) != 3 { // one session per sample
		t.Errorf("the answer is not findable: %v %+v", err, hits)
	}
}
