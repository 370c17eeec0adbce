package main

// This file is `runnel providers`: the providers the config can use (its
// [providers.NAME] tables, the built-in presets and "default") with what
// runnel learned of each (providers_learned.go), and `runnel providers
// check`, which asks each for GET /models, one answer and a chained one,
// and says in one line what it found. It also holds what the chat and -c need of
// providers: the /provider switch's connection and the provider a resumed
// session continues on.

import (
	"context"
	"encoding/json"
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
	"runnel/session/knob"
	"runnel/session/store"
	"runnel/stream"
	"runnel/ui"
)

// checkTimeout bounds each provider's answer in `runnel providers check`.
const checkTimeout = 5 * time.Second

// addProvidersCommand wires `runnel providers` and `runnel providers check`.
// o holds the root's persistent flags (--config, -c key=value).
func addProvidersCommand(ctx context.Context, root *cobra.Command, o *options, stdout, stderr io.Writer) {
	var format *listFormat
	list := &cobra.Command{
		Use:   "providers",
		Short: "List the providers the config can use (name, base URL, where the key comes from)",
		Long: "List the providers runnel can use: the config's [providers.NAME] tables, the built-in presets\n" +
			"and \"default\" (the [provider] table). The one used without --provider is marked with *.\n" +
			"Keys are never shown, only where they come from.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.dbPath, o.dbPathErr = dataDir(cmd)
			cfg, err := loadConfig(*o)
			if err != nil {
				return usageErrorf("%s", errLine(err))
			}
			asJSON, err := format.JSON()
			if err != nil {
				return err
			}
			return exitWith(listProviders(cfg, os.Getenv, providerMemory(*o), asJSON, stdout))
		},
	}
	format = addListFormat(list, "one provider")
	check := &cobra.Command{
		Use:   "check [NAME...]",
		Short: "Ask each provider (or those named) what the chat needs, and say in one line what it found",
		Long: "Ask each provider, all at once, with tiny requests: GET /models, one answer, and a second\n" +
			"answer chained to the first (does the server keep it, ignore it or refuse it?). What it learns\n" +
			"is remembered, as a chat would learn it, and `runnel providers` shows it. A provider with no key,\n" +
			"or a local preset with nothing listening, is \"not set up\" (nothing is sent). The exit status is 1\n" +
			"when a provider that is set up fails.",
		RunE: func(cmd *cobra.Command, names []string) error {
			o.dbPath, o.dbPathErr = dataDir(cmd)
			cfg, err := loadConfig(*o)
			if err != nil {
				return usageErrorf("%s", errLine(err))
			}
			return exitWith(checkProviders(ctx, cfg, names, os.Getenv, providerMemory(*o), stdout))
		},
	}
	check.ValidArgsFunction = func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return providerCompletions(*o), cobra.ShellCompDirectiveNoFileComp
	}
	configFlags(list, o)
	configFlags(check, o)
	dataDirFlags(list) // what was learned is kept there
	dataDirFlags(check)
	list.AddCommand(check, forgetCommand(o, stdout))
	root.AddCommand(list)
}

// listProviders writes one row per provider: the default marked, its base
// URL, where its key comes from, and what runnel learned of its server;
// then the servers it learned of that no provider names.
func listProviders(cfg config.Config, env func(string) string, mem session.ProviderMemory, asJSON bool, stdout io.Writer) int {
	rows := providerRows(cfg, env, mem, time.Now())
	if asJSON {
		enc := json.NewEncoder(stdout)
		for _, r := range rows {
			if err := enc.Encode(r); err != nil {
				return exitFailure
			}
		}
		return exitOK
	}
	w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "  NAME\tBASE URL\tKEY\tFROM\tLEARNED")
	for _, r := range rows {
		mark, name := " ", r.Name
		if r.Default {
			mark = "*"
		}
		if name == "" {
			name = "-"
		}
		fmt.Fprintf(w, "%s %s\t%s\t%s\t%s\t%s\n", mark, name, r.BaseURL, r.Key, r.From, r.Learned)
	}
	if err := w.Flush(); err != nil {
		return exitFailure
	}
	return exitOK
}

// providerRow is one provider of `runnel providers`: a row of the table,
// a line of --format json.
type providerRow struct {
	Name    string `json:"name"` // "" for a --base-url server runnel learned something of
	Default bool   `json:"default"`
	BaseURL string `json:"base_url"`
	Key     string `json:"key"` // where the key comes from, never the key
	From    string `json:"from"`
	Learned string `json:"learned"`
}

