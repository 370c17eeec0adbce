package graphics

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestDetect(t *testing.T) {
	never := func() string { t.Error("tmux asked outside tmux"); return "" }
	for _, tc := range []struct {
		name string
		env  func(string) string
		tmux func() string
		on   bool
		note string
	}{
		{"plain xterm", env("TERM", "xterm-256color"), never, false, ""},
		{"kitty", env("TERM", "xterm-kitty"), never, true, ""},
		{"kitty window id", env("TERM", "xterm-256color", "KITTY_WINDOW_ID", "3"), never, true, ""},
		{"opted out", env("TERM", "xterm-kitty", "RUNNEL_INLINE_IMAGES", "0"), never, false, ""},
		{"tmux without passthrough", env("TERM", "tmux-256color", "KITTY_WINDOW_ID", "1", "TMUX", "/tmp/t,1,0"), func() string { return "off\n" }, false, "allow-passthrough"},
		{"tmux with passthrough", env("TERM", "tmux-256color", "KITTY_WINDOW_ID", "1", "TMUX", "/tmp/t,1,0"), func() string { return "on\n" }, true, ""},
		{"tmux, not kitty", env("TERM", "tmux-256color", "TMUX", "/tmp/t,1,0"), never, false, ""},
	} {
		s := Detect(tc.env, tc.tmux)
		if s.On() != tc.on || !strings.Contains(s.Note, tc.note) || (tc.note == "" && s.Note != "") {
			t.Errorf("%s: %+v", tc.name, s)
		}
	}
}

func pngOf(t *testing.T, w, h int) string {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// tooBigPNG is a PNG that says it is 5000×5000 pixels, over MaxPixels: a
// 1×1 one with the size in its header changed (and the header's checksum
// made again). Prepare reads the header before any pixel, so it needs no
// more; encoding a real one took seconds.
func tooBigPNG(t *testing.T) string {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(pngOf(t, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	// signature (8), IHDR length (4), "IHDR" at 12, width at 16, height at 20, CRC at 29
	binary.BigEndian.PutUint32(raw[16:], 5000)
	binary.BigEndian.PutUint32(raw[20:], 5000)
	binary.BigEndian.PutUint32(raw[29:], crc32.ChecksumIEEE(raw[12:29]))
	if cfg, err := png.DecodeConfig(bytes.NewReader(raw)); err != nil || cfg.Width != 5000 || cfg.Height != 5000 {
		t.Fatalf("the made-up header reads as %+v, %v", cfg, err)
	}
	return base64.StdEncoding.EncodeToString(raw)
}

func TestPrepare(t *testing.T) {
	s := Support{Kitty: true}
	img, err := s.Prepare(7, pngOf(t, 200, 100), 40)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(img.Seq, "\x1b_Ga=T,U=1,f=100,i=7,c=40,r=10,m=0,q=2;") || !strings.HasSuffix(img.Seq, "\x1b\\") {
		t.Errorf("sequence %q…", img.Seq[:min(80, len(img.Seq))])
	}
	if len(img.Rows) != 10 || !strings.HasPrefix(img.Rows[0], "\x1b[38;5;7m\U0010EEEE\u0305\u0305") || strings.Count(img.Rows[9], "\U0010EEEE") != 40 {
		t.Errorf("rows %q", img.Rows)
	}
	tm := Support{Kitty: true, Tmux: true}
	img, _ = tm.Prepare(7, pngOf(t, 10, 10), 40)
	if !strings.HasPrefix(img.Seq, "\x1bPtmux;\x1b\x1b_G") {
		t.Errorf("tmux wrapping %q", img.Seq[:20])
	}
	for _, bad := range []string{"not base64!", base64.StdEncoding.EncodeToString([]byte("\x1b]52;c;evil\x07")), tooBigPNG(t)} {
		if img, err := s.Prepare(1, bad, 40); err == nil || img.Seq != "" {
			t.Errorf("bad image accepted: %v", err)
		}
	}
	if _, err := s.Prepare(1, tooBigPNG(t), 40); err == nil || !strings.Contains(err.Error(), "5000×5000 pixels: too big") {
		t.Errorf("a 5000×5000 image: %v", err)
	}
	if _, err := (Support{}).Prepare(1, pngOf(t, 2, 2), 40); err == nil {
		t.Error("prepared with support off")
	}
	// a long image is chunked, every chunk its own sequence
	big := image.NewRGBA(image.Rect(0, 0, 300, 300))
	for i := range big.Pix {
		big.Pix[i] = byte(i * 7919 % 251)
	}
	var b bytes.Buffer
	png.Encode(&b, big)
	img, err = s.Prepare(2, base64.StdEncoding.EncodeToString(b.Bytes()), 40)
	if err != nil || strings.Count(img.Seq, "\x1b_G") < 2 || !strings.Contains(img.Seq, "\x1b_Gm=0,q=2;") {
		t.Errorf("chunks: %v %d", err, strings.Count(img.Seq, "\x1b_G"))
	}
}
