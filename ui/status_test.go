package ui

import (
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream/costtest"
	"runnel/theme"
)

var statusNow = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func fullStatus() Status {
	return Status{
		Model:        "gpt-5-mini",
		State:        Streaming,
		Detail:       "Planning the stream reader refactor",
		Started:      statusNow.Add(-65 * time.Second),
		TurnUsage:    Usage{Input: 1234, Output: 340, Reasoning: 120},
		SessionUsage: Usage{Input: 12_000, Output: 4_100},
	}
}

func TestStatusOneLineAtAnyWidth(t *testing.T) {
	t.Parallel()
	for _, st := range testStyles(t) {
		for _, s := range []Status{fullStatus(), {}, {State: AwaitingApproval, Started: statusNow}} {
			for _, w := range []int{1, 10, 20, 40, 60, 80, 100, 200} {
				v := s.View(w, statusNow, st)
				if strings.Contains(v, "\n") {
					t.Fatalf("width %d: status wraps: %q", w, v)
				}
				if got := ansi.StringWidth(v); got != w {
					t.Errorf("width %d: status is %d cells: %q", w, got, ansi.Strip(v))
				}
			}
		}
	}
}

func TestStatusAt100And60(t *testing.T) {
	t.Parallel()
	s := fullStatus()
	v100 := ansi.Strip(s.View(100, statusNow, nil))
	for _, want := range []string{"streaming", "1m05s", "Planning the stream reader refactor", "↑1.2k ↓340 (120 reasoning)", "gpt-5-mini"} {
		if !strings.Contains(v100, want) {
			t.Errorf("at 100 the status lacks %q: %q", want, v100)
		}
	}
	if strings.Contains(v100, "Σ") {
		t.Errorf("at 100 the session usage should have made room for the detail: %q", v100)
	}
	v60 := ansi.Strip(s.View(60, statusNow, nil))
	for _, want := range []string{"streaming", "1m05s", "Planning", "…", "gpt-5-mini"} {
		if !strings.Contains(v60, want) {
			t.Errorf("at 60 the status lacks %q: %q", want, v60)
		}
	}
	if strings.Contains(v60, "↑") {
		t.Errorf("at 60 the usage should be gone: %q", v60)
	}
	wide := ansi.Strip(s.View(160, statusNow, nil))
	if !strings.Contains(wide, "Σ ↑12k ↓4.1k") {
		t.Errorf("at 160 the session usage shows: %q", wide)
	}
}

func TestStatusSanitizesUntrustedText(t *testing.T) {
	t.Parallel()
	s := fullStatus()
	s.Detail = "evil\x1b]52;c;aGk=\x07title\x1b[2J"
	s.Model = "m\x1b[31mred"
	v := s.View(100, statusNow, nil)
	if strings.ContainsRune(v, '\x1b') || strings.ContainsRune(v, '\a') {
		t.Errorf("control sequences reached the status line: %q", v)
	}
	if !strings.Contains(v, "eviltitle") || !strings.Contains(v, "mred") {
		t.Errorf("sanitized text missing: %q", v)
	}
}

func TestStatusIdleAndProvider(t *testing.T) {
	t.Parallel()
	s := Status{Model: "gpt-5", Provider: "https://api.example.com/v1"}
	v := ansi.Strip(s.View(80, statusNow, nil))
	if !strings.Contains(v, "ready") || !strings.Contains(v, "@api.example.com") || strings.Contains(v, "DEMO") {
		t.Errorf("idle status = %q", v)
	}
	if strings.Contains(v, "0s") {
		t.Errorf("idle status shows an elapsed time: %q", v)
	}
}

// TestStatusEffortAndDemo: the reasoning effort shows after the model; the
// demo shows a DEMO badge and the name its answers carry, runnel-demo (the
// model config.WithDemo gives the chat), as /status does (TestDemoModelAgrees).
func TestStatusEffortAndDemo(t *testing.T) {
	t.Parallel()
	s := Status{Model: "gpt-5", Effort: "high"}
	if v := ansi.Strip(s.View(80, statusNow, nil)); !strings.Contains(v, "gpt-5 · high") {
		t.Errorf("no effort: %q", v)
	}
	s = Status{Model: "runnel-demo", Provider: "demo", Effort: "low"}
	v := ansi.Strip(s.View(80, statusNow, nil))
	if !strings.Contains(v, "DEMO runnel-demo") || strings.Contains(v, "low") {
		t.Errorf("demo status = %q", v)
	}
}

