package main

// This file is the wiring of instruction files (session/agentsmd): the
// user's AGENTS.md in the config directory, and the project's from the
// working directory up to the repository's root, which are used only once
// allowed (the chat asks when the first message is sent; -p uses only
// those already allowed and names the others in one line).

import (
	"io"
	"os"
	"path/filepath"

	"runnel/session/agentsmd"
	"runnel/session/config"
	"runnel/stream"
	"runnel/ui"
)

// findAgents reads the AGENTS.md files for o (none of the project's with
// --no-project) and the trust that allows the project's.
func findAgents(o options) agentsmd.Found {
	path := o.configPath
	if path == "" {
		path = config.DefaultConfigPath()
	}
	wd := ""
	if !o.noProject {
		wd, _ = os.Getwd()
	}
	dir := ""
	if path != "" {
		dir = filepath.Dir(path)
	}
	return agentsmd.Find(wd, dir)
}

// oneShotAgents is what -p adds to the instructions: the user's file and
// the project's allowed ones; each problem and each file not allowed yet
// is one line on stderr.
func oneShotAgents(o options, stderr io.Writer) (text string, used []agentsmd.File) {
	found := findAgents(o)
	for _, p := range found.Problems {
		warnf(stderr, "warning: %s", errLine(p))
	}
	allowed, waiting := found.Split(projectTrust(o))
	for _, f := range waiting {
		warnf(stderr, "%s is not used: allow it in the chat (asked when you send the first message) or with `runnel prompts allow`", stream.SanitizeLine(f.Path))
	}
	used = found.Used(allowed)
	return agentsmd.Instructions(used), used
}

// chatAgents are the AGENTS.md files the chat adds to the instructions,
// with the trust that allows the project's.
func chatAgents(o options) *ui.Agents {
	return &ui.Agents{Found: findAgents(o), Trust: projectTrust(o)}
}
