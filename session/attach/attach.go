package attach

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"runnel/session/regfile"
)

// Kind is how a file is sent.
type Kind string

// Kinds of attachment.
const (
	Image Kind = "image" // input_image, data URL
	PDF   Kind = "pdf"   // input_file, file_data data URL
	Text  Kind = "text"  // input_text headed by the path
)

// MiB is 1,048,576 bytes.
const MiB = 1 << 20

// Default limits.
const (
	DefaultMaxFile    = 20 * MiB
	DefaultMaxMessage = 50 * MiB
	DefaultDetail     = "auto"
)

// Limits bound what one message may attach. Zero fields take the defaults.
type Limits struct {
	MaxFile    int64  // bytes per file
	MaxMessage int64  // bytes per message, all files together
	Detail     string // input_image detail: auto, low or high
}

// FileLimit is the per-file limit in bytes.
func (l Limits) FileLimit() int64 {
	if l.MaxFile > 0 {
		return l.MaxFile
	}
	return DefaultMaxFile
}

// MessageLimit is the per-message limit in bytes.
func (l Limits) MessageLimit() int64 {
	if l.MaxMessage > 0 {
		return l.MaxMessage
	}
	return DefaultMaxMessage
}

func (l Limits) detail() string {
	if l.Detail != "" {
		return l.Detail
	}
	return DefaultDetail
}

// File is one checked attachment. Data is nil until Load reads it.
//
// Invariants: Size ≤ the per-file limit it was checked against; Kind and MIME
// come from the file's content; after Load, len(Data) == Size.
type File struct {
	Path string // as the user gave it (cleaned), shown, and read
	Name string // base name, for chips
	Sent string // the name the model sees (SentName): never a local path outside the working directory
	Kind Kind
	MIME string
	Size int64
	Data []byte
}

// Error is a file that cannot be attached, one line: what and what to do.
type Error struct{ Path, Problem string }

func (e *Error) Error() string { return fmt.Sprintf("cannot attach %s: %s", e.Path, e.Problem) }

func fail(path, format string, a ...any) error {
	return &Error{Path: path, Problem: fmt.Sprintf(format, a...)}
}

// Check stats and sniffs path without reading it whole: a missing,
// unreadable or special file, a directory, a file over the limit or of an
// unsupported type is an *Error.
func Check(path string, lim Limits) (*File, error) {
	path = Expand(path)
	if path == "" {
		return nil, fail(`""`, "no path given")
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fail(path, "no such file")
	case err != nil:
		return nil, fail(path, "unreadable (%s)", reason(err))
	case fi.IsDir():
		return nil, fail(path, "is a directory — attach the files in it one by one")
	case !fi.Mode().IsRegular():
		return nil, fail(path, "not a regular file")
	case fi.Size() > lim.FileLimit():
		return nil, fail(path, "too big (%s; the limit is %s per file, [attachments] max_file_mib)", sizeOver(fi.Size(), lim.FileLimit()), Size(lim.FileLimit()))
	}
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fail(path, "unreadable (%s)", reason(err))
	}
	kind, mime := sniff(head[:n], n < len(head))
	if kind == "" {
		return nil, fail(path, "unsupported type (%s) — images (png, jpeg, webp, gif), PDFs and UTF-8 text can be attached", mime)
	}
	wd, _ := os.Getwd()
	return &File{Path: path, Name: filepath.Base(path), Sent: SentName(path, wd), Kind: kind, MIME: mime, Size: fi.Size()}, nil
}

// SentName is the name a file goes to the model under: its path relative
// to dir (the working directory) when it lies inside it, else its base
// name. No local path outside dir leaves the machine: a dropped
// /home/me/shots/a.png goes as "a.png", an @src/main.go as "src/main.go".
// With dir "" a relative path that stays below "." is kept.
func SentName(path, dir string) string {
	path = filepath.Clean(path)
	base := filepath.Base(path)
	if dir != "" {
		abs := path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, abs)
		}
		rel, err := filepath.Rel(filepath.Clean(dir), abs)
		if err != nil || !filepath.IsLocal(rel) {
			return base
		}
		return filepath.ToSlash(rel)
	}
	if !filepath.IsLocal(path) {
		return base
	}
	return filepath.ToSlash(path)
}

// sentName is f's name for the model: Sent, or, for a file made elsewhere
// (given back from a stored message), what SentName keeps of its path.
func (f *File) sentName() string {
	if f.Sent != "" {
		return f.Sent
	}
	return SentName(f.Path, "")
}

// open opens a file to attach: a regular file only, without waiting on a
// FIFO that replaced it since it was checked (regfile.Open).
func open(path string) (*os.File, error) {
	f, _, err := regfile.Open(path)
	var nr *regfile.NotRegularError
	switch {
	case errors.As(err, &nr):
		return nil, fail(path, "not a regular file (it is %s now)", regfile.Describe(nr.Mode))
	case err != nil:
		return nil, fail(path, "unreadable (%s)", reason(err))
	}
	return f, nil
}

// reason is the short cause of a file error, without the path repeated.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error()
}

