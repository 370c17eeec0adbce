package ui

// This file is ctrl+v in the composer: it reads the system clipboard
// through the platform's own tool, off the Update loop, bounded in time and
// in size (the per-file attachment limit). An image becomes a chip, as an
// attached image file does; text is pasted as a bracketed paste is (a long
// one becomes a paste chip). Where no tool is found, one line names what to
// install. The tools, by platform: wl-paste (Wayland) or xclip (X11);
// osascript (macOS; pbpaste for text); PowerShell (Windows).

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session/attach"
	"runnel/session/tools"
)

// clipTimeout bounds one read of the clipboard (each tool run).
const clipTimeout = 5 * time.Second

// clipImageTypes are the image types asked for, best first.
var clipImageTypes = []string{"image/png", "image/jpeg", "image/webp", "image/gif"}

// clipReader reads the clipboard. The zero value reads this machine's, with
// this process's PATH and environment; tests give a PATH of fake tools.
// The tools run in the one child environment (tools.ChildEnv), without the
// variables in hidden.
type clipReader struct {
	goos   string              // "" is runtime.GOOS
	path   string              // where tools are looked for; "" is $PATH
	env    func(string) string // nil is os.Getenv
	hidden []string            // the config's secret variables
}

// clipPastedMsg is what ctrl+v read: an image (file), text, or why nothing.
type clipPastedMsg struct {
	file *attach.File
	text string
	err  error
}

// read returns the Cmd that reads the clipboard, an image at most limit
// bytes; n numbers the image's name.
func (r clipReader) read(limit int64, n int) tea.Cmd {
	return func() tea.Msg {
		data, mime, text, err := r.get(limit)
		if err != nil {
			return clipPastedMsg{err: err}
		}
		if data == nil {
			return clipPastedMsg{text: text}
		}
		ext := strings.TrimPrefix(mime, "image/")
		name := fmt.Sprintf("pasted image %d.%s", n, ext)
		return clipPastedMsg{file: &attach.File{Path: fmt.Sprintf("clipboard:%d", n), Name: name,
			Sent: fmt.Sprintf("pasted-image-%d.%s", n, ext), Kind: attach.Image, MIME: mime, Size: int64(len(data)), Data: data}}
	}
}

// get reads the clipboard: an image's bytes and type, else its text.
func (r clipReader) get(limit int64) (data []byte, mime, text string, err error) {
	goos, env := r.goos, r.env
	if goos == "" {
		goos = runtime.GOOS
	}
	if env == nil {
		env = os.Getenv
	}
	switch goos {
	case "darwin":
		return r.mac(limit)
	case "windows":
		return r.windows(limit)
	}
	wl, wlErr := r.look("wl-paste")
	xc, xcErr := r.look("xclip")
	switch {
	case wlErr == nil && (env("WAYLAND_DISPLAY") != "" || xcErr != nil):
		return r.viaTypes(limit, wl, []string{"--list-types"}, func(t string) []string { return []string{"--no-newline", "--type", t} }, []string{"--no-newline"})
	case xcErr == nil:
		sel := []string{"-selection", "clipboard"}
		return r.viaTypes(limit, xc, append(sel, "-t", "TARGETS", "-o"), func(t string) []string { return append(sel, "-t", t, "-o") }, append(sel, "-o"))
	}
	return nil, "", "", errors.New("ctrl+v reads the clipboard with wl-paste (Wayland) or xclip (X11), and neither is installed — install wl-clipboard or xclip (e.g. apt install wl-clipboard xclip)")
}

// viaTypes lists the clipboard's types with tool, and reads the best image
// type, else text.
func (r clipReader) viaTypes(limit int64, tool string, list []string, image func(string) []string, text []string) ([]byte, string, string, error) {
	types, err := r.run(tool, list, 64<<10)
	if err != nil {
		return nil, "", "", err
	}
	for _, t := range clipImageTypes {
		if !hasLine(string(types), t) {
			continue
		}
		data, err := r.run(tool, image(t), limit)
		if err != nil {
			return nil, "", "", err
		}
		return checkImage(data, t)
	}
	out, err := r.run(tool, text, limit)
	return nil, "", string(out), err
}

