package main

// This file is the one spelling of JSON output for the commands that list
// (sessions list and search, models, prompts, providers, mcp list):
// --format text|json, with --json kept as its alias.

import (
	"github.com/spf13/cobra"

	"runnel/stream"
)

// listFormat is a listing command's --format and its --json alias.
type listFormat struct {
	format string
	json   bool
}

// addListFormat gives cmd --format text|json and --json; what says what
// one JSON line holds ("one session").
func addListFormat(cmd *cobra.Command, what string) *listFormat {
	f := &listFormat{}
	cmd.Flags().StringVar(&f.format, "format", "", "text (the default) or json (JSON Lines, "+what+" a line)")
	cmd.Flags().BoolVar(&f.json, "json", false, "the same as --format json")
	cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]cobra.Completion{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return f
}

// JSON reports whether JSON Lines were asked for; a format other than text
// or json, or --json beside --format text, is a usage error.
func (f *listFormat) JSON() (bool, error) {
	switch f.format {
	case "json":
		return true, nil
	case "text":
		if f.json {
			return false, usageErrorf("--json and --format text disagree: give one of them")
		}
		return false, nil
	case "":
		return f.json, nil
	}
	return false, usageErrorf("--format %s: this command writes text or json", stream.SanitizeLine(f.format))
}

// check is JSON's usage error alone, for a command's PreRunE.
func (f *listFormat) check(*cobra.Command, []string) error {
	_, err := f.JSON()
	return err
}
