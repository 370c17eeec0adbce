package prompts

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"runnel/session/regfile"
)

// WarnedFile is the name of the file, in the data directory beside
// TrustFile, that remembers the prompt files already warned about, each
// with a hash of what it held then.
const WarnedFile = "prompts-warned.json"

// maxWarned bounds how many files WarnedFile remembers.
const maxWarned = 512

// Warned remembers which bad prompt files were warned about, so that a bad
// file is said once per change rather than at every start and every -p.
// The file is written with mode 0600 and read bounded; an unreadable or
// damaged one is treated as empty (a warning too many, never one lost).
type Warned struct {
	Path string // "": nothing is remembered and every problem is fresh
}

// Fresh returns the problems to say now: those of files (an *Error's Path)
// not warned about as they are now, and every problem that names no file.
// It remembers the files it returns.
func (w Warned) Fresh(problems []error) []error {
	if w.Path == "" || len(problems) == 0 {
		return problems
	}
	seen := w.read()
	var fresh []error
	changed := false
	for _, p := range problems {
		var e *Error
		if !errors.As(p, &e) || e.Path == "" {
			fresh = append(fresh, p)
			continue
		}
		key, _ := filepath.Abs(e.Path)
		h := fileHash(e.Path, p)
		if seen[key] == h {
			continue
		}
		fresh = append(fresh, p)
		if len(seen) >= maxWarned {
			clear(seen)
		}
		seen[key], changed = h, true
	}
	if changed {
		w.write(seen)
	}
	return fresh
}

// fileHash is a digest of path's contents (bounded), or of the problem
// when it cannot be read.
func fileHash(path string, p error) string {
	data, err := regfile.ReadFile(path, maxFile)
	if err != nil {
		data = []byte("unreadable\x00" + p.Error())
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (w Warned) read() map[string]string {
	seen := map[string]string{}
	data, err := regfile.ReadFile(w.Path, maxFile)
	if err == nil {
		_ = json.Unmarshal(data, &seen)
	}
	if seen == nil {
		seen = map[string]string{}
	}
	return seen
}

// write saves what was warned about; a failure only means a warning may
// come again.
func (w Warned) write(seen map[string]string) {
	data, err := json.MarshalIndent(seen, "", "  ")
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(w.Path), 0o700) != nil {
		return
	}
	_ = regfile.WritePrivate(w.Path, append(data, '\n'))
}
