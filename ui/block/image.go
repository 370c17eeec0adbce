package block

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ImageFile is the result of one image write: which image (Key: "partial-N"
// or "final"), where it went, and the error if it did not.
type ImageFile struct {
	Key  string
	Path string
	Err  error
}

// imageState tracks an image generation panel's files.
//
// Invariants: handed is the key of the newest image handed out by SaveImage
// ("" for none); partial and final are the last results received.
type imageState struct {
	handed  string
	partial ImageFile
	final   ImageFile
}

// imageDir is where generated images are written.
func imageDir() string { return filepath.Join(os.TempDir(), "runnel-images") }

// SaveImage returns a function that writes the newest image this panel has
// not handed out yet: the final result once the item is done, else the
// latest partial image. It returns nil when there is nothing new. The
// function does the decoding and the file write; run it off the UI
// goroutine and pass its result to ImageSaved.
func (p *panel) SaveImage() func() ImageFile {
	if p.it.Type != "image_generation_call" {
		return nil
	}
	key, data := "", ""
	if res := p.it.Details().Result; res != "" && p.state() != stateRunning {
		key, data = "final", res
	} else if p.it.PartialImages > 0 && p.it.LastImage != "" {
		key, data = "partial-"+strconv.Itoa(p.it.PartialImages), p.it.LastImage
	}
	if key == "" || key == p.images.handed {
		return nil
	}
	p.images.handed = key
	name := fileSafe(p.it.ID)
	if key != "final" {
		name += "-" + key
	}
	path := filepath.Join(imageDir(), name+"."+imageExt(p.it.Details().OutputFormat))
	return func() ImageFile { return writeImage(key, path, data) }
}

// ImageSaved records a write's result; the panel shows the path or the
// error.
func (p *panel) ImageSaved(f ImageFile) {
	if f.Key == "final" {
		p.images.final = f
	} else {
		p.images.partial = f
	}
	p.rev++
}

// writeImage decodes base64 data and writes it to path.
func writeImage(key, path, data string) ImageFile {
	f := ImageFile{Key: key, Path: path}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(data))
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(strings.TrimSpace(data), "="))
	}
	if err != nil {
		f.Err = fmt.Errorf("decode image %s: %w", key, err)
		return f
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		f.Err = fmt.Errorf("save image: %w", err)
		return f
	}
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		f.Err = fmt.Errorf("save image: %w", err)
	}
	return f
}

// fileSafe keeps letters, digits, '-' and '_' of an id, so it can name a file.
func fileSafe(id string) string {
	var b strings.Builder
	for _, r := range id {
		if b.Len() >= 100 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "image"
	}
	return b.String()
}

func imageExt(format string) string {
	switch format {
	case "png", "webp", "jpeg", "gif":
		return format
	case "jpg":
		return "jpeg"
	}
	return "png"
}

func imageBody(p *panel, d *drawer) {
	var facts []string
	x := p.it.Details()
	for _, v := range []string{x.Size, x.Quality, x.Background} {
		if v := cleanLine(v); v != "" {
			facts = append(facts, v)
		}
	}
	if n := p.it.PartialImages; n > 0 {
		facts = append(facts, plural(n, "partial image", "partial images"))
	}
	if len(facts) > 0 {
		d.line(d.lk.muted.Render(strings.Join(facts, " · ")))
	}
	if prompt := x.RevisedPrompt; prompt != "" {
		d.text("prompt", prompt, false)
	}
	for _, f := range []ImageFile{p.images.partial, p.images.final} {
		switch {
		case f.Key == "":
		case f.Err != nil:
			d.line(d.lk.errorText.Render("image not saved: " + cleanLine(f.Err.Error())))
		case f.Key == "final":
			d.line(d.lk.muted.Render("image ") + f.Path)
		default:
			d.line(d.lk.muted.Render(strings.Replace(f.Key, "-", " image ", 1)+" ") + f.Path)
		}
	}
}
