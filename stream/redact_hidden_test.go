package stream

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"runnel/stream/streamtest"
)

// hiders are things Sanitize removes, each a way to hide a secret from a
// plain search until the text is cleaned: format characters (ZWSP, soft
// hyphen, bidi marks and isolates, word joiner, BOM, a tag character, a
// joiner between letters that do not join, a presentation selector), escape
// sequences (SGR, OSC title with BEL and with ST, a C1 CSI, a DCS), control
// bytes (BEL, CR, backspace, DEL, a C1 control), and a lone regional
// indicator.
var hiders = []string{
	"\u200b", "\u00ad", "\u200e", "\u200f", "\u202e", "\u2067", "\u2069", "\u2060", "\ufeff",
	"\U000E0041", "\u200d", "\u200c", "\ufe0f", "\u061c",
	"\x1b[31m", "\x1b[0m", "\x1b]0;title\x07", "\x1b]8;;http://x\x1b\\", "\u009b1m", "\x1bP1$r\x1b\\", "\x1b(B",
	"\x07", "\r", "\b", "\x7f", "\x00", "\u0085", "\u009c",
	"\U0001F1E6",
}

// shows reports whether s, as any cleaning shows it, holds key.
func shows(s, key string) bool {
	for _, clean := range []string{Sanitize(s), SanitizeLine(s)} {
		if strings.Contains(clean, key) {
			return true
		}
	}
	return false
}

// removable says of each byte what Sanitize says: walking a text with it,
// writing what it keeps as Sanitize writes it, gives Sanitize's output.
func TestRemovableMirrorsSanitize(t *testing.T) {
	walk := func(s string) string {
		var b strings.Builder
		prev := rune(-1)
		for i := 0; i < len(s); {
			if end, ok := removable(s, i, prev, false); ok {
				i = end
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				b.WriteRune(utf8.RuneError)
			case r == 0x2028 || r == 0x2029:
				r = '\n'
				b.WriteByte('\n')
			case isRegional(r):
				next, nsize := utf8.DecodeRuneInString(s[i+size:])
				b.WriteString(s[i : i+size+nsize])
				i, r = i+nsize, next
			default:
				b.WriteString(s[i : i+size])
			}
			prev = r
			i += size
		}
		return b.String()
	}
	pieces := append([]string{"a", "sk", "ی", "خ", "👨", "\n", "\t", " ", "\xff", "\xe2\x80", "\x1b", "\x1b[", "\x1b]", "\u2028",
		"\U0001F1EB", "\r\n", "\u009d0;x", "\x1b\\", "\x07"}, hiders...)
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rnd.IntN(8) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := walk(s), Sanitize(s); got != want {
			t.Fatalf("walking %+q with removable gives %+q, Sanitize %+q", s, got, want)
		}
	}
}

// A key with any hider at any position is redacted however the text comes:
// as a string (String, Error), as raw JSON (the decoder's path, escaped
// and not), and no cleaning of the result shows it; the text around stays.
func TestRedactorFindsSecretsHiddenBySanitize(t *testing.T) {
	r := NewRedactor(testKey)
	for _, h := range hiders {
		for p := 1; p < len(testKey); p++ {
			for _, text := range []string{
				"before " + testKey[:p] + h + testKey[p:] + " after",
				"before " + testKey[:p] + h + h + testKey[p:p+1] + h + testKey[p+1:] + " after",
			} {
				if !shows(text, testKey) {
					continue // a pair of regional indicators is a flag: it stays
				}
				got := r.String(text)
				if shows(got, testKey) || !strings.Contains(got, Redacted) || !strings.HasPrefix(got, "before ") || !strings.HasSuffix(got, " after") {
					t.Fatalf("String(%+q) = %+q", text, got)
				}
				data, _ := json.Marshal(map[string]string{"delta": text})
				var back struct{ Delta string }
				if err := json.Unmarshal(r.JSON(data), &back); err != nil {
					t.Fatalf("JSON(%s) is no longer JSON: %v", data, err)
				}
				if shows(back.Delta, testKey) || !strings.Contains(back.Delta, Redacted) {
					t.Fatalf("JSON(%s) keeps %+q", data, back.Delta)
				}
			}
		}
	}
	// a secret that itself holds something Sanitize removes is hidden as
	// it stands and as Sanitize leaves it
	r2 := NewRedactor("tok\u200ben-0123456789")
	if got := r2.String("a token-0123456789 b tok\u200ben-0123456789"); got != "a [redacted] b [redacted]" {
		t.Errorf("String = %+q", got)
	}
}

