package main

// A key a model writes with something inside it that cleaning removes (a
// zero-width space, an SGR escape, a BEL, a C1 control, a soft hyphen, a
// bidi mark) is the key once cleaned: -p must not print it, in any format,
// nor the database keep it.

import (
	"strings"
	"testing"
	"unicode/utf8"

	"runnel/stream"
	"runnel/stream/streamtest"
)

const hiddenKey = "sk-e2e-hidden-0123456789abcdef"

// hiddenKeyAnswer is an answer that writes hiddenKey once for each position
// inside it, with h there, in deltas of a few runes each (so the key is
// split across them too).
func hiddenKeyAnswer(h string) []string {
	var text strings.Builder
	text.WriteString("keys:")
	for p := 1; p < len(hiddenKey); p++ {
		text.WriteString(" " + hiddenKey[:p] + h + hiddenKey[p:])
	}
	text.WriteString(" end")
	var deltas []string
	s := text.String()
	for len(s) > 0 {
		n := 0
		for i := 0; i < 5 && n < len(s); i++ {
			_, size := utf8.DecodeRuneInString(s[n:])
			n += size
		}
		deltas = append(deltas, s[:n])
		s = s[n:]
	}
	return deltas
}

func TestOneShotRedactsKeyHiddenByCleaning(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", hiddenKey)
	data := t.TempDir()
	setDataHome(t, data)
	for _, h := range []string{"\u200b", "\x1b[31m", "\x07", "\u0085", "\u00ad", "\u202e"} {
		for _, format := range []string{"text", "markdown", "json", "events"} {
			srv := streamtest.New(t)
			srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_hidden", hiddenKeyAnswer(h)...)})
			out, errOut, code := runnel(t, "", "-p", "hi", "--base-url", srv.URL, "--format", format)
			if code != exitOK {
				t.Fatalf("%+q, %s: exit %d: %s", h, format, code, errOut)
			}
			for _, s := range []string{out, errOut} {
				if strings.Contains(s, hiddenKey) || strings.Contains(stream.Sanitize(s), hiddenKey) {
					t.Errorf("%+q, %s: the key is printed:\n%q", h, format, s)
				}
			}
			if strings.Count(out, "[redacted]") < len(hiddenKey)-1 || !strings.Contains(out, "end") {
				t.Errorf("%+q, %s: want [redacted] for each key and the answer's end:\n%q", h, format, out)
			}
		}
	}
	db := readAll(t, data)
	if db == "" {
		t.Fatal("nothing was saved")
	}
	if strings.Contains(db, hiddenKey) || strings.Contains(stream.Sanitize(db), hiddenKey) {
		t.Error("the key reached the database files")
	}
}
