package main

// This file is `runnel prompts` (list the prompt files), `runnel prompts
// allow` (allow the working directory's project prompts) and -t NAME, which
// runs a prompt file with -p. Package session/prompts reads the files.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runnel/session/agentsmd"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"runnel/session"
	"runnel/session/config"
	"runnel/session/prompts"
	"runnel/stream"
	"runnel/ui"
)

// promptLibrary reads the prompt files for o: the config directory's
// prompts/, and the working directory's .runnel/prompts/ as the trust file
// in the data directory allows.
func promptLibrary(o options) (prompts.Library, prompts.Trust) {
	path := o.configPath
	if path == "" {
		path = config.DefaultConfigPath()
	}
	trust := projectTrust(o)
	project := ""
	if wd, _ := os.Getwd(); !o.noProject {
		project = prompts.ProjectDir(wd)
	}
	return prompts.Open(prompts.GlobalDir(path), project, trust), trust
}

// projectTrust is where what the user allowed of a project is remembered
// (its prompt files, its AGENTS.md): beside the history.
func projectTrust(o options) prompts.Trust {
	var trust prompts.Trust
	if o.dbPathErr == nil && o.dbPath != "" {
		trust.Path = filepath.Join(filepath.Dir(o.dbPath), prompts.TrustFile)
	}
	return trust
}

// chatPrompts are the prompt files the chat offers as /NAME. A bad file is
// warned about once per change of it (warnOnce); `runnel prompts` always
// lists them.
func chatPrompts(o options) *ui.Prompts {
	lib, trust := promptLibrary(o)
	lib.Problems = warnOnce(trust).Fresh(lib.Problems)
	return &ui.Prompts{Library: lib, Trust: trust}
}

// warnOnce remembers the bad prompt files already warned about, beside the
// trust file in the data directory.
func warnOnce(trust prompts.Trust) prompts.Warned {
	if trust.Path == "" {
		return prompts.Warned{}
	}
	return prompts.Warned{Path: filepath.Join(filepath.Dir(trust.Path), prompts.WarnedFile)}
}

// addPromptsCommand adds `runnel prompts` and `runnel prompts allow`.
func addPromptsCommand(root *cobra.Command, stdout, stderr io.Writer) {
	var o options
	var format *listFormat
	cmd := &cobra.Command{
		Use:   "prompts",
		Short: "List the prompt files (/NAME in the chat, -t NAME with -p): the config directory's prompts/ and the project's .runnel/prompts/",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.dbPath, o.dbPathErr = dataDir(cmd)
			asJSON, err := format.JSON()
			if err != nil {
				return err
			}
			lib, _ := promptLibrary(o)
			for _, e := range lib.Problems {
				warnf(stderr, "warning: %s", errLine(e))
			}
			return listPrompts(lib, asJSON, stdout)
		},
	}
	format = addListFormat(cmd, "one prompt")
	configPathFlag(cmd, &o)
	dataDirFlags(cmd)
	allow := &cobra.Command{
		Use:   "allow",
		Short: "Use this directory's .runnel/prompts/ and the project's AGENTS.md files (asked again when one changes)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.dbPath, o.dbPathErr = dataDir(cmd)
			lib, trust := promptLibrary(o)
			agents := findAgents(o).Project
			if lib.Project == "" && len(agents) == 0 {
				wd, _ := os.Getwd()
				return usageErrorf("nothing to allow here: %s has no prompt files, and there is no AGENTS.md up to the repository's root", stream.SanitizeLine(prompts.ProjectDir(wd)))
			}
			if err := agentsmd.Allow(trust, agents); err != nil {
				warnf(stderr, "cannot allow the AGENTS.md files: %s", errLine(err))
				return exitWith(exitFailure)
			}
			for _, f := range agents {
				fmt.Fprintf(stdout, "allowed %s (runnel asks again when it changes)\n", stream.SanitizeLine(f.Path))
			}
			if lib.Project == "" {
				return nil
			}
			if err := lib.Allow(trust); err != nil {
				warnf(stderr, "cannot allow %s: %s", stream.SanitizeLine(lib.Project), errLine(err))
				return exitWith(exitFailure)
			}
			for _, e := range lib.Problems {
				warnf(stderr, "warning: %s", errLine(e))
			}
			n := 0
			for _, p := range lib.Prompts {
				if p.Project {
					n++
				}
			}
			fmt.Fprintf(stdout, "allowed %d prompt file(s) in %s (runnel asks again when one changes)\n", n, stream.SanitizeLine(lib.Project))
			return nil
		},
	}
	configPathFlag(allow, &o)
	dataDirFlags(allow)
	cmd.AddCommand(allow)
	root.AddCommand(cmd)
}

