package stream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"runnel/stream/sharedtest"
)

func TestSanitizeInjections(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello, world", "hello, world"},
		{"newline and tab kept", "a\tb\nc", "a\tb\nc"},
		{"unicode kept", "héllo — 世界 🎉 \uFFFD", "héllo — 世界 🎉 \uFFFD"},
		{"OSC 52 clipboard write, BEL", "x\x1b]52;c;ZWNobyBwd25lZA==\x07y", "xy"},
		{"OSC 52 clipboard write, ST", "x\x1b]52;c;ZWNobyBwd25lZA==\x1b\\y", "xy"},
		{"OSC 8 hyperlink", "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"title set", "\x1b]0;x\x07after", "after"},
		{"CSI clear screen", "a\x1b[2Jb", "ab"},
		{"CSI cursor home and moves", "\x1b[H\x1b[10;20H\x1b[3A\x1b[2Ktext", "text"},
		{"CSI SGR colour", "\x1b[1;31mred\x1b[0m", "red"},
		{"CSI private mode", "\x1b[?1049hx\x1b[?25l", "x"},
		{"DCS", "a\x1bPq#0;2;0;0;0#1!7~\x1b\\b", "ab"},
		{"APC", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"PM", "a\x1b^private\x1b\\b", "ab"},
		{"SOS", "a\x1bXstring\x1b\\b", "ab"},
		{"two-byte ESC", "a\x1b7b\x1b8c\x1bcd", "abcd"},
		{"ESC with intermediate", "a\x1b(Bb\x1b#8c", "abc"},
		{"C1 CSI", "\u009b31mred", "red"},
		{"C1 OSC", "\u009d0;title\u009cafter", "after"},
		{"C1 DCS ended by BEL-less ST", "a\u0090data\x1b\\b", "ab"},
		{"C1 APC unterminated", "a\u009fdata", "a"},
		{"other C1 dropped", "a\u0085b\u0080c", "abc"},
		{"lone CR overwrite trick", "safe\rEVIL", "safeEVIL"},
		{"CRLF becomes LF", "a\r\nb\r\n", "a\nb\n"},
		{"CR CR LF", "a\r\r\nb", "a\nb"},
		{"BEL", "ding\x07dong", "dingdong"},
		{"backspace", "abc\b\b\bxyz", "abcxyz"},
		{"NUL and DEL", "a\x00b\x7fc", "abc"},
		{"form feed, vertical tab", "a\fb\vc", "abc"},
		{"unterminated OSC eats the rest", "ok\x1b]52;c;AAAA more text", "ok"},
		{"unterminated DCS eats the rest", "ok\x1bPdata", "ok"},
		{"ESC at end", "ok\x1b", "ok"},
		{"CSI cut at end", "ok\x1b[12;", "ok"},
		{"CSI broken by newline", "a\x1b[12\nb", "a\nb"},
		{"CSI broken by non-ASCII", "a\x1b[1é", "aé"},
		{"ESC before newline", "a\x1b\nb", "a\nb"},
		{"ESC before UTF-8", "a\x1béb", "aéb"},
		{"OSC ended by a new ESC sequence", "a\x1b]0;t\x1b[31mb", "ab"},
		{"nested string starts", "\x1b]\x1b]\x1b]0;x\x07y", "y"},
		{"invalid UTF-8", "a\xffb\xc3", "a\uFFFDb\uFFFD"},
		{"invalid UTF-8 inside OSC is dropped", "a\x1b]\xff\x07b", "ab"},
		{"overlong NUL", "a\xc0\x80b", "a\uFFFD\uFFFDb"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sanitize(tt.in)
			if got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			checkSanitized(t, tt.in, got)
		})
	}
}

func TestSanitizeLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"one line", "one line"},
		{"  padded\t", "padded"},
		{"two\nlines\r\n\tand a tab", "two lines and a tab"},
		{"many   spaces", "many spaces"},
		{"\x1b[2J\n\nerror:\x1b]0;x\x07 bad\n", "error: bad"},
		{"", ""},
		{" \n\t ", ""},
	}
	for _, tt := range tests {
		if got := SanitizeLine(tt.in); got != tt.want {
			t.Errorf("SanitizeLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSanitizeUnchangedAllocs proves the fast path: safe text comes back as
// the same string, with no allocation.
func TestSanitizeUnchangedAllocs(t *testing.T) {
	s := strings.Repeat("Plain text, with\ttabs and\nnewlines — and ünïcödé. ", 20)
	allocs := testing.AllocsPerRun(100, func() {
		if Sanitize(s) != s {
			t.Fatal("safe text changed")
		}
	})
	if allocs != 0 {
		t.Errorf("Sanitize of safe text: %v allocations, want 0", allocs)
	}
}

// TestSanitizeFixtures runs every real recorded stream through Sanitize: the
// fixtures hold no raw control bytes outside newlines, so they take the fast
// path unchanged.
func TestSanitizeFixtures(t *testing.T) {
	files := sharedtest.RealFiles(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if got := Sanitize(s); got != s {
			t.Errorf("%s: Sanitize changed a clean fixture", filepath.Base(f))
		}
	}
}

func FuzzSanitize(f *testing.F) {
	seeds := []string{
		"", "plain", "a\x1b[2Jb", "\x1b]52;c;AAAA\x07", "\x1b]8;;u\x1b\\t\x1b]8;;\x1b\\",
		"\u009b31m", "\u009d0;x\u009c", "safe\rEVIL", "\x1bP\x1b\\", "\xff\xfe",
		"\x1b", "\x1b[", "\x1b]", "\r\n\r", "\xc2", "\xc2\x9b", "\x1b\x1b[m",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Sanitize(in)
		checkSanitized(t, in, out)
		line := SanitizeLine(in)
		checkSanitized(t, in, line)
		if strings.ContainsAny(line, "\n\t") || strings.TrimSpace(line) != line {
			t.Errorf("SanitizeLine(%q) = %q: not one trimmed line", in, line)
		}
	})
}

// checkSanitized asserts the output properties every caller relies on.
func checkSanitized(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("Sanitize(%q) = %q: invalid UTF-8", in, out)
	}
	for _, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7F && r <= 0x9F) {
			t.Errorf("Sanitize(%q) = %q: contains control %U", in, out, r)
			break
		}
	}
	if again := Sanitize(out); again != out {
		t.Errorf("Sanitize not idempotent on %q: %q then %q", in, out, again)
	}
	if len(out) > 3*len(in) {
		t.Errorf("Sanitize(%q) grew to %d bytes", in, len(out))
	}
}

// BenchmarkSanitize times safe text (the fast path) against a plain byte scan
// of the same text (the baseline: the least any check can cost), and dirty
// text against copying it.
func BenchmarkSanitize(b *testing.B) {
	clean := strings.Repeat("The model says: here is some **markdown** — with ünïcödé.\n", 64)
	dirty := strings.Repeat("The model says: \x1b[31mred\x1b[0m and \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\r\n", 64)
	var sink int
	ratio := func(b *testing.B, name, s string, baseline func(string) int) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			b.ReportAllocs()
			var base, ours int64
			for b.Loop() {
				t0 := sanitizeNanotime()
				sink += baseline(s)
				t1 := sanitizeNanotime()
				sink += len(Sanitize(s))
				t2 := sanitizeNanotime()
				base += t1 - t0
				ours += t2 - t1
			}
			if base > 0 {
				b.ReportMetric(float64(ours)/float64(base), "x-baseline")
			}
		})
	}
	ratio(b, "clean", clean, func(s string) int { // count bytes < 0x20: one pass
		n := 0
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 {
				n++
			}
		}
		return n
	})
	ratio(b, "dirty", dirty, func(s string) int { // copy: one allocation
		return len(strings.Clone(s))
	})
	_ = sink
}

var sanitizeBenchEpoch = time.Now()

// sanitizeNanotime is a monotonic clock reading for the paired benchmarks.
func sanitizeNanotime() int64 { return int64(time.Since(sanitizeBenchEpoch)) }

// TestSafeLenSplits: sanitizing the part after SafeLen and joining gives
// Sanitize of the whole, on clean text, escapes, cut runes and controls.
func TestSafeLenSplits(t *testing.T) {
	for _, s := range []string{"", "plain text\n", "tab\there", "a\x1b[31mred", "é", "ab\xc3", "x\x9b31m", "ok\x1b]0;t\x07end", "\r\n"} {
		n := SafeLen(s)
		if got := s[:n] + Sanitize(s[n:]); got != Sanitize(s) {
			t.Errorf("SafeLen(%q) = %d: %q, want %q", s, n, got, Sanitize(s))
		}
		if Sanitize(s[:n]) != s[:n] {
			t.Errorf("prefix %q of %q is not safe", s[:n], s)
		}
	}
	if n := SafeLen("ab\xc3"); n != 2 {
		t.Errorf("a cut rune ends the prefix: got %d", n)
	}
}
