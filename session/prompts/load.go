package prompts

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"runnel/session/regfile"
)

// maxFile bounds one prompt file.
const maxFile = 1 << 20

// GlobalDir is the prompts directory beside the config file at configPath.
func GlobalDir(configPath string) string {
	if configPath == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(configPath), "prompts")
}

// ProjectDir is the project prompts directory of the working directory wd
// (only wd itself is looked at, not its parents).
func ProjectDir(wd string) string {
	if wd == "" {
		return ""
	}
	return filepath.Join(wd, ".runnel", "prompts")
}

// files lists the *.md regular files of dir, sorted; a missing dir has
// none.
func files(dir string) ([]string, error) {
	if dir == "" {
		return nil, nil
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".md") && e.Type().IsRegular() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// ReadDir reads the prompt files of dir, in name order: the prompts, and one
// error for each file that is skipped. A missing directory has none.
func ReadDir(dir string, project bool) ([]Prompt, []error) {
	paths, err := files(dir)
	if err != nil {
		return nil, []error{&Error{Path: dir, Msg: "cannot read the prompts directory: " + err.Error()}}
	}
	var out []Prompt
	var probs []error
	for _, path := range paths {
		data, err := regfile.ReadFile(path, maxFile)
		if err != nil {
			probs = append(probs, &Error{Path: path, Msg: "cannot read it: " + err.Error()})
			continue
		}
		p, err := Parse(path, data)
		if err != nil {
			probs = append(probs, err)
			continue
		}
		p.Project = project
		out = append(out, p)
	}
	return out, probs
}

// Library is the prompts of a run.
//
// Invariants:
//   - Prompts holds at most one prompt of a name: a project prompt, once
//     allowed, takes the place of a global one of its name.
//   - Waiting is empty unless Project is set and not Allowed.
type Library struct {
	Prompts  []Prompt // usable now, by name
	Problems []error  // the files skipped, one line each
	Project  string   // the project's prompts directory, "" when it has none
	Allowed  bool     // the project directory is allowed with its files as they are
	Waiting  []Prompt // the project's prompts while it is not allowed
}

// Open reads the global prompts directory and the project's; the project's
// prompts are usable only when trust allows its directory as it is now.
func Open(global, project string, trust Trust) Library {
	var l Library
	l.Prompts, l.Problems = ReadDir(global, false)
	proj, probs := ReadDir(project, true)
	if len(proj) == 0 && len(probs) == 0 {
		return l
	}
	l.Project = project
	l.Allowed = trust.Allowed(project)
	if !l.Allowed {
		l.Waiting = proj // its files' problems wait too: they may be anything
		return l
	}
	l.Problems = append(l.Problems, probs...)
	l.use(proj)
	return l
}

// use adds project prompts, each replacing a global one of its name.
func (l *Library) use(proj []Prompt) {
	for _, p := range proj {
		replaced := false
		for i := range l.Prompts {
			if l.Prompts[i].Name == p.Name {
				l.Prompts[i], replaced = p, true
			}
		}
		if !replaced {
			l.Prompts = append(l.Prompts, p)
		}
	}
	sort.SliceStable(l.Prompts, func(i, j int) bool { return l.Prompts[i].Name < l.Prompts[j].Name })
}

// Allow remembers the project directory as it is now and makes its prompts
// usable.
func (l *Library) Allow(trust Trust) error {
	if l.Project == "" {
		return errors.New("there are no project prompts here (.runnel/prompts in the working directory)")
	}
	if err := trust.Allow(l.Project); err != nil {
		return err
	}
	proj, probs := ReadDir(l.Project, true)
	l.Problems = append(l.Problems, probs...)
	l.use(proj)
	l.Allowed, l.Waiting = true, nil
	return nil
}

// Find returns the usable prompt called name.
func (l Library) Find(name string) (Prompt, bool) {
	for _, p := range l.Prompts {
		if p.Name == name {
			return p, true
		}
	}
	return Prompt{}, false
}

// Waits returns the project prompt called name that waits to be allowed.
func (l Library) Waits(name string) (Prompt, bool) {
	for _, p := range l.Waiting {
		if p.Name == name {
			return p, true
		}
	}
	return Prompt{}, false
}
