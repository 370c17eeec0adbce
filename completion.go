package main

// This file completes flag values in the shell (runnel completion SHELL):
// --format, -r/--resume session ids from the store, --tool names, --model
// and --provider (the config's providers and the built-in ones). Completion
// never fails loudly: what cannot be read completes nothing.

import (
	"github.com/spf13/cobra"

	"runnel/session/config"
	"runnel/session/store"
	"runnel/stream"
	"runnel/ui/output"
)

func addCompletions(root *cobra.Command, o *options) {
	none := cobra.ShellCompDirectiveNoFileComp
	root.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(output.Formats, none))
	root.RegisterFlagCompletionFunc("resume", func(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return sessionIDs(cmd), none
	})
	root.RegisterFlagCompletionFunc("tool", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		cfg, err := loadConfig(*o)
		if err != nil {
			return nil, none
		}
		tc, err := cfg.ToolSet()
		if err != nil {
			return nil, none
		}
		var out []cobra.Completion
		for _, i := range tc.List() {
			out = append(out, cobra.CompletionWithDesc(i.Name, i.Kind.String()))
		}
		return out, none
	})
	root.RegisterFlagCompletionFunc("provider", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return providerCompletions(*o), none // providers.go
	})
	root.RegisterFlagCompletionFunc("model", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		out := []cobra.Completion{config.DefaultModel}
		if cfg, err := loadConfig(*o); err == nil && cfg.Model != "" && cfg.Model != config.DefaultModel {
			out = append([]cobra.Completion{cobra.CompletionWithDesc(cfg.Model, "from the config")}, out...)
		}
		return out, none
	})
}

// sessionIDs lists the saved sessions as completions, their titles as
// descriptions, newest first.
func sessionIDs(cmd *cobra.Command) []cobra.Completion {
	path, err := dataDir(cmd)
	if err != nil {
		return nil
	}
	db, err := store.Open(path)
	if err != nil {
		return nil
	}
	defer db.Close()
	infos, err := db.List(0)
	if err != nil {
		return nil
	}
	out := make([]cobra.Completion, 0, len(infos))
	for _, s := range infos {
		out = append(out, cobra.CompletionWithDesc(string(s.ID), stream.SanitizeLine(s.Title)))
	}
	return out
}
