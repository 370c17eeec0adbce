package images

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"runnel/stream"
)

// Sink takes generated images.
type Sink interface {
	// WriteImage stores data under a name like the one given (a file-safe
	// base name with its extension) and returns where it went.
	WriteImage(name string, data []byte) (path string, err error)
}

// Off is a Sink that writes nothing: its text says why (shown in the image
// panel). Its WriteImage returns Off itself as the error.
type Off string

// WriteImage writes nothing and returns o.
func (o Off) WriteImage(string, []byte) (string, error) { return "", o }

func (o Off) Error() string { return string(o) }

// Write decodes base64 image data and hands it to s under name; an Off sink
// returns its reason without decoding anything.
func Write(s Sink, name, b64 string) (string, error) {
	if off, ok := s.(Off); ok {
		return "", off
	}
	raw, err := Decode(b64)
	if err != nil {
		return "", fmt.Errorf("cannot save image %s: its data is not base64 (%v)", name, err)
	}
	return s.WriteImage(name, raw)
}

// FileName is the file name of an image of an image generation call: its
// item id made file-safe, "-partial-N" for a partial image (key
// "partial-N"; "final" adds nothing), and the extension of its
// output_format (png when unknown).
func FileName(id, key, format string) string {
	name := fileSafe(id)
	if key != "final" {
		name += "-" + fileSafe(key)
	}
	return name + "." + ext(format)
}

// Decode decodes an image's base64 data, padded or not.
func Decode(data string) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(data))
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(strings.TrimSpace(data), "="))
	}
	return raw, err
}

// Final returns the file name and base64 data of a finished image
// generation call's result; ok is false for any other item, or one without
// a result.
func Final(it *stream.Item) (name, data string, ok bool) {
	if it == nil || it.Type != "image_generation_call" || !it.Done {
		return "", "", false
	}
	var f struct {
		ID     string `json:"id"`
		Result string `json:"result"`
		Format string `json:"output_format"`
	}
	if json.Unmarshal(it.JSON(), &f) != nil || f.Result == "" {
		return "", "", false
	}
	if f.ID == "" {
		f.ID = it.ID
	}
	return FileName(f.ID, "final", f.Format), f.Result, true
}

// fileSafe keeps letters, digits, '-' and '_' of an id (at most 100 bytes),
// so it can name a file.
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

func ext(format string) string {
	switch format {
	case "png", "webp", "jpeg", "gif":
		return format
	case "jpg":
		return "jpeg"
	}
	return "png"
}

// numbered is name with "-n" before its extension.
func numbered(name string, n int) string {
	base, ext, _ := strings.Cut(name, ".")
	return base + "-" + strconv.Itoa(n) + "." + ext
}

// InDataDir is where generated images go for a history database at dbPath:
// its folder's images/ when asked, else nowhere, with the panel saying how
// to ask. dbErr is why there is no data directory, if there is none.
func InDataDir(dbPath string, dbErr error, asked bool) Sink {
	if dbErr != nil {
		return Off("no data directory (" + stream.SanitizeLine(dbErr.Error()) + ")")
	}
	dir := filepath.Join(filepath.Dir(dbPath), "images")
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // the panel shows where the file is from anywhere
	}
	if !asked {
		return Off("run with --save-images to write it to " + dir)
	}
	return NewDir(dir)
}
