package stream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
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
		"a\u202eb\u2066c\u2069", "\u200b\ufeff\u00ad", "ی\u200cخ", "👨\u200d👩", "ی\u200c", "\U000E0041\u2028", "\U0001F1EB\U0001F1F7\U0001F1E9",
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
		if n := SafeLen(in); in[:n]+Sanitize(in[n:]) != out {
			t.Errorf("SafeLen(%+q) = %d: the rest does not sanitize to the same", in, n)
		}
	})
}

// checkSanitized asserts the output properties every caller relies on.
func checkSanitized(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("Sanitize(%q) = %q: invalid UTF-8", in, out)
	}
	for i, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7F && r <= 0x9F) {
			t.Errorf("Sanitize(%q) = %q: contains control %U", in, out, r)
			break
		}
		if r == 0x2028 || r == 0x2029 || r == 0xFE0E || r == 0xFE0F || (r >= 0x1F3FB && r <= 0x1F3FF) ||
			(r >= 0xE0100 && r <= 0xE01EF) || (unicode.Is(unicode.Cf, r) && r != zwnj && r != zwj) {
			t.Errorf("Sanitize(%+q) = %+q: contains format character %U", in, out, r)
			break
		}
		if r == zwnj || r == zwj {
			prev, _ := utf8.DecodeLastRuneInString(out[:i])
			next, _ := utf8.DecodeRuneInString(out[i+utf8.RuneLen(r):])
			if !joins(prev) || !joins(next) {
				t.Errorf("Sanitize(%+q) = %+q: joiner %U not between joining letters", in, out, r)
				break
			}
		}
	}
	run := 0
	for _, r := range out + "." {
		if isRegional(r) {
			run++
		} else if run%2 == 1 {
			t.Errorf("Sanitize(%+q) = %+q: a lone regional indicator", in, out)
			break
		} else {
			run = 0
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
	intl := strings.Repeat("Привет, мир. 你好，世界。 مرحبا بالعالم می\u200cخواهم — emoji 🎉👍 and ünïcödé.\n", 64)
	ratio(b, "clean-intl", intl, func(s string) int { // count bytes < 0x20: one pass
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
	for _, s := range []string{"", "plain text\n", "tab\there", "a\x1b[31mred", "é", "ab\xc3", "x\x9b31m", "ok\x1b]0;t\x07end", "\r\n",
		"a\u202eb", "ی\u200c", "یی\u200c", "a\u200c", "ی\u200cخ\u200c", "\u200c", "🇫🇷\U0001F1E9", "x\U0001F1E9\xf0\x9f"} {
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

// TestSanitizeFormatCharacters: bidi controls, zero-width characters and the
// other format characters that can reorder or hide text are removed; the
// joiners stay only between letters of scripts that need them.
func TestSanitizeFormatCharacters(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"RLO override (Trojan Source)", "access\u202e }\u2066if (admin)\u2069 \u2066\u202c", "access }if (admin) "},
		{"every embedding and override", "a\u202ab\u202bc\u202cd\u202de\u202ef", "abcdef"},
		{"isolates", "a\u2066b\u2067c\u2068d\u2069e", "abcde"},
		{"marks LRM RLM ALM", "a\u200eb\u200fc\u061cd", "abcd"},
		{"zero-width space, word joiner, BOM", "pass\u200bword\u2060\ufeff", "password"},
		{"invisible operators", "a\u2061b\u2062c\u2063d\u2064e", "abcde"},
		{"deprecated format controls", "a\u206ab\u206fc", "abc"},
		{"soft hyphen", "co\u00adoperate", "cooperate"},
		{"Arabic number sign", "a\u0600b", "ab"},
		{"Mongolian vowel separator", "a\u180eb", "ab"},
		{"interlinear annotation", "a\ufff9b\ufffac\ufffbd", "abcd"},
		{"tag characters (ASCII smuggling)", "hi\U000E0001\U000E0069\U000E0067\U000E006E\U000E007F!", "hi!"},
		{"subdivision flag becomes the black flag", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", "🏴"},
		{"line and paragraph separators", "a\u2028b\u2029c", "a\nb\nc"},
		{"emoji ZWJ sequence shows its parts", "👨\u200d👩\u200d👧", "👨👩👧"},
		{"ZWJ between Latin letters", "a\u200db", "ab"},
		{"ZWNJ between Latin letters", "a\u200cb", "ab"},
		{"Persian ZWNJ kept", "می\u200cخواهم", "می\u200cخواهم"},
		{"Devanagari ZWJ kept", "क्\u200dष", "क्\u200dष"},
		{"joiner at the end", "می\u200c", "می"},
		{"joiner at the start", "\u200dक", "क"},
		{"joiner before a removed character", "ی\u200c\u061cخ", "یخ"},
		{"two joiners", "ی\u200c\u200cخ", "ی\u200cخ"},
		{"joiner after an escape", "ی\x1b[m\u200cخ", "ی\u200cخ"},
		{"joiner before an escape", "ی\u200c\x1b[mخ", "یخ"},
		{"Hebrew and Arabic letters kept", "שלום سلام", "שלום سلام"},
		{"presentation selectors and skin tones go (widths disagree)", "❤️ 👍🏽 ☺\ufe0e 1\ufe0f\u20e3", "❤ 👍 ☺ 1\u20e3"},
		{"late variation selectors go (hidden data)", "😀\U000E0100\U000E0141\U000E01EF!", "😀!"},
		{"early variation selectors stay", "\u845b\ufe00 \u2229\ufe00", "\u845b\ufe00 \u2229\ufe00"},
		{"regional indicator flags stay", "🇫🇷 🇯🇵🇩🇪", "🇫🇷 🇯🇵🇩🇪"},
		{"lone regional indicators go", "\U0001F1EB x \U0001F1EB\U0001F1F7\U0001F1E9 y", " x 🇫🇷 y"},
		{"indicators pair as they come, never one alone", "\U0001F1EB\u200b\U0001F1F7🇩🇪", "\U0001F1F7\U0001F1E9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sanitize(tt.in)
			if got != tt.want {
				t.Errorf("Sanitize(%+q) = %+q, want %+q", tt.in, got, tt.want)
			}
			checkSanitized(t, tt.in, got)
		})
	}
}

// TestSanitizeEveryFormatCharacter walks the whole Unicode Cf category (and
// the line and paragraph separators): each is removed between Latin letters,
// and invisible agrees with unicode.Cf on every assigned code point.
func TestSanitizeEveryFormatCharacter(t *testing.T) {
	n := 0
	for _, table := range []*unicode.RangeTable{unicode.Cf, unicode.Zl, unicode.Zp} {
		for _, rg := range table.R16 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				checkFormatRune(t, r)
				n++
			}
		}
		for _, rg := range table.R32 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				checkFormatRune(t, r)
				n++
			}
		}
	}
	if n < 150 {
		t.Errorf("walked only %d format characters", n)
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.Is(unicode.Cf, r) && !invisible(r) && r != zwnj && r != zwj {
			t.Errorf("invisible(%U) = false for a format character", r)
		}
		widthOnly := r == 0xFE0E || r == 0xFE0F || (r >= 0x1F3FB && r <= 0x1F3FF) || (r >= 0xE0100 && r <= 0xE01EF)
		if invisible(r) && !widthOnly && !unicode.Is(unicode.Cf, r) && unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z) {
			t.Errorf("invisible(%U) = true for an assigned non-format character", r)
		}
	}
}