// A key with hiders in it, split across deltas at every byte, or across a
// command's output pieces (mid-rune too), never shows in what is let out,
// cleaned; the text around it all comes through.
func TestGuardsFindHiddenSecretsAcrossPieces(t *testing.T) {
	r := NewRedactor(testKey)
	for _, h := range hiders {
		text := "x " + testKey[:5] + h + testKey[5:11] + h + testKey[11:] + " y"
		for cut := 1; cut < len(text); cut++ {
			g := &deltaGuard{r: r}
			var out strings.Builder
			for _, d := range []string{text[:cut], text[cut:]} {
				if !utf8.ValidString(d) {
					continue // deltas are JSON strings: whole runes
				}
				ev := Event{Kind: KindTextDelta, HasIndex: true, Delta: d}
				for _, e := range append(g.filter(&ev), ev) {
					out.WriteString(e.Delta)
				}
			}
			for _, e := range g.flush() {
				out.WriteString(e.Delta)
			}
			if utf8.ValidString(text[:cut]) && (shows(out.String(), testKey) || !strings.HasPrefix(out.String(), "x ") || !strings.HasSuffix(out.String(), " y")) {
				t.Fatalf("deltas %+q | %+q give %+q", text[:cut], text[cut:], out.String())
			}
			tg := r.Guard()
			got := tg.Next(text[:cut]) + tg.Next(text[cut:]) + tg.Flush()
			if shows(got, testKey) || !strings.HasSuffix(got, " y") {
				t.Fatalf("pieces %+q | %+q give %+q", text[:cut], text[cut:], got)
			}
		}
	}
}

// An escape sequence that never ends, after the start of a key, holds
// back no more than a bounded text however long it runs, and the key still
// never shows once its rest arrives.
func TestGuardHoldsBoundedHiddenText(t *testing.T) {
	g := &deltaGuard{r: NewRedactor(testKey)}
	var out strings.Builder
	feed := func(d string) {
		ev := Event{Kind: KindTextDelta, HasIndex: true, Delta: d}
		for _, e := range append(g.filter(&ev), ev) {
			out.WriteString(e.Delta)
		}
		for _, held := range g.held {
			if len(held) > maxHiddenHeld+len(testKey) {
				t.Fatalf("%d bytes held", len(held))
			}
		}
	}
	feed("see " + testKey[:6] + "\x1b]0;")
	chunk := strings.Repeat("z", 1000)
	for range 2000 { // 2 MB of a title that never ends
		feed(chunk)
	}
	feed("\x07" + testKey[6:] + " done")
	for _, e := range g.flush() {
		out.WriteString(e.Delta)
	}
	if shows(out.String(), testKey) || Sanitize(out.String()) != "see [redacted] done" {
		t.Fatalf("the key shows, or the title, or the end is lost: %.200q", Sanitize(out.String()))
	}
	// the same with a CSI whose parameters never end, and with a run of
	// zero-width spaces: what is held short shows as the whole would
	for _, junk := range []string{"\x1b[", "\u200b"} {
		g, out = &deltaGuard{r: NewRedactor(testKey)}, strings.Builder{}
		feed("see " + testKey[:6] + junk)
		fill, end := strings.Repeat("1", 1000), "m" // the CSI's final byte
		if junk == "\u200b" {
			fill, end = strings.Repeat("\u200b", 300), ""
		}
		for range 200 {
			feed(fill)
		}
		feed(end + testKey[6:] + " done")
		for _, e := range g.flush() {
			out.WriteString(e.Delta)
		}
		if got := Sanitize(out.String()); got != "see [redacted] done" {
			t.Errorf("%+q: %.200q", junk, got)
		}
	}
}

// Through Start, from a loopback server: a model that writes the key with
// hiders in it, over several deltas, in the done text and in the final
// response, gives an answer whose cleaned text never holds it.
func TestStartRedactsHiddenKeyFromServer(t *testing.T) {
	for _, h := range []string{"\u200b", "\x1b[1m", "\x07", "\u0085", "\u00ad", "\u202e"} {
		hidden := testKey[:4] + h + testKey[4:9] + h + testKey[9:]
		srv := streamtest.New(t)
		srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_h", "the key: "+hidden[:7], hidden[7:12], hidden[12:]+" ok")})
		var acc Accumulator
		handle := Start(context.Background(), &Client{BaseURL: srv.URL, APIKey: testKey}, Request{Model: "m"})
		for b := range handle.Chan() {
			for i := range b.Events {
				ev := &b.Events[i]
				if shows(ev.Delta, testKey) || shows(string(ev.Raw), testKey) {
					t.Fatalf("event %s holds the key: %+q", ev.Type, ev.Delta)
				}
				_, _ = acc.Apply(ev)
			}
			if b.Final && b.Err != nil {
				t.Fatal(b.Err)
			}
		}
		acc.Finish()
		s := acc.Current()
		text := s.Items[0].Text()
		if shows(text, testKey) || !strings.Contains(Sanitize(text), "the key: [redacted] ok") || shows(string(s.Items[0].JSON()), testKey) {
			t.Errorf("hider %+q: answer %+q", h, text)
		}
	}
}
