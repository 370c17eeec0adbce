package agentsmd

import (
	"runnel/session/prompts"
)

// Split parts the project's files into those trust allows as they are now
// and those waiting for the user's answer.
func (f Found) Split(trust prompts.Trust) (allowed, waiting []File) {
	for _, file := range f.Project {
		if trust.Remembers(file.Path, file.Hash) {
			allowed = append(allowed, file)
		} else {
			waiting = append(waiting, file)
		}
	}
	return allowed, waiting
}

// Allow remembers files with their contents as they are.
func Allow(trust prompts.Trust, files []File) error {
	if len(files) == 0 {
		return nil
	}
	hashes := make(map[string]string, len(files))
	for _, f := range files {
		hashes[f.Path] = f.Hash
	}
	return trust.Remember(hashes)
}

// Used is what a run adds to its instructions: the user's file, then the
// project's allowed ones, outermost first.
func (f Found) Used(allowed []File) []File {
	var out []File
	if f.User != nil {
		out = append(out, *f.User)
	}
	return append(out, allowed...)
}