func TestStateString(t *testing.T) {
	t.Parallel()
	want := map[State]string{Idle: "idle", Waiting: "waiting", Streaming: "streaming", RunningTool: "running tool", AwaitingApproval: "awaiting approval", State(42): "State(42)"}
	for s, w := range want {
		if s.String() != w {
			t.Errorf("%d.String() = %q; want %q", int(s), s.String(), w)
		}
	}
}

func TestElapsed(t *testing.T) {
	t.Parallel()
	cases := map[time.Duration]string{
		-time.Second:                          "0s",
		0:                                     "0s",
		12*time.Second + 900*time.Millisecond: "12s",
		65 * time.Second:                      "1m05s",
		59*time.Minute + 59*time.Second:       "59m59s",
		62 * time.Minute:                      "1h02m",
	}
	for d, want := range cases {
		if got := Elapsed(d); got != want {
			t.Errorf("Elapsed(%v) = %q; want %q", d, got, want)
		}
	}
}

func TestUsageString(t *testing.T) {
	t.Parallel()
	cases := map[Usage]string{
		{}:                               "↑0 ↓0",
		{Input: 999, Output: 1000}:       "↑999 ↓1k",
		{Input: 1234, Output: 340}:       "↑1.2k ↓340",
		{Input: 12_345, Output: 999_999}: "↑12k ↓999k",
		{Input: 1_250_000, Output: 12_000_000, Reasoning: 5}: "↑1.2M ↓12M (5 reasoning)",
		{Unknown: 1}:                           "↑? ↓?",
		{Input: 1234, Output: 340, Unknown: 2}: "≥ ↑1.2k ↓340",
	}
	for u, want := range cases {
		if got := u.String(); got != want {
			t.Errorf("%+v.String() = %q; want %q", u, got, want)
		}
	}
	if got := (Usage{1, 2, 3, 1}).Add(Usage{10, 20, 30, 2}); got != (Usage{11, 22, 33, 3}) {
		t.Errorf("Add = %+v", got)
	}
}

func TestHint(t *testing.T) {
	t.Parallel()
	for _, st := range testStyles(t) {
		cases := map[State][]string{
			Idle:             {"enter send", "ctrl+j newline", "? keys"},
			Streaming:        {"esc stop"},
			Waiting:          {"esc stop"},
			AwaitingApproval: {"y approve", "n deny"},
		}
		for state, wants := range cases {
			v := ansi.Strip(Hint(100, st, state))
			for _, w := range wants {
				if !strings.Contains(v, w) {
					t.Errorf("%v hint = %q; want %q", state, v, w)
				}
			}
			for _, w := range []int{0, 5, 20, 40} {
				h := Hint(w, st, state)
				if strings.Contains(h, "\n") || ansi.StringWidth(h) > w {
					t.Errorf("%v hint at %d is %d cells: %q", state, w, ansi.StringWidth(h), ansi.Strip(h))
				}
			}
		}
	}
}

// bidiHostile holds bidi overrides and isolates, zero-width and other format
// characters: text that would reorder what follows it on the line, hide
// itself, or be measured at another width than a terminal draws.
const bidiHostile = "ab\u202ecd\u202c\u2066ef\u2069\u200b\u200c\u200d\u200e\u200f\u061c\ufeff\u2060\u00ad\U000E0041\u2028gh"

// checkNoFormatChars fails if s holds a format character or line separator.
func checkNoFormatChars(t *testing.T, where, s string) {
	t.Helper()
	for _, r := range s {
		if r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r) {
			t.Errorf("%s: format character %U reached the screen: %+q", where, r, s)
			return
		}
	}
}

