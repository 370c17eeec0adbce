package ui

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/session/attach"
)

// fakeClipTool writes a script named name into a new directory: it lists
// image/png among the clipboard's types and gives a 2×2 PNG, or the text
// "plain words" when asked for text. It returns the directory and the PNG.
func fakeClipTool(t *testing.T, name string) (dir string, pngData []byte) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake tool is a shell script")
	}
	dir = t.TempDir()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "img.png"), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	script := `#!/bin/sh
case "$*" in
*TARGETS*|*--list-types*) printf 'TARGETS\nimage/png\ntext/plain\n' ;;
*image/png*) cat "` + dir + `/img.png" ;;
*) printf 'plain words' ;;
esac
`
	writeScript(t, filepath.Join(dir, name), script)
	return dir, b.Bytes()
}

// pasteKey is ctrl+v.
var pasteKey = tea.KeyPressMsg{Code: 'v', Mod: tea.ModCtrl}

// TestPasteImage: ctrl+v with an image on the clipboard (a fake xclip, and
// a fake wl-paste under Wayland) attaches it as a chip, read off the
// Update loop; the message sent carries it.
func TestPasteImage(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"xclip", "wl-paste"} {
		dir, pngData := fakeClipTool(t, tool)
		c := newTestComposer()
		c.att.clip = clipReader{goos: "linux", path: dir, env: func(k string) string {
			return map[string]string{"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}[k]
		}}
		c, cmd := c.Update(pasteKey)
		if cmd == nil || len(c.Attachments()) != 0 {
			t.Fatalf("%s: ctrl+v should read the clipboard in a Cmd", tool)
		}
		msgs := run(cmd)
		c, cmd = c.Update(msgs[0])
		files := c.Attachments()
		if len(files) != 1 || files[0].Kind != attach.Image || files[0].MIME != "image/png" || !bytes.Equal(files[0].Data, pngData) {
			t.Fatalf("%s: chips %+v, message %+v", tool, files, msgs[0])
		}
		if h := run(cmd); len(h) != 1 || !strings.Contains(h[0].(hintMsg).text, "attached pasted image 1.png") {
			t.Errorf("%s: hint %v", tool, h)
		}
		if v := c.View(); !strings.Contains(v, "[pasted image 1.png · ") {
			t.Errorf("%s: no chip:\n%s", tool, v)
		}
		c = typeText(c, "what is this?")
		_, cmd = c.Update(keyMsg("enter"))
		sub := run(cmd)[0].(SubmitMsg)
		if len(sub.Files) != 1 || sub.Files[0].Kind != attach.Image {
			t.Errorf("%s: sent %+v", tool, sub)
		}
		msg := readMessage(sub.Text, sub.Files, attach.Limits{}, nil)
		if msg.err != nil || !strings.Contains(string(msg.msg), `"image_url":"data:image/png;base64,`) {
			t.Errorf("%s: message %s %v", tool, msg.msg, msg.err)
		}
	}
}

// TestPasteImageBounds: an image over the per-file limit is refused with
// one line naming the limit; no tool on PATH is one line naming what to
// install; a clipboard of text pastes the text.
func TestPasteImageBounds(t *testing.T) {
	t.Parallel()
	dir, _ := fakeClipTool(t, "xclip")
	env := func(k string) string { return map[string]string{"DISPLAY": ":0"}[k] }

	c := newTestComposer()
	c.att.limits = attach.Limits{MaxFile: 10}
	c.att.clip = clipReader{goos: "linux", path: dir, env: env}
	_, cmd := c.Update(pasteKey)
	c, cmd = c.Update(run(cmd)[0])
	if h := run(cmd); len(c.Attachments()) != 0 || len(h) != 1 || !h[0].(hintMsg).err ||
		!strings.Contains(h[0].(hintMsg).text, "over the limit of 10 B per file ([attachments] max_file_mib)") {
		t.Errorf("too big: chips %d, hint %v", len(c.Attachments()), h)
	}

	c = newTestComposer()
	c.att.clip = clipReader{goos: "linux", path: t.TempDir(), env: env}
	_, cmd = c.Update(pasteKey)
	c, cmd = c.Update(run(cmd)[0])
	h := run(cmd)
	if len(h) != 1 || !h[0].(hintMsg).err || !strings.Contains(h[0].(hintMsg).text, "install wl-clipboard or xclip") ||
		strings.Contains(h[0].(hintMsg).text, "\n") {
		t.Errorf("no tool: %v", h)
	}

	text := t.TempDir()
	script := "#!/bin/sh\ncase \"$*\" in\n*TARGETS*) printf 'TARGETS\\nUTF8_STRING\\n' ;;\n*) printf 'plain \\033[31mwords' ;;\nesac\n"
	writeScript(t, filepath.Join(text, "xclip"), script)
	c = newTestComposer()
	c.att.clip = clipReader{goos: "linux", path: text, env: env}
	_, cmd = c.Update(pasteKey)
	c, _ = c.Update(run(cmd)[0])
	if c.Value() != "plain words" || len(c.Attachments()) != 0 {
		t.Errorf("text clipboard: %q, %d chips", c.Value(), len(c.Attachments()))
	}
}
