package stream

import (
	"bytes"
	"reflect"
	"testing"
	"testing/iotest"
)

// FuzzFastPath: whenever the fast path accepts an event, the general decoder
// accepts it too and decodes the same event.
func FuzzFastPath(f *testing.F) {
	for _, s := range []string{
		textDelta(3, 0, "m", "hi"),
		`{"type":"response.function_call_arguments.delta","delta":"{\"a\"","output_index":1,"item_id":"fc","obfuscation":"x","logprobs":[{"a":1.5e3,"b":[true,false,null]}]}`,
		`{"type":"response.reasoning_summary_text.delta","summary_index":2,"delta":"é\u00e9","sequence_number":0}`,
		`{"type":"response.output_text.delta","delta":"a","content_index":01}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast, slow Event
		if !fastDecode(data, &fast, "m") {
			return
		}
		if err := DecodeEvent("", data, &slow); err != nil {
			t.Fatalf("fast path accepted what the decoder rejects (%v): %q", err, data)
		}
		slow.Status = fast.Status
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast %+v\nslow %+v", fast, slow)
		}
	})
}

// FuzzDecodeAccumulate: no input makes the decoder or the accumulator panic,
// and reading a byte at a time gives the same snapshots as reading whole.
func FuzzDecodeAccumulate(f *testing.F) {
	f.Add(sse(created, msgAdded(0, "m"), textDelta(1, 0, "m", "x"), completed))
	f.Add([]byte("data: {\"type\":\"response.output_item.added\",\"output_index\":3,\"item\":{\"type\":\"message\",\"content\":[{\"type\":\"output_text\",\"text\":\"a\"}]}}\n\n"))
	// hostile shapes: a delta before the response, an item announced with
	// its text and streamed again, a call with no ids, audio, the seed's
	// "event" form
	f.Add(sse(textDelta(1, 0, "m", "x"), created, textDelta(2, 0, "m", "y"), completed))
	f.Add(sse(created, `{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","content":[{"type":"output_text","text":"ab"}]}}`, textDelta(1, 0, "m", "a"), textDelta(2, 0, "m", "bc")))
	f.Add(sse(created, `{"type":"response.output_item.done","item":{"type":"function_call","name":"f","arguments":"{}"}}`, completed))
	f.Add(sse(created, `{"type":"response.audio.delta","output_index":0,"delta":"AAAA"}`, `{"type":"response.audio.transcript.delta","output_index":0,"delta":"hi"}`))
	f.Add(sse(`{"event":"response.created","response":{"id":"r","status":"in_progress"}}`, `{"event":"response.output_text.delta","delta":"hi"}`))
	if seeds, err := fixtureSeeds(); err == nil {
		for _, s := range seeds {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		whole := summarize(data, false)
		if slow := summarize(data, true); whole != slow {
			t.Fatalf("byte-at-a-time differs:\n%s\n%s", whole, slow)
		}
	})
}

func summarize(data []byte, oneByte bool) string {
	var r = bytes.NewReader(data)
	var acc Accumulator
	var d *Decoder
	if oneByte {
		d = NewDecoder(iotest.OneByteReader(r))
	} else {
		d = NewDecoder(r)
	}
	for d.Next() {
		acc.Apply(d.Event())
	}
	acc.Finish()
	var b bytes.Buffer
	for _, s := range acc.Responses() {
		b.WriteString(s.ID + "|" + s.Status + "\n")
		for _, it := range s.Items {
			b.WriteString(it.Type + ":" + it.Text() + ":" + it.Arguments + "\n")
			b.Write(it.JSON())
		}
	}
	return b.String()
}
