package demo

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestChunksRejoinExactly(t *testing.T) {
	inputs := []string{
		"", "a", " ", "\n\n\n\n\n", "Hello, world!", "  leading spaces", "trailing  ",
		"internationalization and responsibilities", "Ünïcödé — “quotes” and 21 °C",
		"日本語のテキストも大丈夫", "emoji 🙂🙂 ok", "```go\nfunc main() {}\n```", "| a | b |\n|---|---|",
		"bad \xff utf8 \xc3", strings.Repeat("x", 50),
	}
	for _, sc := range []string{"markdown", "tools", "mcp", "approved", "denied", "failure"} {
		inputs = append(inputs, text(sc))
	}
	for _, in := range inputs {
		parts := chunks(in)
		if got := strings.Join(parts, ""); got != in {
			t.Errorf("chunks(%q) rejoin to %q", in, got)
		}
		for _, p := range parts {
			if p == "" || utf8.RuneCountInString(p) > maxWordRunes+1 {
				t.Errorf("chunks(%q): piece %q", in, p)
			}
			if utf8.ValidString(in) && !utf8.ValidString(p) {
				t.Errorf("chunks(%q): piece %q splits a character", in, p)
			}
		}
	}
}

func TestChunksLookLikeTokens(t *testing.T) {
	got := strings.Join(chunks("Set `OPENAI_API_KEY` **now**, internationally.\n\nOk"), "|")
	want := "Set| `|OPENAI|_API_KEY|`| **|now|**|,| intern|ationally|.|\n\n|Ok"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestObfuscationPadsToSixteen(t *testing.T) {
	o := newObfuscator(7)
	for _, d := range []string{"a", "Hello", "sixteen chars!!!", " —", "日本語"} {
		pad := o.pad(d)
		if n := utf8.RuneCountInString(d + pad); n%16 != 0 || pad == "" {
			t.Errorf("pad(%q) = %q: total %d", d, pad, n)
		}
	}
	if a, b := newObfuscator(3).pad("x"), newObfuscator(3).pad("x"); a != b {
		t.Error("same seed, different padding")
	}
}