// providerRows are the config's providers, then the --base-url servers
// runnel learned something of.
func providerRows(cfg config.Config, env func(string) string, mem session.ProviderMemory, now time.Time) []providerRow {
	var rows []providerRow
	def := cfg.DefaultProviderName()
	known := map[string]bool{}
	for _, name := range cfg.ProviderNames() {
		p, err := cfg.Profile(name)
		if err != nil {
			continue // ProviderNames names only what Profile finds
		}
		base := providerBase(p, env)
		if base != "" {
			known[session.ProviderKey(base)] = true
		}
		rows = append(rows, providerRow{Name: name, Default: name == def, BaseURL: displayURL(p, env), Key: p.KeySource(env), From: origin(p), Learned: learned(mem, base, now)})
	}
	for _, row := range otherServers(mem, known, now) {
		rows = append(rows, providerRow{BaseURL: row[0], Key: "-", From: "--base-url", Learned: row[1]})
	}
	return rows
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
func checkProviders(ctx context.Context, cfg config.Config, names []string, env func(string) string, mem session.ProviderMemory, stdout io.Writer) int {
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
		go func() { lines[i] <- checkOne(ctx, cfg, name, env, mem) }()
	}
	code := exitOK
	for i, name := range names {
		line := <-lines[i]
		if !strings.HasPrefix(line, "ok") && !strings.HasPrefix(line, notSetUp) {
			code = exitFailure // a provider that is set up failed
		}
		fmt.Fprintf(stdout, "%-*s  %s\n", width, stream.SanitizeLine(name), line)
	}
	return code
}

// notSetUp starts the line of a provider that is not set up (no key, or
// a local preset with nothing listening): not a failure.
const notSetUp = "not set up"

// checkOne is one provider's line: "ok: 12 models (…); answers; a chained
// answer keeps the first", "HTTP 401 Unauthorized: …", "connection
// refused (http://localhost:8000/v1)", "not set up: no key …".
func checkOne(ctx context.Context, cfg config.Config, name string, env func(string) string, mem session.ProviderMemory) string {
	s, err := cfg.Resolve(env, config.Overrides{Provider: name})
	if err != nil {
		if p, perr := cfg.Profile(name); perr == nil && p.APIKeyEnv != "" && strings.Contains(err.Error(), "no API key") {
			return notSetUp + ": no key ($" + p.APIKeyEnv + " is not set); nothing was sent"
		}
		return errLine(err)
	}
	if s.Demo() {
		return notSetUp + ": no key (set $" + cfg.APIKeyEnv() + ", or give the [provider] table a base_url); nothing was sent"
	}
	client, _ := s.Client(false)
	client.IdleTimeout, client.MaxRetries = checkTimeout, -1
	client.Secrets = stream.NewRedactor(s.APIKey) // a server that repeats the key shows "[redacted]"
	for _, v := range s.Headers {
		client.Secrets.Add(v)
	}
	lctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	models, err := client.Models(lctx)
	var api *stream.APIError
	switch {
	case err == nil || errors.As(err, &api) && api.Status == http.StatusNotFound:
		// a server without a model list (responses.js) may still answer
		listed := fmt.Sprintf("%d models", len(models))
		if len(models) == 1 {
			listed = "1 model"
		}
		if err != nil {
			listed = "no model list"
		}
		model := s.Model
		if model == "" && len(models) > 0 {
			model = models[0].ID
		}
		pctx, pcancel := context.WithTimeout(ctx, 4*checkTimeout)
		defer pcancel()
		line, ok := probe(pctx, client, s, model, mem)
		recordCheck(mem, s.BaseURL, line, time.Now())
		if !ok {
			return fmt.Sprintf("%s (%s): %s", listed, displayBase(s.BaseURL), line)
		}
		return fmt.Sprintf("ok: %s (%s); %s", listed, displayBase(s.BaseURL), line)
	case errors.As(err, &api):
		line := fmt.Sprintf("HTTP %d %s", api.Status, http.StatusText(api.Status))
		if said := api.Message; said != "" {
			line += ": " + said
		} else if api.BodySummary != "" {
			line += ": " + api.BodySummary
		}
		return stream.SanitizeLine(line) + " (" + displayBase(s.BaseURL) + ")"
	case errors.Is(err, syscall.ECONNREFUSED) && localPreset(cfg, name):
		return notSetUp + ": nothing listens at " + displayBase(s.BaseURL) + "; nothing was sent"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused (" + displayBase(s.BaseURL) + "): is the server running?"
	}
	return errLine(err)
}

// localPreset reports whether name is a built-in preset for a server on
// this machine that the config does not set up (Ollama, LM Studio, vLLM,
// llama.cpp): nothing listening there means it is not set up.
func localPreset(cfg config.Config, name string) bool {
	p, err := cfg.Profile(name)
	if err != nil || p.Preset == nil || p.Configured {
		return false
	}
	u, err := url.Parse(p.Preset.BaseURL)
	return err == nil && (u.Hostname() == "localhost" || u.Hostname() == "127.0.0.1")
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
	stored := knob.FromJSON(sess.Settings).Provider
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