// TestQuietBlocks: every rune firstUnsafe would stop at, or look at the
// neighbours of, lies in a block quietBlocks marks or, above the BMP, outside
// the ranges passed over at once.
func TestQuietBlocks(t *testing.T) {
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		if r >= 0x10000 {
			if firstUnsafe("x"+string(r)+"x") >= 0 && (r < 0x110BD || (r > 0x1D17A && r < 0x1F1E6) || (r > 0x1F1FF && r < 0x1F3FB) || (r > 0x1F3FF && r < 0xE0000)) {
				t.Errorf("%U is in an astral range passed over", r)
			}
			continue
		}
		s := "x" + string(r) + "x"
		if firstUnsafe(s) >= 0 || r == zwnj || r == zwj {
			if quietBlocks[r>>10]&(1<<(r>>4&63)) == 0 {
				t.Errorf("%U is in a block marked quiet", r)
			}
		}
	}
}

func checkFormatRune(t *testing.T, r rune) {
	t.Helper()
	in := "a" + string(r) + "b"
	want := "ab"
	if r == 0x2028 || r == 0x2029 {
		want = "a\nb"
	}
	if got := Sanitize(in); got != want {
		t.Errorf("Sanitize(%+q) = %+q, want %+q", in, got, want)
	}
	if got := SanitizeLine(in); got != "ab" && got != "a b" {
		t.Errorf("SanitizeLine(%+q) = %+q", in, got)
	}
}

// TestSanitizeGrowingJoiners feeds text that holds joiners one byte at a
// time, the way a streaming answer grows, and cleans only what follows
// SafeLen each time: the result is always Sanitize of the whole.
func TestSanitizeGrowingJoiners(t *testing.T) {
	for _, full := range []string{
		"می\u200cخواهم و می\u200cروم",
		"क्\u200dष and 👨\u200d👩\u200d👧 then a\u200db",
		"ی\u200c\u200c\u200cخ\u200c",
		"\u200c\u200dی\u200c\x1b[31mخ\u202e",
		"flags 🇫🇷🇩🇪 \U0001F1EB and 🇯🇵",
	} {
		safe := 0
		for end := 0; end <= len(full); end++ {
			s := full[:end]
			rest := s[safe:]
			n := SafeLen(rest)
			if got, want := s[:safe+n]+Sanitize(rest[n:]), Sanitize(s); got != want {
				t.Fatalf("%+q: cleaned from %d: %+q, want %+q", s, safe+n, got, want)
			}
			safe += n
		}
	}
}

// TestSettledLen feeds texts in every split into two pieces: sanitizing the
// settled part of the first, then the rest with the second, gives Sanitize of
// the whole for flags and joiners split across pieces.
func TestSettledLen(t *testing.T) {
	for _, full := range []string{
		"flag 🇫🇷 and 🇩🇪🇯🇵 done",
		"می\u200cخواهم و می\u200cروم",
		"क्\u200dष ok",
		"plain ascii text with é and 世界",
		"\U0001F1EB\U0001F1F7\U0001F1E9 x",
	} {
		for cut := 0; cut <= len(full); cut++ {
			first := full[:cut]
			n := SettledLen(first)
			if n > cut {
				t.Fatalf("SettledLen(%+q) = %d", first, n)
			}
			if got, want := Sanitize(first[:n])+Sanitize(full[n:]), Sanitize(full); got != want {
				t.Errorf("%+q cut at %d, settled %d: %+q, want %+q", full, cut, n, got, want)
			}
		}
	}
}
