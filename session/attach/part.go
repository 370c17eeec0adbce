package attach

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strings"
)

// A text file is sent as one input_text part:
//
//	<file path="notes/todo.md">
//	…the file's text…
//	</file>
//
// The tags say where the file starts and ends and which name it had: its
// path relative to the working directory, or its base name when it lies
// outside (File.Sent, SentName), never a local absolute path.

const (
	textOpen  = `<file path="`
	textClose = "\n</file>"
)

var pathEscaper = strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", "\n", " ", "\r", " ")
var pathUnescaper = strings.NewReplacer("&quot;", `"`, "&amp;", `&`)

// TextPart is the input_text of a text file.
func TextPart(path, text string) string {
	return textOpen + pathEscaper.Replace(path) + "\">\n" + text + textClose
}

// ParseTextPart splits an input_text made by TextPart into the path and the
// file's text; ok is false for any other text.
func ParseTextPart(s string) (path, text string, ok bool) {
	if !strings.HasPrefix(s, textOpen) || !strings.HasSuffix(s, textClose) {
		return "", "", false
	}
	head, body, found := strings.Cut(s[len(textOpen):len(s)-len(textClose)+1], "\">\n")
	if !found || strings.Contains(head, "\n") {
		return "", "", false
	}
	return pathUnescaper.Replace(head), strings.TrimSuffix(body, "\n"), true
}

// An image is sent as two parts: an input_text naming it (as a text file is
// named), <image path="shot.png">, then the input_image (data URLs carry no
// name).
const imageOpen = `<image path="`

// ImageLabel is the input_text naming the image that follows it.
func ImageLabel(path string) string { return imageOpen + pathEscaper.Replace(path) + `">` }

// parseImageLabel returns the path an ImageLabel names.
func parseImageLabel(s string) (string, bool) {
	if !strings.HasPrefix(s, imageOpen) || !strings.HasSuffix(s, `">`) || strings.Contains(s, "\n") {
		return "", false
	}
	return pathUnescaper.Replace(s[len(imageOpen) : len(s)-2]), true
}

// Meta is what the transcript shows of an attachment sent.
type Meta struct {
	Name string
	Kind Kind
	Size int64
}

// Label is the chip text: name and size.
func (m Meta) Label() string { return m.Name + " · " + Size(m.Size) }

// Metas is what chips show of checked files.
func Metas(files []*File) []Meta {
	out := make([]Meta, 0, len(files))
	for _, f := range files {
		out = append(out, Meta{Name: f.Name, Kind: f.Kind, Size: f.Size})
	}
	return out
}

// part is one content part of a user message input item, as far as
// attachments read it.
type part struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL string `json:"image_url"`
	FileData string `json:"file_data"`
	Filename string `json:"filename"`
}

// eachPart calls f for each part of the last user message among input (a
// stopped turn's message carried before it is not counted), in order, image
// labels left out: label is the path the ImageLabel just before the part
// named, "" when there was none.
func eachPart(input []json.RawMessage, f func(p part, label string)) {
	var last []part
	for _, raw := range input {
		var m struct {
			Type    string `json:"type"`
			Role    string `json:"role"`
			Content []part `json:"content"`
		}
		if !bytes.Contains(raw, []byte(`"user"`)) || json.Unmarshal(raw, &m) != nil || m.Role != "user" || (m.Type != "" && m.Type != "message") {
			continue
		}
		last = m.Content
	}
	label := ""
	for _, p := range last {
		name := label
		label = ""
		if p.Type == "input_text" {
			if path, ok := parseImageLabel(p.Text); ok {
				label = path
				continue
			}
		}
		f(p, name)
	}
}

// FromInput returns the attachments of the last user message among input
// items, in order: what a turn sent besides its text (a stopped turn's
// message carried before it is not counted).
func FromInput(input []json.RawMessage) []Meta {
	var out []Meta
	eachPart(input, func(p part, label string) {
		switch p.Type {
		case "input_text":
			if path, text, ok := ParseTextPart(p.Text); ok {
				out = append(out, Meta{Name: filepath.Base(path), Kind: Text, Size: int64(len(text))})
			}
		case "input_image":
			name := imageName(p.ImageURL)
			if label != "" {
				name = filepath.Base(label)
			}
			out = append(out, Meta{Name: name, Kind: Image, Size: dataSize(p.ImageURL)})
		case "input_file":
			name := p.Filename
			if name == "" {
				name = "file"
			}
			out = append(out, Meta{Name: filepath.Base(name), Kind: PDF, Size: dataSize(p.FileData)})
		}
	})
	return out
}

// imageName names an image part: data URLs carry no name, so its type.
func imageName(url string) string {
	if mime, _, ok := strings.Cut(strings.TrimPrefix(url, "data:"), ";"); ok && strings.HasPrefix(url, "data:") {
		return strings.Replace(mime, "/", " ", 1)
	}
	return "image"
}

// dataSize is the decoded size of a base64 data URL (0 for other URLs).
func dataSize(url string) int64 {
	if !strings.HasPrefix(url, "data:") {
		return 0
	}
	_, b64, ok := strings.Cut(url, ";base64,")
	if !ok {
		return 0
	}
	return int64(base64.StdEncoding.DecodedLen(len(b64)) - strings.Count(b64[max(0, len(b64)-2):], "="))
}

// FilesFromInput gives back, read, the files the last user message among
// input sent: for a prompt edited again (a fork), which keeps its chips.
// Parts that do not decode are left out.
func FilesFromInput(input []json.RawMessage) []*File {
	var out []*File
	eachPart(input, func(p part, path string) {
		switch p.Type {
		case "input_text":
			if fp, text, ok := ParseTextPart(p.Text); ok {
				out = append(out, &File{Path: fp, Name: filepath.Base(fp), Kind: Text, MIME: "text/plain", Size: int64(len(text)), Data: []byte(text)})
			}
		case "input_image":
			if mime, data, ok := decodeDataURL(p.ImageURL); ok {
				if path == "" {
					path = imageName(p.ImageURL)
				}
				out = append(out, &File{Path: path, Name: filepath.Base(path), Kind: Image, MIME: mime, Size: int64(len(data)), Data: data})
			}
		case "input_file":
			if mime, data, ok := decodeDataURL(p.FileData); ok {
				name := p.Filename
				if name == "" {
					name = "file.pdf"
				}
				out = append(out, &File{Path: name, Name: filepath.Base(name), Kind: PDF, MIME: mime, Size: int64(len(data)), Data: data})
			}
		}
	})
	return out
}

// decodeDataURL splits a base64 data URL into its type and bytes.
func decodeDataURL(url string) (string, []byte, bool) {
	rest, ok := strings.CutPrefix(url, "data:")
	if !ok {
		return "", nil, false
	}
	mime, b64, ok := strings.Cut(rest, ";base64,")
	if !ok {
		return "", nil, false
	}
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "", nil, false
	}
	return mime, data, true
}
