package main

// This file completes flag values in the shell (runnel completion SHELL):
// -r/--resume session ids from the store, --tool names, --provider (the
// config's providers and the built-in ones), --reasoning-effort, and
// --model: the configured model and the provider's model list as
// `runnel models` or the chat's picker last cached it (never fetched
// here). --format is completed where it is added (flags.go). Completion
// never fails loudly: what cannot be read completes nothing.

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"runnel/session/config"
	"runnel/session/knob"
	"runnel/session/models"
	"runnel/session/store"
	"runnel/stream"
)

func addCompletions(root *cobra.Command, o *options) {
	none := cobra.ShellCompDirectiveNoFileComp
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
}

// completeModelFlags completes the flags addModelFlags adds to cmd.
func completeModelFlags(cmd *cobra.Command, o *options) {
	none := cobra.ShellCompDirectiveNoFileComp
	cmd.RegisterFlagCompletionFunc("provider", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return providerCompletions(*o), none // providers.go
	})
	cmd.RegisterFlagCompletionFunc("reasoning-effort", cobra.FixedCompletions(knob.ReasoningEfforts, none))
	cmd.RegisterFlagCompletionFunc("model", func(c *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return modelCompletions(c, *o), none
	})
}

// modelCompletions are the configured model, then the models cached for
// the provider --provider (else the config) names, then the built-in
// default; each once.
func modelCompletions(cmd *cobra.Command, o options) []cobra.Completion {
	cfg, err := loadConfig(o)
	if err != nil {
		cfg = config.Config{}
	}
	provider := o.provider
	if provider == "" {
		provider = cfg.DefaultProviderName()
	}
	seen := map[string]bool{}
	var out []cobra.Completion
	add := func(id, desc string) {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, cobra.CompletionWithDesc(stream.SanitizeLine(id), desc))
		}
	}
	add(cfg.Model, "from the config")
	if p, err := cfg.Profile(provider); err == nil {
		add(p.Model, "the provider's model in the config")
	}
	if path, err := dataDir(cmd); err == nil {
		cached := provider
		if cached == config.DefaultProvider {
			cached = "" // the cache names no provider for the default one
		}
		for _, id := range models.Cached(filepath.Dir(path), cached) {
			add(id, provider+"'s list")
		}
	}
	add(config.DefaultModel, "the built-in default")
	return out
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
