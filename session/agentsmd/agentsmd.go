// Package agentsmd finds the AGENTS.md files that add to a session's
// instructions: the user's own, in the config directory, which applies
// everywhere, and the project's, in the working directory and each parent
// up to the repository's root (the nearest directory holding .git; without
// one, the working directory alone).
//
// A project's files are the repository's words, not the user's: they are
// used only once the user has allowed each with its contents as they are
// (see Trust, which remembers a hash of each file, so a changed file asks
// again). The user's own file needs no allowing.
//
// It reads files (bounded, regular files only) and joins their text; it
// asks nothing and sends nothing.
package agentsmd

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"runnel/session/regfile"
	"runnel/stream"
)

// Name is the file's name.
const Name = "AGENTS.md"

// MaxFile bounds one AGENTS.md file; a larger one is skipped with one line.
const MaxFile = 64 << 10

// maxDepth bounds the walk up from the working directory.
const maxDepth = 32

// File is one AGENTS.md.
type File struct {
	Path string // absolute
	Text string
	Hash string // "sha256:…" of the contents: what allowing it remembers
	User bool   // the user's own, in the config directory
}

// Found is what Find found.
//
// Invariants: Project is in order from the outermost directory to the
// working directory; Problems holds one line per file that could not be
// used.
type Found struct {
	User     *File
	Project  []File
	Problems []error
}

// Find reads the user's AGENTS.md in configDir ("" for none) and the
// project's, from wd up to its repository's root.
func Find(wd, configDir string) Found {
	var f Found
	if configDir != "" {
		if file, err := read(filepath.Join(configDir, Name)); err != nil {
			f.Problems = append(f.Problems, err)
		} else if file != nil {
			file.User = true
			f.User = file
		}
	}
	for _, dir := range projectDirs(wd) {
		file, err := read(filepath.Join(dir, Name))
		switch {
		case err != nil:
			f.Problems = append(f.Problems, err)
		case file != nil && (f.User == nil || file.Path != f.User.Path):
			f.Project = append(f.Project, *file)
		}
	}
	return f
}

// projectDirs are wd and its parents up to the repository's root,
// outermost first; wd alone outside a repository.
func projectDirs(wd string) []string {
	if wd == "" {
		return nil
	}
	abs, err := filepath.Abs(wd)
	if err != nil {
		return nil
	}
	var up []string
	for dir, i := abs, 0; i < maxDepth; i++ {
		up = append(up, dir)
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir { // no repository above: the working directory alone
			up = up[:1]
			break
		}
		dir = parent
	}
	if len(up) == maxDepth {
		up = up[:1]
	}
	out := make([]string, len(up))
	for i, d := range up {
		out[len(up)-1-i] = d
	}
	return out
}

// read reads one AGENTS.md: nil and no error when there is none.
func read(path string) (*File, error) {
	data, err := regfile.ReadFile(path, MaxFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%s: not used: %s — fix or remove it (at most %d KiB, a regular file)", stream.SanitizeLine(path), stream.SanitizeLine(err.Error()), MaxFile>>10)
	}
	sum := sha256.Sum256(data)
	return &File{Path: path, Text: strings.TrimSpace(stream.Sanitize(string(data))), Hash: "sha256:" + hex.EncodeToString(sum[:])}, nil
}

// Instructions joins files' text into what follows the configured
// instructions: each under a line naming it.
func Instructions(files []File) string {
	var b strings.Builder
	for _, f := range files {
		if f.Text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "Instructions from %s:\n\n%s", f.Path, f.Text)
	}
	return b.String()
}
