package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

const testKey = "sk-proj-ABCDEFGHIJ0123456789"

func TestRedactorString(t *testing.T) {
	r := NewRedactor(testKey, "short", "  Bearer-token-xyz  ", "")
	if r.Len() != 2 {
		t.Errorf("Len = %d, want 2 (values under %d bytes are ignored)", r.Len(), MinSecretLen)
	}
	in := "key " + testKey + ", token Bearer-token-xyz, short stays"
	want := "key [redacted], token [redacted], short stays"
	if got := r.String(in); got != want {
		t.Errorf("String = %q", got)
	}
	var nilR *Redactor
	if nilR.String(in) != in || nilR.Len() != 0 {
		t.Error("a nil Redactor changed text")
	}
	// A secret containing another is replaced whole.
	r2 := NewRedactor("abcdefgh", "abcdefgh-ijklmnop")
	if got := r2.String("x abcdefgh-ijklmnop y abcdefgh"); got != "x [redacted] y [redacted]" {
		t.Errorf("nested secrets: %q", got)
	}
}

func TestRedactorError(t *testing.T) {
	r := NewRedactor(testKey)
	base := &APIError{Status: 401, Message: "bad key " + testKey}
	err := r.Error(base)
	if strings.Contains(err.Error(), testKey) {
		t.Errorf("Error kept the key: %v", err)
	}
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Error("errors.As no longer finds the APIError")
	}
	plain := errors.New("nothing secret")
	if r.Error(plain) != plain {
		t.Error("an error without secrets was wrapped")
	}
}

func TestRedactorJSON(t *testing.T) {
	r := NewRedactor(testKey, "tok/with+slash\"quote")
	cases := []string{
		`{"delta":"` + testKey + `"}`,
		`{"delta":"\u0073k-proj-ABCDEFGHIJ0123456789 and more"}`,
		`{"a":{"b":["x \u0073k-proj-ABCDEFGHIJ0123456789"]},"c":"\"quoted\""}`,
		`{"t":"tok\/with+slash\"quote"}`,
	}
	for _, c := range cases {
		got := string(r.JSON([]byte(c)))
		if strings.Contains(got, "ABCDEFGHIJ") || strings.Contains(got, "with+slash") {
			t.Errorf("JSON(%s) = %s", c, got)
		}
		if !strings.Contains(got, Redacted) {
			t.Errorf("JSON(%s) = %s: no marker", c, got)
		}
	}
	clean := []byte(`{"delta":"hello \"world\" \n"}`)
	if got := r.JSON(clean); string(got) != string(clean) {
		t.Errorf("clean JSON changed: %s", got)
	}
}

// A secret split over deltas never appears in any delta passed on, and
// text that only looked like a secret's start is let go unchanged.
func TestDeltaGuardSplitSecret(t *testing.T) {
	g := &deltaGuard{r: NewRedactor(testKey)}
	delta := func(s string) Event {
		return Event{Kind: KindTextDelta, Type: "response.output_text.delta", HasIndex: true, Delta: s}
	}
	var out strings.Builder
	feed := func(evs ...Event) {
		for _, ev := range evs {
			for _, e := range append(g.filter(&ev), ev) {
				if strings.Contains(e.Delta, "ABCDEF") || strings.Contains(e.Delta, "sk-proj-A") {
					t.Errorf("a delta carries part of the key: %q", e.Delta)
				}
				out.WriteString(e.Delta)
			}
		}
	}
	feed(delta("your key is sk-pr"), delta("oj-ABCDE"), delta("FGHIJ0123456789, keep it. s"), delta("k-p"))
	feed(Event{Kind: KindTextDone, Type: "response.output_text.done", HasIndex: true})
	if got, want := out.String(), "your key is [redacted], keep it. sk-p"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	// At the end of the stream, held text is let go.
	feed(delta("ends with sk-"))
	for _, e := range g.flush() {
		out.WriteString(e.Delta)
	}
	if !strings.HasSuffix(out.String(), "ends with sk-") {
		t.Errorf("held text lost at the end: %q", out.String())
	}
}

