package stream

import (
	"bytes"
	"io"
	"math"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"runnel/stream/costtest"
)

// TestItemJSONWritesWhatJSONHolds: for every item of every recorded
// stream, what Encoded writes (and measures) is what JSON returns, byte for
// byte; and redacted, it is what Redactor.JSON makes of that JSON, with
// secrets taken from the item itself (its id, a word of its text).
func TestItemJSONWritesWhatJSONHolds(t *testing.T) {
	word := regexp.MustCompile(`[A-Za-z]{8,}`)
	items, redacted := 0, 0
	eachRealItem(t, func(path string, it *Item) {
		items++
		want := it.JSON()
		e := it.Encoded()
		var got bytes.Buffer
		n, err := e.WriteTo(&got)
		if err != nil || !bytes.Equal(got.Bytes(), want) || int(n) != len(want) || e.Len() != len(want) {
			t.Errorf("%s item %d: wrote %d bytes (Len %d, err %v), want JSON's %d:\n%s\n%s", path, it.Index, n, e.Len(), err, len(want), got.Bytes(), want)
		}
		secrets := []string{it.ID, word.FindString(it.Text())}
		r := NewRedactor(secrets...)
		if r.Len() == 0 {
			return
		}
		redacted++
		if got, want := it.Encoded().Redact(r).Bytes(), r.JSON(it.JSON()); !bytes.Equal(got, want) {
			t.Errorf("%s item %d: redacted %q:\n%s\nwant\n%s", path, it.Index, secrets, got, want)
		}
	})
	if items < 100 || redacted < 50 {
		t.Errorf("checked %d items, %d redacted: the fixtures are missing", items, redacted)
	}
}

// TestItemJSONTakenIsTheItemThen: what Encoded took is the item as it was
// then, written on another goroutine while the stream goes on (deltas
// grow the text, an annotation is set in place): under -race too.
func TestItemJSONTakenIsTheItemThen(t *testing.T) {
	var acc Accumulator
	apply := func(event string) {
		d := NewDecoder(strings.NewReader("data: " + event + "\n\n"))
		for d.Next() {
			if _, err := acc.Apply(d.Event()); err != nil {
				t.Fatal(err)
			}
		}
	}
	delta := `{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"more words "}`
	annotation := func(url string) string {
		return `{"type":"response.output_text.annotation.added","output_index":0,"content_index":0,"annotation_index":0,"annotation":{"type":"url_citation","url":"` + url + `"}}`
	}
	apply(`{"type":"response.created","response":{"id":"resp_1","status":"in_progress","output":[]}}`)
	apply(`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}`)
	apply(delta)
	apply(annotation("https://a.example"))
	it := acc.Responses()[0].Items[0]
	taken, want := it.Encoded(), it.JSON()
	wrote := make(chan []byte)
	go func() {
		var b bytes.Buffer
		_, _ = taken.WriteTo(&b)
		wrote <- b.Bytes()
	}()
	for range 50 {
		apply(delta)
	}
	apply(annotation("https://b.example"))
	if got := <-wrote; !bytes.Equal(got, want) {
		t.Errorf("wrote\n%s\nwant the item as it was taken\n%s", got, want)
	}
}

// TestItemJSONWriteToHoldsNoCopy: writing the JSON of an answer as long as
// the response limit, redacted with a key it does not hold, allocates a
// small part of its text (the store writes it a chunk at a time), where
// Item.JSON allocates the JSON whole and Redactor.JSON on it copied the
// text again (a text with bytes Sanitize may remove: a tab, é).
func TestItemJSONWriteToHoldsNoCopy(t *testing.T) {
	costtest.SkipAllocsIfRace(t)
	const n = 8 << 20 // the whole limit, also under -short: the chunk buffer is a fixed part
	it := &Item{Type: "message", ID: "msg_1", Role: "assistant", Status: "completed", Added: true, dirty: true,
		Content: []Part{{Type: "output_text", Text: strings.Repeat("word and\tmore <words> é\n", n/26)}}}
	r := NewRedactor("sk-proj-0123456789abcdef")
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		e := it.Encoded().Redact(r)
		e.Len()
		_, _ = e.WriteTo(io.Discard)
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	perByte := float64(least) / float64(len(it.Content[0].Text))
	t.Logf("%.3f bytes allocated per byte of text", perByte)
	if perByte > 0.5 {
		t.Errorf("measuring and writing the redacted JSON of an %d MiB answer allocated %.3f bytes per byte of its text, want at most 0.5 (no copy of it)", n>>20, perByte)
	}
}

// TestItemJSONBytesHoldsOneCopy: the store measures and builds the JSON
// of a streaming answer at every save (once a second while it streams):
// for a 40 KB answer that allocates the JSON's buffer and next to nothing
// else, where measuring with json.Marshal and building with a second
// measure allocated about four copies of the text.
func TestItemJSONBytesHoldsOneCopy(t *testing.T) {
	costtest.SkipAllocsIfRace(t)
	it := &Item{Type: "message", ID: "msg_1", Role: "assistant", Status: "in_progress", Added: true, dirty: true,
		Content: []Part{{Type: "output_text", Text: strings.Repeat("word and\tmore <words> é\n", 40<<10/26)}}}
	least := uint64(math.MaxUint64)
	var js []byte
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		e := it.Encoded()
		e.Len()
		js = e.Bytes()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	if want := it.JSON(); string(js) != string(want) {
		t.Fatalf("Bytes differs from JSON (len %d, want %d)", len(js), len(want))
	}
	perByte := float64(least) / float64(len(js))
	t.Logf("%.3f bytes allocated per byte of JSON", perByte)
	if perByte > 1.25 {
		t.Errorf("measuring and building the JSON of a %d KB answer allocated %.3f bytes per byte of it, want at most 1.25 (its buffer)", len(it.Content[0].Text)>>10, perByte)
	}
}