// promptRow is one prompt as `runnel prompts --format json` writes it.
type promptRow struct {
	Name        string `json:"name"`
	Source      string `json:"source"`
	Description string `json:"description"`
	Project     bool   `json:"project"`
	Allowed     bool   `json:"allowed"`
	Model       string `json:"model,omitempty"`
	Effort      string `json:"effort,omitempty"`
	Shadowed    bool   `json:"shadowed,omitempty"` // a built-in command has its name: the chat does not offer it
}

// listPrompts writes the usable prompts, then the project's waiting ones.
func listPrompts(lib prompts.Library, asJSON bool, w io.Writer) error {
	var rows []promptRow
	for _, p := range lib.Prompts {
		_, builtin := ui.Lookup(p.Name)
		rows = append(rows, promptRow{p.Name, p.Path, p.Description, p.Project, true, p.Model, p.Effort, builtin})
	}
	for _, p := range lib.Waiting {
		_, builtin := ui.Lookup(p.Name)
		rows = append(rows, promptRow{p.Name, p.Path, p.Description, true, false, p.Model, p.Effort, builtin})
	}
	if asJSON {
		enc := json.NewEncoder(w)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintln(w, "no prompt files: write NAME.md in the config directory's prompts/ (see config.example.toml)")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tDESCRIPTION")
	for _, r := range rows {
		desc := stream.SanitizeLine(r.Description)
		if !r.Allowed {
			desc = "(not allowed yet: runnel prompts allow) " + desc
		}
		if r.Shadowed {
			desc = "(not in the chat: /" + r.Name + " is a built-in command) " + desc
		}
		fmt.Fprintf(tw, "/%s\t%s\t%s\n", stream.SanitizeLine(r.Name), stream.SanitizeLine(r.Source), desc)
	}
	return tw.Flush()
}

// templatePrompt applies -t NAME to a one-shot: the prompt's text (its
// template filled in with -p's), the files its @paths name, and the
// override its turn is sent with. A missing or not yet allowed prompt is
// one line and exitUsage.
func templatePrompt(o options, stderr io.Writer) (string, []string, *session.Override, int) {
	if o.template == "" {
		return o.prompt, nil, nil, exitOK
	}
	lib, trust := promptLibrary(o)
	lib.Problems = warnOnce(trust).Fresh(lib.Problems)
	p, ok := lib.Find(o.template)
	if !ok {
		if w, waits := lib.Waits(o.template); waits {
			warnf(stderr, "-t %s: %s is a project prompt you have not allowed — read it, then run `runnel prompts allow` in %s", stream.SanitizeLine(o.template), stream.SanitizeLine(w.Path), stream.SanitizeLine(filepath.Dir(filepath.Dir(lib.Project))))
			return "", nil, nil, exitUsage
		}
		for _, e := range lib.Problems {
			warnf(stderr, "warning: %s", errLine(e))
		}
		warnf(stderr, "-t %s: no such prompt file — `runnel prompts` lists them", stream.SanitizeLine(o.template))
		return "", nil, nil, exitUsage
	}
	if out := p.Outside(); out != "" {
		warnf(stderr, "-t %s: %s", stream.SanitizeLine(o.template), stream.SanitizeLine(prompts.OutsideLine(p, out)))
		return "", nil, nil, exitUsage
	}
	text, files := p.Expand(o.prompt)
	return text, files, p.Override(), exitOK
}