// mac reads an image with osascript («class PNGf», as hex), else text with
// pbpaste.
func (r clipReader) mac(limit int64) ([]byte, string, string, error) {
	osa, err := r.look("osascript")
	if err != nil {
		return nil, "", "", errors.New("ctrl+v reads images with osascript, which is not on PATH — it comes with macOS; check PATH")
	}
	if info, err := r.run(osa, []string{"-e", "clipboard info"}, 64<<10); err == nil && bytes.Contains(info, []byte("PNGf")) {
		out, err := r.run(osa, []string{"-e", "the clipboard as «class PNGf»"}, 2*limit+64)
		if err != nil {
			return nil, "", "", err
		}
		s := strings.TrimSpace(string(out))
		s = strings.TrimSuffix(strings.TrimPrefix(s, "«data PNGf"), "»")
		data, err := hex.DecodeString(s)
		if err != nil {
			return nil, "", "", errors.New("osascript gave the clipboard's image in a form runnel cannot read")
		}
		return checkImage(data, "image/png")
	}
	pb, err := r.look("pbpaste")
	if err != nil {
		return nil, "", "", err
	}
	out, err := r.run(pb, nil, limit)
	return nil, "", string(out), err
}

// windows reads an image as base64 PNG through PowerShell, else text.
func (r clipReader) windows(limit int64) ([]byte, string, string, error) {
	ps, err := r.look("powershell")
	if err != nil {
		return nil, "", "", errors.New("ctrl+v reads the clipboard with PowerShell, which is not on PATH — install it or add it to PATH")
	}
	const script = "Add-Type -AssemblyName System.Windows.Forms; $i=[System.Windows.Forms.Clipboard]::GetImage(); " +
		"if ($i) { $m=New-Object IO.MemoryStream; $i.Save($m,[System.Drawing.Imaging.ImageFormat]::Png); 'IMG:'+[Convert]::ToBase64String($m.ToArray()) } " +
		"else { 'TXT:'+(Get-Clipboard -Raw) }"
	out, err := r.run(ps, []string{"-NoProfile", "-NonInteractive", "-Command", script}, limit*4/3+64)
	if err != nil {
		return nil, "", "", err
	}
	s := strings.TrimRight(string(out), "\r\n")
	if b64, ok := strings.CutPrefix(s, "IMG:"); ok {
		data, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, "", "", errors.New("PowerShell gave the clipboard's image in a form runnel cannot read")
		}
		return checkImage(data, "image/png")
	}
	return nil, "", strings.TrimPrefix(s, "TXT:"), nil
}

// checkImage confirms data is an image of the type asked for.
func checkImage(data []byte, mime string) ([]byte, string, string, error) {
	if got := http.DetectContentType(data); got != mime {
		return nil, "", "", fmt.Errorf("the clipboard said %s but held %s — nothing attached", mime, got)
	}
	return data, mime, "", nil
}

// run runs a tool and returns its stdout, at most limit bytes (more is an
// error naming the limit), within clipTimeout.
func (r clipReader) run(tool string, args []string, limit int64) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), clipTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, args...)
	cmd.Env = tools.ChildEnv(r.hidden)
	cmd.WaitDelay = time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("could not run %s: %v", filepath.Base(tool), err)
	}
	data, _ := io.ReadAll(io.LimitReader(out, limit+1))
	if int64(len(data)) > limit {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("the clipboard holds more than %s — over the limit of %s per file ([attachments] max_file_mib)", attach.Size(limit), attach.Size(limit))
	}
	err = cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%s did not answer in %s", filepath.Base(tool), clipTimeout)
	case err != nil && len(data) == 0:
		return nil, fmt.Errorf("the clipboard is empty or holds nothing %s can give (%v)", filepath.Base(tool), err)
	}
	return data, nil
}

// look finds a tool on the reader's PATH.
func (r clipReader) look(name string) (string, error) {
	if r.path == "" {
		return exec.LookPath(name)
	}
	for _, dir := range filepath.SplitList(r.path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// hasLine reports whether s has line as one of its lines.
func hasLine(s, line string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}

// clipPasted takes what ctrl+v read: an image joins the chips, text is
// pasted; what happened, or why nothing did, is a hint.
func (c *Composer) clipPasted(msg clipPastedMsg) tea.Cmd {
	switch {
	case msg.err != nil:
		return hint(true, msg.err.Error())
	case msg.file != nil:
		if err := c.att.add(msg.file); err != nil {
			return hint(true, err.Error())
		}
		return hint(false, "attached "+msg.file.Name+" ("+attach.Size(msg.file.Size)+") from the clipboard — backspace in an empty composer removes it")
	case msg.text == "":
		return hint(true, "the clipboard is empty")
	}
	return c.update(tea.PasteMsg{Content: msg.text})
}