// Start redacts a key a model echoes (split over deltas), an `error`
// event that repeats it, and the whole response.
func TestStartRedactsEchoedKey(t *testing.T) {
	half := len(testKey) / 2
	sse := "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r1\",\"status\":\"in_progress\",\"output\":[]}}\n\n" +
		"data: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"content_index\":0,\"delta\":\"the key: " + testKey[:half] + "\"}\n\n" +
		"data: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"content_index\":0,\"delta\":\"" + testKey[half:] + "!\"}\n\n" +
		"data: {\"type\":\"error\",\"message\":\"bad key " + testKey + "\"}\n\n"
	c := &Client{APIKey: testKey}
	h := start(context.Background(), func(context.Context, func(RetryInfo), func(ConversationStart)) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(sse)), nil
	}, 0, c.redactor(nil))
	var acc Accumulator
	for b := range h.Chan() {
		for i := range b.Events {
			ev := &b.Events[i]
			if strings.Contains(ev.Delta, "ABCDE") || ev.Error != nil && strings.Contains(ev.Error.Message, "ABCDE") {
				t.Errorf("event %s carries the key", ev.Type)
			}
			acc.Apply(ev)
		}
	}
	s := acc.Current()
	if s == nil || len(s.Items) == 0 {
		t.Fatal("no snapshot")
	}
	if got := s.Items[0].Content[0].Text; got != "the key: [redacted]!" {
		t.Errorf("text = %q", got)
	}
	if s.Error == nil || s.Error.Message != "bad key [redacted]" {
		t.Errorf("error = %+v", s.Error)
	}
}

func TestTextGuard(t *testing.T) {
	g := NewRedactor(testKey).Guard()
	var out strings.Builder
	for _, piece := range []string{"a sk-proj-AB", "CDEFGHIJ01", "23456789 b sk"} {
		s := g.Next(piece)
		if strings.Contains(s, "ABC") {
			t.Errorf("piece shows part of the key: %q", s)
		}
		out.WriteString(s)
	}
	out.WriteString(g.Flush())
	if got := out.String(); got != "a [redacted] b sk" {
		t.Errorf("text = %q", got)
	}
}

// BenchmarkRedactedDecode is decode + accumulate of the largest fixtures
// with three secrets to hide, as a ratio to the same without any, timed in
// the same run (x-plain near 1: redaction costs little).
func BenchmarkRedactedDecode(b *testing.B) {
	corpus := largestFixtures(b, 5)
	sec := NewRedactor(testKey, "header-value-0123456789", "mcp-token-abcdefghijkl")
	run := func(r *Redactor) time.Duration {
		start := time.Now()
		for _, c := range corpus {
			var acc Accumulator
			d := NewDecoder(bytes.NewReader(c))
			d.SetRedactor(r)
			g := &deltaGuard{r: r}
			for d.Next() {
				ev := d.Event()
				for _, held := range g.filter(ev) {
					acc.Apply(&held)
				}
				acc.Apply(ev)
			}
		}
		return time.Since(start)
	}
	var red, plain time.Duration
	for i := 0; i < b.N; i++ {
		red += run(sec)
		plain += run(nil)
	}
	b.ReportMetric(red.Seconds()/plain.Seconds(), "x-plain")
}

// A secret that is also a number in the JSON is hidden in strings only, so
// the event stays valid JSON.
func TestRedactorJSONNumberSecret(t *testing.T) {
	r := NewRedactor("1234567890")
	got := r.JSON([]byte(`{"sequence_number":1234567890,"delta":"id 1234567890"}`))
	if string(got) != `{"sequence_number":1234567890,"delta":"id [redacted]"}` {
		t.Errorf("JSON = %s", got)
	}
}

// Add never changes a slice a reader may hold.
func TestRedactorConcurrentAdd(t *testing.T) {
	r := NewRedactor(testKey)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 200 {
			r.Add(strings.Repeat(string(rune('a'+i%26)), 8+i))
		}
	}()
	for range 200 {
		if got := r.String("x " + testKey); got != "x [redacted]" {
			t.Fatalf("String = %q", got)
		}
	}
	<-done
}