// sniff tells the kind from a file's first bytes (all of it when whole).
func sniff(head []byte, whole bool) (Kind, string) {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return Image, "image/png"
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return Image, "image/jpeg"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return Image, "image/gif"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return Image, "image/webp"
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return PDF, "application/pdf"
	}
	if isText(head, whole) {
		return Text, "text/plain"
	}
	return "", http.DetectContentType(head)
}

// isText: UTF-8 without control bytes other than tab, line and page breaks
// and escape (logs with colours); a rune cut at the end of a partial head
// does not count against it.
func isText(b []byte, whole bool) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b || c == 0x7f {
			return false
		}
	}
	if !whole {
		for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
			b = b[:len(b)-1]
		}
	}
	return utf8.Valid(b)
}

// Load checks every path, then the message total, then reads them all: it
// returns every file or the first problem, never some of them. redact, when
// not nil, hides known secrets in text files before they are sent or stored.
func Load(paths []string, lim Limits, redact func(string) string) ([]*File, error) {
	var files []*File
	for _, p := range paths {
		f, err := Check(p, lim)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return Read(files, lim, redact)
}

// CheckAll checks every path (see Check) and their total against the
// per-message limit, reading none of them whole.
func CheckAll(paths []string, lim Limits) error {
	var total int64
	for _, p := range paths {
		f, err := Check(p, lim)
		if err != nil {
			return err
		}
		total += f.Size
	}
	if total > lim.MessageLimit() {
		return fmt.Errorf("cannot attach %d files: %s together, over the limit of %s per message ([attachments] max_message_mib)", len(paths), sizeOver(total, lim.MessageLimit()), Size(lim.MessageLimit()))
	}
	return nil
}

// CheckTotal checks files against the per-message limit.
func CheckTotal(files []*File, lim Limits) error {
	var total int64
	for _, f := range files {
		total += f.Size
	}
	if total > lim.MessageLimit() {
		return fmt.Errorf("cannot attach %d files: %s together, over the limit of %s per message ([attachments] max_message_mib)", len(files), sizeOver(total, lim.MessageLimit()), Size(lim.MessageLimit()))
	}
	return nil
}

// Read reads checked files whole (copies: files are not changed), checking
// the message total first and each file again: all of them or an error.
func Read(files []*File, lim Limits, redact func(string) string) ([]*File, error) {
	if err := CheckTotal(files, lim); err != nil {
		return nil, err
	}
	out := make([]*File, 0, len(files))
	for _, f := range files {
		c := *f
		if err := c.read(lim, redact); err != nil {
			return nil, err
		}
		out = append(out, &c)
	}
	return out, nil
}

// read fills Data, checking again what may have changed since Check.
func (f *File) read(lim Limits, redact func(string) string) error {
	r, err := open(f.Path)
	if err != nil {
		return err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, lim.FileLimit()+1))
	if err != nil {
		return fail(f.Path, "unreadable (%s)", reason(err))
	}
	if int64(len(data)) > lim.FileLimit() {
		return fail(f.Path, "too big (it grew past %s while being read)", Size(lim.FileLimit()))
	}
	if k, _ := sniff(data, true); k != f.Kind {
		return fail(f.Path, "changed while being read — try again")
	}
	if f.Kind == Text && redact != nil {
		data = []byte(redact(string(data)))
	}
	f.Data, f.Size = data, int64(len(data))
	return nil
}

// Size is a byte count for people: 812 B, 4.1 KiB, 20 MiB.
func Size(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < MiB:
		return trim(fmt.Sprintf("%.1f", float64(n)/1024)) + " KiB"
	case n < 1<<30:
		return trim(fmt.Sprintf("%.1f", float64(n)/MiB)) + " MiB"
	}
	return trim(fmt.Sprintf("%.1f", float64(n)/(1<<30))) + " GiB"
}

// sizeOver is n for a message saying it is over limit: in bytes when the
// rounded sizes would look equal.
func sizeOver(n, limit int64) string {
	if Size(n) == Size(limit) {
		return fmt.Sprintf("%d bytes", n)
	}
	return Size(n)
}

func trim(s string) string { return strings.TrimSuffix(s, ".0") }

// Message is the user message item sending text and files, the text first.
// With no files it is the plain text message (stream.UserText's shape).
func Message(text string, files []*File, lim Limits) json.RawMessage {
	type part map[string]string
	parts := []part{}
	if text != "" || len(files) == 0 {
		parts = append(parts, part{"type": "input_text", "text": text})
	}
	for _, f := range files {
		switch f.Kind {
		case Image: // named first: the model can tell which image the text means
			parts = append(parts, part{"type": "input_text", "text": ImageLabel(f.sentName())},
				part{"type": "input_image", "image_url": dataURL(f.MIME, f.Data), "detail": lim.detail()})
		case PDF:
			parts = append(parts, part{"type": "input_file", "filename": f.Name, "file_data": dataURL(f.MIME, f.Data)})
		case Text:
			parts = append(parts, part{"type": "input_text", "text": TextPart(f.sentName(), string(f.Data))})
		}
	}
	b, _ := json.Marshal(map[string]any{"type": "message", "role": "user", "content": parts})
	return b
}

func dataURL(mime string, data []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}
