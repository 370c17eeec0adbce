package main

// This file is `runnel providers`: the providers the config can use (its
// [providers.NAME] tables, the built-in presets and "default"), and
// `runnel providers check`, which asks each for GET /models and says in one
// line what answered. It also holds what the chat and -c need of
// providers: the /provider switch's connection and the provider a resumed
// session continues on.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"runnel/session"
	"runnel/session/config"
	"runnel/session/store"
	"runnel/stream"
	"runnel/ui"
)

// checkTimeout bounds each provider's answer in `runnel providers check`.
const checkTimeout = 5 * time.Second

// addProvidersCommand wires `runnel providers` and `runnel providers check`.
// o holds the root's persistent flags (--config, -c key=value).
func addProvidersCommand(ctx context.Context, root *cobra.Command, o *options, stdout, stderr io.Writer) {
	list := &cobra.Command{
		Use:   "providers",
		Short: "List the providers the config can use (name, base URL, where the key comes from)",
		Long: "List the providers runnel can use: the config's [providers.NAME] tables, the built-in presets\n" +
			"and \"default\" (the [provider] table). The one used without --provider is marked with *.\n" +
			"Keys are never shown, only where they come from.",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			cfg, err := loadConfig(*o)
			if err != nil {
				return usageErrorf("%s", errLine(err))
			}
			return exitWith(listProviders(cfg, os.Getenv, stdout))
		},
	}
	check := &cobra.Command{
		Use:   "check [NAME...]",
		Short: "Ask each provider (or those named) for GET /models and say in one line what answered",
		Long: "Ask each provider for its model list, all at once, each within " + checkTimeout.String() + ", and say in one line\n" +
			"what answered: ok with the number of models, the HTTP status and the server's reason, a refused\n" +
			"connection, or a missing key (nothing is sent then). The exit status is 1 when any did not answer ok.",
		RunE: func(_ *cobra.Command, names []string) error {
			cfg, err := loadConfig(*o)
			if err != nil {
				return usageErrorf("%s", errLine(err))
			}
			return exitWith(checkProviders(ctx, cfg, names, os.Getenv, stdout))
		},
	}
	check.ValidArgsFunction = func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return providerCompletions(*o), cobra.ShellCompDirectiveNoFileComp
	}
	configFlags(list, o)
	configFlags(check, o)
	list.AddCommand(check)
	root.AddCommand(list)
}

// listProviders writes one row per provider: the default marked, its base
// URL and where its key comes from.
func listProviders(cfg config.Config, env func(string) string, stdout io.Writer) int {
	w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "  NAME\tBASE URL\tKEY\tFROM")
	def := cfg.DefaultProviderName()
	for _, name := range cfg.ProviderNames() {
		p, err := cfg.Profile(name)
		if err != nil {
			continue // ProviderNames names only what Profile finds
		}
		mark := " "
		if name == def {
			mark = "*"
		}
		fmt.Fprintf(w, "%s %s\t%s\t%s\t%s\n", mark, name, displayURL(p, env), p.KeySource(env), origin(p))
	}
	if err := w.Flush(); err != nil {
		return exitFailure
	}
	return exitOK
}

// displayURL is the profile's base URL without credentials, or what stands
// in for it.
func displayURL(p config.Profile, env func(string) string) string {
	raw := p.BaseURL
	switch {
	case raw == "" && p.Default && strings.TrimSpace(env("OPENAI_BASE_URL")) != "":
		raw = env("OPENAI_BASE_URL")
	case raw == "" && p.Default:
		raw = config.DefaultBaseURL
	case raw == "":
		return "(needs base_url)"
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "(not a URL)"
	}
	return stream.SanitizeLine(strings.TrimRight(u.Redacted(), "/"))
}

// origin says where a provider comes from.
func origin(p config.Profile) string {
	switch {
	case p.Default && p.Configured:
		return "[provider] table"
	case p.Default:
		return "OpenAI, or the demo without a key"
	case p.Preset != nil && p.Configured:
		return "built in, changed by the config"
	case p.Preset != nil:
		return "built in"
	}
	return "config"
}

// checkProviders asks every provider named (all when names is empty) for
// its models, concurrently, and writes one line each in list order.
func checkProviders(ctx context.Context, cfg config.Config, names []string, env func(string) string, stdout io.Writer) int {
	if len(names) == 0 {
		names = cfg.ProviderNames()
	}
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	lines := make([]chan string, len(names))
	for i, name := range names {
		lines[i] = make(chan string, 1)
		go func() { lines[i] <- checkOne(ctx, cfg, name, env) }()
	}
	code := exitOK
	for i, name := range names {
		line := <-lines[i]
		if !strings.HasPrefix(line, "ok") {
			code = exitFailure
		}
		fmt.Fprintf(stdout, "%-*s  %s\n", width, stream.SanitizeLine(name), line)
	}
	return code
}