// Text held back because it could start a secret, but did not, is let go
// before the field's .done and lands in the snapshot, also when the
// server numbers its events.
func TestStartLetsGoHeldText(t *testing.T) {
	sse := "data: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"r1\",\"status\":\"in_progress\",\"output\":[]}}\n\n" +
		"data: {\"type\":\"response.output_item.added\",\"sequence_number\":1,\"output_index\":0,\"item\":{\"type\":\"message\",\"id\":\"m\",\"role\":\"assistant\",\"content\":[]}}\n\n" +
		"data: {\"type\":\"response.output_text.delta\",\"sequence_number\":2,\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"keys start with sk-pro\"}\n\n" +
		"data: {\"type\":\"response.output_text.done\",\"sequence_number\":3,\"item_id\":\"m\",\"output_index\":0,\"content_index\":0}\n\n" +
		"data: {\"type\":\"response.output_text.delta\",\"sequence_number\":4,\"item_id\":\"m\",\"output_index\":0,\"content_index\":1,\"delta\":\"and end sk-\"}\n\n"
	h := start(context.Background(), func(context.Context, func(RetryInfo), func(ConversationStart)) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(sse)), nil
	}, 0, NewRedactor(testKey))
	var acc Accumulator
	var deltas []string
	for b := range h.Chan() {
		for i := range b.Events {
			if b.Events[i].Kind == KindTextDelta {
				deltas = append(deltas, b.Events[i].Delta)
			}
			acc.Apply(&b.Events[i])
		}
	}
	acc.Finish()
	it := acc.Current().Items[0]
	if len(it.Content) != 2 || it.Content[0].Text != "keys start with sk-pro" || it.Content[1].Text != "and end sk-" {
		t.Errorf("content = %+v (deltas %q)", it.Content, deltas)
	}
	if want := []string{"keys start with ", "sk-pro", "and end ", "sk-"}; strings.Join(deltas, "|") != strings.Join(want, "|") {
		t.Errorf("deltas = %q, want %q", deltas, want)
	}
}

// A \u escape of a character no secret holds and Sanitize keeps (a server
// that escapes HTML, or all that is not ASCII) needs no decoding to redact
// a string, and skipping it never lets a secret through: one whose
// characters are escaped beside such escapes, one that holds '<' or a
// character that is not ASCII itself, one with an escaped hider inside.
func TestRedactorJSONKeptEscapes(t *testing.T) {
	lt, acute := "tok<en-0123456789", "tökén-0123456789"
	esc := func(s string, at int) string { // s with its character at at as a \u escape
		c, n := utf8.DecodeRuneInString(s[at:])
		return s[:at] + fmt.Sprintf(`\u%04x`, c) + s[at+n:]
	}
	// characters no secret holds (no surrogate pair either: that is
	// decoded, and would hide an escape wrongly skipped)
	kept := `\u003e \u0026 \u00e9\u2014 `
	// the secrets all ASCII, and one not
	for _, secrets := range [][]string{{testKey, lt}, {testKey, lt, acute}} {
		r := NewRedactor(secrets...)
		var cases []string
		for _, secret := range secrets {
			for at := range secret {
				if utf8.RuneStart(secret[at]) {
					cases = append(cases, kept+esc(secret, at)+kept)
				}
			}
			cut := len(string([]rune(secret)[:3]))
			cases = append(cases, kept+secret+kept, kept+secret[:cut]+`\u200b`+secret[cut:]+kept, `\ud83d\ude00`+esc(secret, 0))
		}
		for _, c := range cases {
			data := []byte(`{"type":"response.output_text.done","text":"` + c + `"}`)
			var back struct{ Text string }
			if err := json.Unmarshal(r.JSON(data), &back); err != nil {
				t.Fatalf("JSON(%s) is no longer JSON: %v", data, err)
			}
			for _, secret := range secrets {
				if shows(back.Text, secret) {
					t.Errorf("JSON(%s) keeps %q: %q", data, secret, back.Text)
				}
			}
			if !strings.Contains(back.Text, Redacted) {
				t.Errorf("JSON(%s) = %q: no marker", data, back.Text)
			}
		}
		clean := []byte(`{"text":"` + kept + `"}`)
		if got := r.JSON(clean); string(got) != string(clean) {
			t.Errorf("JSON changed a text with no secret: %s", got)
		}
	}
}