// TestStatusBidiAndZeroWidth: the status line never carries bidi or
// zero-width characters from the model's title or the model name, and keeps
// its width.
func TestStatusBidiAndZeroWidth(t *testing.T) {
	t.Parallel()
	s := fullStatus()
	s.Detail = bidiHostile
	s.Model = "gpt\u202e-5"
	s.MCP = "mcp\u2067 2"
	for _, w := range []int{40, 100, 160} {
		v := s.View(w, statusNow, nil)
		checkNoFormatChars(t, "status", v)
		if got, wc := ansi.StringWidth(v), ansi.StringWidthWc(v); got != w || wc != w {
			t.Errorf("width %d: status is %d cells (%d per rune): %q", w, got, wc, ansi.Strip(v))
		}
	}
	if v := ansi.Strip(s.View(160, statusNow, nil)); !strings.Contains(v, "abcdef gh") || !strings.Contains(v, "gpt-5") {
		t.Errorf("cleaned text missing: %q", v)
	}
}

// TestStatusProviderName: a named provider shows as @NAME, shorter than its
// host; "default" (the [provider] table) keeps the host; untrusted bytes of
// a name are cleaned.
func TestStatusProviderName(t *testing.T) {
	t.Parallel()
	st := testStyles(t)[0]
	view := func(s Status) string { return ansi.Strip(s.View(100, statusNow, st)) }
	s := Status{Model: "qwen3:8b", Provider: "http://127.0.0.1:11434/v1", ProviderName: "ollama"}
	if v := view(s); !strings.Contains(v, "qwen3:8b @ollama") || strings.Contains(v, "127.0.0.1") {
		t.Errorf("named provider: %q", v)
	}
	s.ProviderName = "default"
	if v := view(s); !strings.Contains(v, "@127.0.0.1:11434") {
		t.Errorf("default provider: %q", v)
	}
	s.ProviderName = "evil\x1b[31m"
	if v := s.View(100, statusNow, st); strings.Contains(v, "\x1b[31m") {
		t.Errorf("an escape in the name reaches the terminal: %q", v)
	}
}

// TestStatusSpinnerSwapsItsGlyph: the status line drawn once a second,
// with only the spinner's glyph swapped in between, is the line drawn
// anew at every 10 ms of a turn, in every state, with the spinner's
// glyphs in the model's words after it; and it is drawn once per second.
func TestStatusSpinnerSwapsItsGlyph(t *testing.T) {
	st := new(theme.New(theme.Dark()))
	start := time.Unix(1_700_000_000, 0)
	for _, state := range []State{Idle, Waiting, Streaming, AwaitingApproval} {
		for _, detail := range []string{"", "Thinking ⠋⠙⠹ about ⠋", "⠏"} {
			b := &statusBar{status: Status{Model: "gpt-5", State: state, Started: start, Detail: detail, Mode: "INSERT"}}
			f := &frameState{width: 100, styles: st}
			draws := 0
			for ms := 0; ms < 3000; ms += 10 {
				f.now = start.Add(time.Duration(ms) * time.Millisecond)
				before := b.statusFor
				got := b.statusView(f)
				if b.statusFor != before {
					draws++
				}
				if want := b.status.View(f.width, f.now, st); got != want {
					t.Fatalf("%v, %q, at %d ms: %q, want %q", state, detail, ms, got, want)
				}
			}
			if draws > 3 {
				t.Errorf("%v: the line was drawn %d times in 3 s, want once a second", state, draws)
			}
		}
	}
}

// BenchmarkStatusSpinner is the status line over a second of a turn, a
// frame per spinner step (10), as the chat draws it, against drawing the
// line anew at each step (x-anew), in the same run.
func BenchmarkStatusSpinner(b *testing.B) {
	st := new(theme.New(theme.Dark()))
	s := fullStatus()
	f := &frameState{width: 120, styles: st}
	var c costtest.Cost
	sec := 0
	second := func(draw func(now time.Time)) costtest.Work {
		return costtest.Func(func() {
			sec++
			for step := range 10 {
				draw(statusNow.Add(time.Duration(sec)*time.Second + time.Duration(step)*100*time.Millisecond))
			}
		})
	}
	bar := &statusBar{status: s}
	for b.Loop() {
		c = costtest.Measure(second(func(now time.Time) { s.View(f.width, now, st) }), second(func(now time.Time) { f.now = now; bar.statusView(f) }))
	}
	b.ReportMetric(c.Ratio(), "x-anew")
	b.ReportMetric(float64(c.Work.Microseconds()), "µs/second-kept")
	b.ReportMetric(float64(c.Base.Microseconds()), "µs/second-anew")
}
