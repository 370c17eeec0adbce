package graphics

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // decoders for what image generation returns
	_ "image/jpeg"
	"image/png"
	"os/exec"
	"strings"
	"time"

	"runnel/session/images"
	"runnel/session/tools/toolrun"
)

// Support is what the terminal can show. The zero value shows nothing.
type Support struct {
	Kitty bool   // the kitty graphics protocol, with Unicode placeholders
	ITerm bool   // iTerm2 inline images (OSC 1337), drawn at reserved rows (iterm.go)
	Tmux  bool   // wrap sequences for tmux's passthrough
	Note  string // why images are off where one might expect them ("" when none)
}

// On reports whether images are drawn inline.
func (s Support) On() bool { return s.Kitty || s.ITerm }

// Detect reads the environment (getenv) and, inside tmux, asks tmux
// whether it passes sequences through (tmuxOption runs `tmux show -gv
// allow-passthrough`: TmuxPassthrough with the chat's child environment).
func Detect(getenv func(string) string, tmuxOption func() string) Support {
	switch getenv("RUNNEL_INLINE_IMAGES") {
	case "0", "off", "false":
		return Support{}
	}
	var s Support
	switch {
	case getenv("TERM") == "xterm-kitty" || getenv("KITTY_WINDOW_ID") != "":
		s.Kitty = true
	case itermProgram(getenv):
		s.ITerm = true
	default:
		return Support{}
	}
	if getenv("TMUX") == "" {
		return s
	}
	s.Tmux = true
	if v := getenv("RUNNEL_INLINE_IMAGES"); v == "1" || v == "on" {
		return s
	}
	switch strings.TrimSpace(tmuxOption()) {
	case "on", "all":
		return s
	}
	return Support{Note: "inline images are off inside tmux: turn on tmux's allow-passthrough (tmux set -g allow-passthrough on)"}
}

// TmuxPassthrough is tmux's allow-passthrough option, "" when tmux does not
// answer within a second. tmux runs with env (toolrun.ChildEnv: without the
// config's secrets).
func TmuxPassthrough(env toolrun.Environ) string {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", "show", "-gv", "allow-passthrough")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// Limits on an image shown inline: what Prepare decodes at most.
const (
	MaxBytes  = 16 << 20    // decoded data
	MaxPixels = 4096 * 4096 // width × height
	MaxCols   = 64          // columns of the placement
	MaxRows   = 16          // rows of the placement
)

// Image is one image ready to show: Seq transmits it (write it to the
// terminal once; it replaces an image with the same id), Rows are the
// placeholder lines to draw where it goes. With iTerm2 images Seq is "",
// Rows are blank reserved rows (the first starting with Marker) and Draw
// is the sequence that draws the picture at the cursor (see DrawAt).
type Image struct {
	Seq  string
	Rows []string
	Draw string
}

// Prepare checks and re-encodes base64 image data for id (1 to 255) at most
// cols columns wide.
func (s Support) Prepare(id int, b64 string, cols int) (Image, error) {
	if !s.On() {
		return Image{}, errors.New("inline images are off")
	}
	if id < 1 || id > 255 {
		return Image{}, fmt.Errorf("image id %d: want 1 to 255", id)
	}
	if base64.StdEncoding.DecodedLen(len(b64)) > MaxBytes {
		return Image{}, fmt.Errorf("image larger than %d MiB", MaxBytes>>20)
	}
	raw, err := images.Decode(b64)
	if err != nil {
		return Image{}, fmt.Errorf("image data is not base64: %v", err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return Image{}, fmt.Errorf("not an image runnel can show: %v", err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width*cfg.Height > MaxPixels {
		return Image{}, fmt.Errorf("image of %d×%d pixels: too big to show", cfg.Width, cfg.Height)
	}
	img, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return Image{}, fmt.Errorf("not an image runnel can show: %v", err)
	}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		return Image{}, err
	}
	c, r := fit(cfg.Width, cfg.Height, min(cols, MaxCols))
	if !s.Kitty {
		return Image{Rows: reserve(id, c, r), Draw: s.itermImage(out.Bytes(), c, r)}, nil
	}
	return Image{Seq: s.transmit(id, out.Bytes(), c, r), Rows: placeholders(id, c, r)}, nil
}

// fit is the cells an image of w×h pixels takes at most maxCols wide and
// MaxRows high, a cell being about twice as high as wide.
func fit(w, h, maxCols int) (cols, rows int) {
	cols = max(1, maxCols)
	rows = max(1, (cols*h+w)/(2*w))
	if rows > MaxRows {
		rows = MaxRows
		cols = max(1, rows*2*w/h)
	}
	return min(cols, max(1, maxCols)), rows
}

// transmit is the kitty sequence sending a PNG as image id with a virtual
// placement of cols×rows cells (U=1), quietly (q=2), in chunks of 4096
// base64 bytes, each wrapped for tmux when needed.
func (s Support) transmit(id int, pngData []byte, cols, rows int) string {
	data := base64.StdEncoding.EncodeToString(pngData)
	var b strings.Builder
	for first := true; first || data != ""; first = false {
		chunk := data[:min(len(data), 4096)]
		data = data[len(chunk):]
		more := 0
		if data != "" {
			more = 1
		}
		ctl := fmt.Sprintf("m=%d,q=2", more)
		if first {
			ctl = fmt.Sprintf("a=T,U=1,f=100,i=%d,c=%d,r=%d,", id, cols, rows) + ctl
		}
		b.WriteString(s.wrap("\x1b_G" + ctl + ";" + chunk + "\x1b\\"))
	}
	return b.String()
}

// Delete is the sequence that frees the images with these ids in the
// terminal (their data, not only their placements); "" when off.
func (s Support) Delete(ids []int) string {
	if !s.Kitty {
		return ""
	}
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(s.wrap(fmt.Sprintf("\x1b_Ga=d,d=I,i=%d,q=2\x1b\\", id)))
	}
	return b.String()
}

// wrap passes a sequence through tmux when inside it.
func (s Support) wrap(seq string) string {
	if !s.Tmux {
		return seq
	}
	return "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
}

// placeholder is kitty's Unicode placeholder character.
const placeholder = "\U0010EEEE"

// diacritics are the first row and column numbers kitty reads from
// combining marks on a placeholder (from kitty's rowcolumn-diacritics.txt).
var diacritics = []rune{
	0x0305, 0x030D, 0x030E, 0x0310, 0x0312, 0x033D, 0x033E, 0x033F, 0x0346, 0x034A,
	0x034B, 0x034C, 0x0350, 0x0351, 0x0352, 0x0357, 0x035B, 0x0363, 0x0364, 0x0365,
	0x0366, 0x0367, 0x0368, 0x0369, 0x036A, 0x036B, 0x036C, 0x036D, 0x036E, 0x036F,
}

// placeholders are the rows of the virtual placement: each starts with a
// placeholder naming its row and column 0; the rest of the row carries on
// from it. The foreground colour is the image id.
func placeholders(id, cols, rows int) []string {
	rows = min(rows, len(diacritics))
	out := make([]string, rows)
	for r := range rows {
		out[r] = fmt.Sprintf("\x1b[38;5;%dm%s%c%c%s\x1b[39m", id, placeholder, diacritics[r], diacritics[0], strings.Repeat(placeholder, cols-1))
	}
	return out
}
