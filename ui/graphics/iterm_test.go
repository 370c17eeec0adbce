package graphics

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestDetectITerm(t *testing.T) {
	never := func() string { t.Error("tmux asked outside tmux"); return "" }
	const tmux = "/tmp/t,1,0"
	for _, tc := range []struct {
		name        string
		env         func(string) string
		tmux        func() string
		iterm, kitt bool
		wrap        bool
		note        string
	}{
		{"iTerm2", env("TERM_PROGRAM", "iTerm.app", "TERM", "xterm-256color"), never, true, false, false, ""},
		{"WezTerm", env("TERM_PROGRAM", "WezTerm"), never, true, false, false, ""},
		{"iTerm2 over ssh", env("LC_TERMINAL", "iTerm2", "TERM", "xterm-256color"), never, true, false, false, ""},
		{"Apple Terminal", env("TERM_PROGRAM", "Apple_Terminal"), never, false, false, false, ""},
		{"other LC_TERMINAL", env("LC_TERMINAL", "iTerm"), never, false, false, false, ""},
		{"kitty wins", env("TERM", "xterm-kitty", "TERM_PROGRAM", "WezTerm"), never, false, true, false, ""},
		{"opted out", env("TERM_PROGRAM", "iTerm.app", "RUNNEL_INLINE_IMAGES", "0"), never, false, false, false, ""},
		{"tmux without passthrough", env("TERM_PROGRAM", "iTerm.app", "TMUX", tmux), func() string { return "off\n" }, false, false, false, "allow-passthrough"},
		{"tmux silent", env("LC_TERMINAL", "iTerm2", "TMUX", tmux), func() string { return "" }, false, false, false, "allow-passthrough"},
		{"tmux with passthrough", env("TERM_PROGRAM", "iTerm.app", "TMUX", tmux), func() string { return "all\n" }, true, false, true, ""},
		{"tmux forced on", env("TERM_PROGRAM", "iTerm.app", "TMUX", tmux, "RUNNEL_INLINE_IMAGES", "1"), never, true, false, true, ""},
	} {
		s := Detect(tc.env, tc.tmux)
		if s.ITerm != tc.iterm || s.Kitty != tc.kitt || (s.On() && s.Tmux != tc.wrap) || !strings.Contains(s.Note, tc.note) || (tc.note == "" && s.Note != "") {
			t.Errorf("%s: %+v", tc.name, s)
		}
	}
}

// osc1337 is an iTerm2 inline image: its arguments and base64 payload.
var osc1337 = regexp.MustCompile("^\x1b\\]1337;File=([^:\a\x1b]*):([A-Za-z0-9+/=]*)\a$")

func TestPrepareITerm(t *testing.T) {
	s := Support{ITerm: true}
	src := pngOf(t, 200, 100)
	img, err := s.Prepare(9, src, 40)
	if err != nil {
		t.Fatal(err)
	}
	if img.Seq != "" {
		t.Errorf("a kitty transmission for iTerm2: %q", img.Seq[:20])
	}
	m := osc1337.FindStringSubmatch(img.Draw)
	if m == nil {
		t.Fatalf("draw sequence %q…", img.Draw[:min(80, len(img.Draw))])
	}
	data, err := base64.StdEncoding.DecodeString(m[2])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Fatalf("payload is not a PNG: %v", err)
	}
	if want := "inline=1;size=" + strconv.Itoa(len(data)) + ";width=40;height=10;preserveAspectRatio=1"; m[1] != want {
		t.Errorf("arguments %q, want %q", m[1], want)
	}
	if len(img.Rows) != 10 || img.Rows[0] != Marker(9)+strings.Repeat(" ", 40) || img.Rows[9] != strings.Repeat(" ", 40) {
		t.Errorf("reserved rows %q", img.Rows)
	}
	if got := DrawAt(img.Draw, 4, 2); got != "\x1b7\x1b[5;3H"+img.Draw+"\x1b8" {
		t.Errorf("DrawAt %q…", got[:20])
	}
	tm := Support{ITerm: true, Tmux: true}
	img, _ = tm.Prepare(9, src, 40)
	if !strings.HasPrefix(img.Draw, "\x1bPtmux;\x1b\x1b]1337;File=inline=1;") || !strings.HasSuffix(img.Draw, "\a\x1b\\") {
		t.Errorf("tmux wrapping %q", img.Draw[:30])
	}
	// what the stream sent is never what is drawn: bad data is refused,
	// and an image is re-encoded (bytes after a PNG's end are dropped)
	for _, bad := range []string{"not base64!", base64.StdEncoding.EncodeToString([]byte("\x1b]1337;File=inline=1:AAAA\a")), tooBigPNG(t)} {
		if img, err := s.Prepare(1, bad, 40); err == nil || img.Draw != "" {
			t.Errorf("bad image accepted: %v", err)
		}
	}
	raw, _ := base64.StdEncoding.DecodeString(src)
	tail := base64.StdEncoding.EncodeToString(append(raw, "\x1b]52;c;evil\a"...))
	img, err = s.Prepare(2, tail, 40)
	if err != nil {
		t.Fatal(err)
	}
	if m := osc1337.FindStringSubmatch(img.Draw); m == nil {
		t.Fatal("no sequence")
	} else if d, _ := base64.StdEncoding.DecodeString(m[2]); bytes.Contains(d, []byte("evil")) {
		t.Error("the stream's trailing bytes reached the terminal")
	}
	if (Support{ITerm: true}).Delete([]int{1}) != "" {
		t.Error("kitty delete sent to iTerm2")
	}
}

func TestLocate(t *testing.T) {
	lines := []string{"hello", "", "│ " + Marker(3) + "    │", "│      │", "│      │", "end"}
	if r, c, ok := Locate(lines, 3, 3, 6); r != 2 || c != 2 || !ok {
		t.Errorf("Locate = %d, %d, %v", r, c, ok)
	}
	if _, _, ok := Locate(lines, 3, 3, 4); ok { // cut by the bottom
		t.Error("a partly visible image located")
	}
	if _, _, ok := Locate(lines, 33, 1, 6); ok { // another id
		t.Error("wrong id located")
	}
	if _, _, ok := Locate(nil, 3, 1, 6); ok {
		t.Error("located in nothing")
	}
}
