package session

// This file is /export: the journal's session written to a file, once
// every write queued before it is done.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"runnel/session/export"
	"runnel/session/regfile"
)

// ErrNothingToExport is Export's error for a session with no turn written.
var ErrNothingToExport = errors.New("nothing to export yet: send a message first")

// Export writes the session as markdown, json or html (the formats of
// `runnel sessions export`; html in the look st) to path, or, when path is
// "", to a new file in dir named from the session's title
// ("fix-the-retry-loop.md"; "-2", "-3", … when taken). It runs after the writes queued before it and sends the path
// written, or the error, on the channel it returns. The file is private
// (0600); what the store holds is already free of secrets.
func (j *Journal) Export(format, path, dir string, st export.Style) <-chan ExportResult {
	done := make(chan ExportResult, 1)
	j.closeMu.RLock()
	closed := j.closed
	j.closeMu.RUnlock()
	if closed {
		done <- ExportResult{Err: errors.New("the history is closed")}
		return done
	}
	j.enqueue(func() {
		p, err := j.export(format, path, dir, st)
		done <- ExportResult{Path: p, Err: err}
	})
	return done
}

// ExportResult is where Export wrote, or why it did not.
type ExportResult struct {
	Path string
	Err  error
}

func (j *Journal) export(format, path, dir string, st export.Style) (string, error) {
	sid := j.ID()
	if sid == "" {
		return "", ErrNothingToExport
	}
	var data []byte
	var title string
	if format == "json" {
		f, err := j.db.Export(sid)
		if err != nil {
			return "", err
		}
		data = f.Data
		if s, _, err := j.db.Load(sid); err == nil {
			title = s.Info.Title
		}
	} else {
		s, _, err := j.db.Load(sid)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		if format == "html" {
			export.HTML(&b, s, st) // a strings.Builder does not fail
		} else {
			export.Markdown(&b, s)
		}
		data, title = []byte(b.String()), s.Info.Title
	}
	if path != "" { // as `runnel sessions export -o` writes it
		return path, regfile.WritePrivate(path, data)
	}
	ext := ".md"
	switch format {
	case "json":
		ext = ".json"
	case "html":
		ext = ".html"
	}
	base := filepath.Join(dir, FileName(title, string(sid)))
	for n := 1; n < 1000; n++ {
		p := base + ext
		if n > 1 {
			p = fmt.Sprintf("%s-%d%s", base, n, ext)
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return p, err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return p, err
	}
	return "", fmt.Errorf("%s%s and 998 more names are taken", base, ext)
}

// FileName makes a file name (no extension) from a session title: its
// ASCII letters and digits in lower case, runs of anything else as one "-",
// at most 60 bytes; "runnel-" + fallback when nothing is left.
func FileName(title, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		switch {
		case ok && b.Len() < 60:
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		case !ok:
			dash = true
		}
	}
	if b.Len() == 0 {
		return "runnel-" + fallback
	}
	return b.String()
}