// checkOne is one provider's line: "ok: 12 models", "HTTP 401 Unauthorized:
// …", "connection refused (http://localhost:8000/v1)", "no key: …".
func checkOne(ctx context.Context, cfg config.Config, name string, env func(string) string) string {
	s, err := cfg.Resolve(env, config.Overrides{Provider: name})
	if err != nil {
		if p, perr := cfg.Profile(name); perr == nil && p.APIKeyEnv != "" && strings.Contains(err.Error(), "no API key") {
			return "no key: $" + p.APIKeyEnv + " is not set; nothing was sent"
		}
		return errLine(err)
	}
	if s.Demo() {
		return "no key: set $" + cfg.APIKeyEnv() + " (or give the [provider] table a base_url); nothing was sent"
	}
	client, _ := s.Client(false)
	client.IdleTimeout, client.MaxRetries = checkTimeout, -1
	client.Secrets = stream.NewRedactor(s.APIKey) // a server that repeats the key shows "[redacted]"
	for _, v := range s.Headers {
		client.Secrets.Add(v)
	}
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	models, err := client.Models(ctx)
	var api *stream.APIError
	switch {
	case err == nil:
		return fmt.Sprintf("ok: %d models (%s)", len(models), displayBase(s.BaseURL))
	case errors.As(err, &api):
		line := fmt.Sprintf("HTTP %d %s", api.Status, http.StatusText(api.Status))
		if said := api.Message; said != "" {
			line += ": " + said
		} else if api.BodySummary != "" {
			line += ": " + api.BodySummary
		}
		return stream.SanitizeLine(line) + " (" + displayBase(s.BaseURL) + ")"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused (" + displayBase(s.BaseURL) + "): is the server running?"
	}
	return errLine(err)
}

// displayBase is a base URL without credentials.
func displayBase(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "?"
	}
	return stream.SanitizeLine(u.Redacted())
}

// providerCompletions are the provider names for --provider and
// `providers check`: the config's and the built-in ones, each described.
func providerCompletions(o options) []cobra.Completion {
	cfg, err := loadConfig(o)
	if err != nil {
		cfg = config.Config{} // the built-in names still complete
	}
	var out []cobra.Completion
	for _, name := range cfg.ProviderNames() {
		desc := "from the config"
		if p, ok := config.LookupPreset(name); ok {
			desc = p.About
		} else if name == config.DefaultProvider {
			desc = "the [provider] table (OpenAI without one)"
		}
		out = append(out, cobra.CompletionWithDesc(name, desc))
	}
	return out
}

// providerSwitch is what the chat's /provider needs: the names to offer and
// how to connect to one. Connect resolves the provider's key (it may run
// api_key_command), so the chat calls it off its update loop.
func providerSwitch(o options, cfg config.Config, kit *config.ToolKit) *ui.Providers {
	var choices []ui.ProviderChoice
	for _, name := range cfg.ProviderNames() {
		p, err := cfg.Profile(name)
		if err != nil {
			continue
		}
		about := origin(p)
		if p.Preset != nil {
			about = p.Preset.About
		}
		choices = append(choices, ui.ProviderChoice{Name: name, BaseURL: displayURL(p, os.Getenv), About: about})
	}
	return &ui.Providers{
		Choices: choices,
		Connect: func(ctx context.Context, name string) (ui.Connection, error) {
			flags := o.configOverrides()
			flags.Provider, flags.Model, flags.BaseURL = name, "", "" // the flags named the first provider's
			s, err := cfg.Resolve(os.Getenv, flags)
			if err != nil {
				return ui.Connection{}, err
			}
			if s.Demo() {
				return ui.Connection{}, fmt.Errorf("provider %q has no API key: set $%s, or a base_url in the [provider] table", name, cfg.APIKeyEnv())
			}
			p, _ := cfg.Profile(name)
			client, label := s.Client(false)
			kit.Attach(client, s) // its key and header values are hidden everywhere, as the first provider's
			return ui.Connection{
				Name: name, Label: label, Client: client,
				Models:     s.ModelLister(client, label, o.dbPath, o.dbPathErr),
				Model:      p.Model,
				Store:      s.Store,
				Background: s.Background,
			}, nil
		},
	}
}

// continueOn is the settings for a turn of a stored session: on the
// provider it was saved on, unless --provider names one (or the session
// names none, or a provider the config no longer has: then today's, and
// warn says why).
func continueOn(o options, cfg config.Config, s config.Settings, sess *store.Session, warn func(string)) config.Settings {
	if sess == nil || o.provider != "" || sess.Imported {
		return s // an imported file's provider never picks the key (session.Foreign says so)
	}
	stored := session.SettingsFromJSON(sess.Settings).Provider
	if stored == "" || stored == s.Provider || stored == config.DemoProvider {
		return s // a demo session goes on on what the config names
	}
	flags := o.configOverrides()
	flags.Provider = stored
	on, err := cfg.Resolve(os.Getenv, flags)
	if err != nil {
		warn(fmt.Sprintf("the session was on provider %q, which cannot be used now (%s) — continuing on %q", stored, errLine(err), s.Provider))
		return s
	}
	return on
}
