package main

// This file is what `runnel providers` says of what runnel learned about
// each server (session.ProviderRecord: keeps no state, refuses include…),
// `runnel providers forget NAME`, and the part of `runnel providers
// check` that asks a server for one answer and a chained second one,
// through the turn engine, which records what it learns.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"runnel/session"
	"runnel/session/config"
	"runnel/stream"
	"runnel/ui/output"
)

// providerBase is the base URL a provider's requests go to, as the
// client gets it ("" for a provider that needs one).
func providerBase(p config.Profile, env func(string) string) string {
	raw := strings.TrimSpace(p.BaseURL)
	switch {
	case raw == "" && p.Default && strings.TrimSpace(env("OPENAI_BASE_URL")) != "":
		raw = strings.TrimSpace(env("OPENAI_BASE_URL"))
	case raw == "" && p.Default:
		raw = config.DefaultBaseURL
	}
	return raw
}

// learned is the LEARNED column: what is remembered of the provider's
// server, "—" for nothing.
func learned(mem session.ProviderMemory, base string, now time.Time) string {
	if base == "" {
		return "—"
	}
	rec := mem.Load(session.ProviderKey(base), now)
	line := rec.Summary()
	if line == "" {
		line = "—"
	}
	if !rec.Checked.IsZero() && rec.Check != "" {
		line += " · checked " + rec.Checked.Local().Format("2 Jan") + ": " + rec.Check
	}
	return stream.SanitizeLine(line)
}

// otherServers are the servers runnel learned about that no provider
// names (a --base-url run), one row each.
func otherServers(mem session.ProviderMemory, known map[string]bool, now time.Time) [][2]string {
	var rows [][2]string
	for _, rec := range mem.All(now) {
		if known[rec.Key] || rec.Summary() == "" {
			continue
		}
		rows = append(rows, [2]string{displayBase(rec.Key), learned(mem, rec.Key, now)})
	}
	return rows
}

// forgetCommand is `runnel providers forget NAME`: NAME is a provider, or
// a base URL (a server used with --base-url).
func forgetCommand(o *options, stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "forget NAME",
		Short: "Forget what runnel learned a provider's server refuses (NAME is a provider or a base URL)",
		Long: "Forget what runnel learned of a server: that it keeps no conversation state, and the request\n" +
			"parameters it refused. The next turn tries them again. NAME is a provider, or the base URL of\n" +
			"a server used with --base-url (as `runnel providers` lists it).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.dbPath, o.dbPathErr = dataDir(cmd)
			cfg, err := loadConfig(*o)
			if err != nil {
				return usageErrorf("%s", errLine(err))
			}
			base := args[0]
			if p, err := cfg.Profile(args[0]); err == nil {
				base = providerBase(p, os.Getenv)
			} else if u, perr := url.Parse(args[0]); perr != nil || u.Host == "" {
				return usageErrorf("%s", errLine(err))
			}
			if base == "" {
				return usageErrorf("provider %q has no base_url: nothing was learned of it", stream.SanitizeLine(args[0]))
			}
			mem := providerMemory(*o)
			key := session.ProviderKey(base)
			if mem.Load(key, time.Now()).Empty() {
				fmt.Fprintf(stdout, "nothing was learned of %s\n", displayBase(key))
				return nil
			}
			if err := mem.Forget(key); err != nil {
				return fmt.Errorf("cannot forget %s: %s", displayBase(key), errLine(err))
			}
			fmt.Fprintf(stdout, "forgot what was learned of %s: the next turn tries everything again\n", displayBase(key))
			return nil
		},
	}
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return providerCompletions(*o), cobra.ShellCompDirectiveNoFileComp
	}
	configFlags(cmd, o)
	dataDirFlags(cmd)
	return cmd
}

// probePrompt is the one tiny question `providers check` asks.
const probePrompt = "Reply with the single word: ok"

// probe asks the server for one answer and a second one chained to it,
// through the turn engine, which records what it learns (a chain refused,
// ignored or lost; a parameter refused). It returns one line, and whether
// the server answered.
func probe(ctx context.Context, client *stream.Client, s config.Settings, model string, mem session.ProviderMemory) (string, bool) {
	set := s.Session()
	set.Model = model
	set.ReasoningEffort, set.ReasoningSummary = "", ""
	set.Background, set.State, set.Conversation = false, "", ""
	set.Tools, set.EnabledTools = nil, nil
	conv := &session.Conversation{Settings: set}
	engine := session.NewEngine(client.BaseURL, mem)
	say := func([]session.Notice) {} // what it learned is in the record
	quiet := output.New("text", io.Discard, io.Discard, 0, nil, false)
	send := func(req stream.Request, guard func(*stream.Snapshot, bool) bool) (*stream.Accumulator, error) {
		return drive(stream.Start(ctx, client, req), &stream.Accumulator{Limit: 1 << 20}, quiet, io.Discard, guard)
	}
	for i := range 2 {
		turn := conv.Say(probePrompt)
		a := engine.Next(session.Event{Kind: session.Sent, Conv: conv, Turn: turn, Now: time.Now()})
		acc, err := runTurn(ctx, engine, a, send, nil, turn, say)
		if err == nil && (acc == nil || len(acc.Responses()) == 0) {
			err = errors.New("no response came")
		}
		if err != nil {
			what := "one answer"
			if i == 1 {
				what = "a chained answer"
			}
			return "asked for " + what + ": " + errLine(err), false
		}
	}
	rec := engine.Record(time.Now())
	var line string
	switch {
	case conv.Stateless && rec.Why != "":
		line = "answers; keeps no state (" + rec.Why + ")"
	case conv.Stateless || !conv.Settings.Store || conv.Refused(session.ParamStore):
		line = "answers; store is off: the history goes with each turn"
	default:
		line = "answers; a chained answer keeps the first"
	}
	if names := conv.RefusedKnobs(); len(names) > 0 {
		line += "; refuses " + strings.Join(names, ", ")
	}
	return stream.SanitizeLine(line), true
}

// recordCheck writes what the check found into the provider's record.
func recordCheck(mem session.ProviderMemory, base, line string, now time.Time) {
	key := session.ProviderKey(base)
	rec := mem.Load(key, now)
	rec.Checked, rec.Check = now.UTC(), line
	_ = mem.Save(rec) // a check that cannot be recorded still said its line
}
