package prompts

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"runnel/session/regfile"
)

// TrustFile is the name of the file, in the data directory, that remembers
// the project prompt directories the user allowed.
const TrustFile = "prompts-allowed.json"

// Trust remembers the project prompt directories the user allowed, each
// with a hash of its prompt files, and the project files of other kinds
// (AGENTS.md) with a hash of each: a directory or file that changed since
// is not allowed any more. The file is written with mode 0600.
type Trust struct {
	Path string // "": nothing is remembered and nothing is allowed
}

// trusted is the file's contents: directory → hash.
type trusted struct {
	Dirs map[string]string `json:"dirs"`
}

// Hash is a digest of dir's prompt files: their names and contents.
func Hash(dir string) (string, error) {
	paths, err := files(dir)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, p := range paths {
		data, err := regfile.ReadFile(p, maxFile)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%s\x00", filepath.Base(p), strconv.Itoa(len(data)))
		h.Write(data)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

func (t Trust) read() (trusted, error) {
	var tr trusted
	data, err := regfile.ReadFile(t.Path, maxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return trusted{Dirs: map[string]string{}}, nil
	}
	if err != nil {
		return tr, err
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		return tr, fmt.Errorf("%s: %v — remove it to allow project prompts again", t.Path, err)
	}
	if tr.Dirs == nil {
		tr.Dirs = map[string]string{}
	}
	return tr, nil
}

// Allowed reports whether dir was allowed with the files it holds now.
func (t Trust) Allowed(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	h, err := Hash(dir)
	return err == nil && t.Remembers(abs, h)
}

// Allow remembers dir with the files it holds now.
func (t Trust) Allow(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	h, err := Hash(dir)
	if err != nil {
		return err
	}
	return t.Remember(map[string]string{abs: h})
}

// Remembers reports whether key (an absolute path: a prompts directory, or
// a file such as a project's AGENTS.md) was allowed with this hash of its
// contents.
func (t Trust) Remembers(key, hash string) bool {
	if t.Path == "" {
		return false
	}
	tr, err := t.read()
	return err == nil && tr.Dirs[key] == hash
}

// Remember allows each key (an absolute path) with the hash of its
// contents, in one write.
func (t Trust) Remember(hashes map[string]string) error {
	if t.Path == "" {
		return errors.New("no data directory to remember what you allowed in (set XDG_DATA_HOME or --data-dir)")
	}
	tr, err := t.read()
	if err != nil {
		return err
	}
	for k, h := range hashes {
		tr.Dirs[k] = h
	}
	data, err := json.MarshalIndent(tr, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(t.Path), 0o700); err != nil {
		return err
	}
	return regfile.WritePrivate(t.Path, append(data, '\n'))
}
