package stream

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"runnel/stream/costtest"
)

// TestStoredItemCopiesOfText: reading a stored answer as long as the
// response limit allocates its text about four times (the content
// member's JSON, the part's Raw, the part's Text and the buffer json
// unquotes it in), not once more per level of decoding (5.2 before): the
// store reads every answer it indexes this way.
func TestStoredItemCopiesOfText(t *testing.T) {
	costtest.SkipAllocsIfRace(t)
	const n = 8 << 20 // the whole limit, also under -short (see TestItemJSONHoldsTextOnce)
	text := strings.Repeat("word and more words\n", n/20)
	raw, err := json.Marshal(map[string]any{
		"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	it := StoredItem(raw)
	runtime.ReadMemStats(&after)
	if it == nil || len(it.Content) != 1 || it.Content[0].Text != text || it.Content[0].Type != "output_text" {
		t.Fatalf("StoredItem lost the answer: %+v", it)
	}
	copies := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(text))
	t.Logf("%.2f bytes allocated per byte of text", copies)
	if copies > 4.5 {
		t.Errorf("StoredItem allocated %.2f bytes per byte of a %d MiB answer, want at most 4.5", copies, n>>20)
	}
}
