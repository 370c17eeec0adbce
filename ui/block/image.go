package block

import (
	"cmp"
	"errors"
	"strconv"
	"strings"

	"runnel/session/images"
)

// ImageFile is the result of one image write: which image (Key: "partial-N"
// or "final"), where it went, and the error if it did not.
type ImageFile struct {
	Key  string
	Path string
	Err  error

	// Data is the image's base64 data, for the caller to show inline
	// (ui/graphics); it is dropped once the panel has the result.
	Data string
	// Inline are the rows that draw the image in the terminal (kitty
	// placeholders, ui/graphics), nil when it is not shown inline; Note
	// says why it is not where one might expect it ("" for none).
	Inline []string
	Note   string
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

// SaveImage returns a function that hands the newest image this panel has
// not handed out yet to dst: the final result once the item is done, else
// the latest partial image. It returns nil when there is nothing new. The
// function does the decoding and the write; run it off the UI goroutine and
// pass its result to ImageSaved. A nil dst writes nothing (images.Off).
func (p *panel) SaveImage(dst images.Sink) func() ImageFile {
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
	if dst == nil {
		dst = images.Off("images are not saved here")
	}
	name := images.FileName(p.it.ID, key, p.it.Details().OutputFormat)
	return func() ImageFile { return writeImage(key, name, data, dst) }
}

// ImageSaved records a write's result; the panel shows the path or the
// error.
func (p *panel) ImageSaved(f ImageFile) {
	f.Data = ""
	if f.Key == "final" {
		p.images.final = f
	} else {
		p.images.partial = f
	}
	p.rev++
}

// writeImage decodes base64 data and hands it to dst.
func writeImage(key, name, data string, dst images.Sink) ImageFile {
	f := ImageFile{Key: key, Data: data}
	f.Path, f.Err = images.Write(dst, name, data)
	return f
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
	shown := p.images.final
	if shown.Inline == nil {
		shown = p.images.partial
	}
	if shown.Inline != nil {
		d.add(section{lines: shown.Inline, whole: true})
	}
	if note := cmp.Or(p.images.final.Note, p.images.partial.Note); note != "" {
		d.line(d.lk.muted.Render(cleanLine(note)))
	}
	saidOff := false
	for _, f := range []ImageFile{p.images.partial, p.images.final} {
		var off images.Off
		switch {
		case f.Key == "":
		case errors.As(f.Err, &off):
			if !saidOff {
				d.line(d.lk.muted.Render("image not saved: " + cleanLine(off.Error())))
			}
			saidOff = true
		case f.Err != nil:
			d.line(d.lk.errorText.Render("image not saved: " + cleanLine(f.Err.Error())))
		case f.Key == "final":
			d.lineWhole(d.lk.muted.Render("image ") + f.Path)
		default:
			d.lineWhole(d.lk.muted.Render(strings.Replace(f.Key, "-", " image ", 1)+" ") + f.Path)
		}
	}
}
