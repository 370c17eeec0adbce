package main

// This file wires the history commands to cobra: `sessions
// list|rm|search|export|import`, `sessions` alone listing, and the older
// top-level `search`, `export` and `import` as hidden aliases. Each runs one
// method of sessions.Env (package ui/sessions, which prints); this file
// builds the commands and their flags, fills the Env from them, and maps
// the errors to exit statuses.

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"runnel/session"
	"runnel/session/models"
	"runnel/stream"
	"runnel/ui/sessions"
)

// addSessionCommands adds the history commands to root.
func addSessionCommands(ctx context.Context, root *cobra.Command, stdin io.Reader, stdout, stderr io.Writer) {
	historyCommands(ctx, stdin, stdout, stderr, isTerminal).Add(root)
}

// historyCommands are the history commands wired to main's store, config
// and exit statuses.
func historyCommands(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, terminal func(any) bool) *sessionsCommands {
	return &sessionsCommands{
		Ctx: ctx, Stdin: stdin, Stdout: stdout, Stderr: stderr, Terminal: terminal, Now: time.Now,
		DataDirFlag: dataDirFlag, DataDir: dataDir, Exit: historyExit,
		Prices: func(cmd *cobra.Command) models.Table {
			var o options
			o.configPath, _ = cmd.Flags().GetString("config")
			o.overrides, _ = cmd.Flags().GetStringArray("override")
			cfg, _ := loadConfig(o) // a bad config leaves the built-in prices
			return cfg.ModelTable()
		},
		ConfigFlags: func(cmd *cobra.Command) { configFlags(cmd, &options{}) },
		Remote:      remote,
		IDs: func(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return sessionIDs(cmd), cobra.ShellCompDirectiveNoFileComp
		},
	}
}

// historyExit maps a history command's error to its exit status.
func historyExit(err error) error {
	var usage *sessions.UsageError
	var none *sessions.NoMatchError
	switch {
	case errors.As(err, &none):
		return &exitError{code: exitFailure, msg: errLine(err)} // 1, as grep finding nothing
	case errors.Is(err, context.Canceled):
		return exitWith(exitInterrupt)
	case errors.As(err, &usage):
		return &exitError{code: exitUsage, msg: errLine(err)}
	}
	return &exitError{code: exitFailure, msg: errLine(err)}
}

// sessionsCommands builds the history commands: how they reach the store,
// the prices and the exit status.
//
// Invariants: Terminal and Now are the real ones outside tests; DataDir,
// Prices and Exit are set.
type sessionsCommands struct {
	Ctx            context.Context // cancels a wait on stdin (a prompt, import -)
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Terminal       func(any) bool
	Now            func() time.Time
	DataDirFlag    string                                   // the flag naming the history directory, on every history command
	ConfigFlags    func(cmd *cobra.Command)                 // adds the flags Prices reads (list only)
	DataDir        func(cmd *cobra.Command) (string, error) // the history database cmd's flags name
	Prices         func(cmd *cobra.Command) models.Table    // the COST column's prices
	Exit           func(err error) error                    // maps an error to the command's exit status
	IDs            cobra.CompletionFunc                     // completes session ids
	// Remote is the client and new-session settings of the provider cmd's
	// config flags name (import --conversation); nil: none.
	Remote func(cmd *cobra.Command) (*stream.Client, session.Settings, error)
}

// Add adds the history commands to root, each with the data-directory
// flag.
func (h *sessionsCommands) Add(root *cobra.Command) {
	list := h.listCmd("sessions")
	list.Short = "List, search, export, import or delete saved sessions (alone: list them)"
	list.AddCommand(h.listCmd("list"), h.rmCmd(), h.searchCmd(), h.exportCmd(), h.importCmd())
	root.AddCommand(list)
	for _, c := range []*cobra.Command{h.searchCmd(), h.exportCmd(), h.importCmd()} {
		c.Hidden = true
		root.AddCommand(c)
	}
}

// withDataDir adds the data-directory flag to cmd and returns it.
func (h *sessionsCommands) withDataDir(cmd *cobra.Command) *cobra.Command {
	cmd.Flags().String(h.DataDirFlag, "", "directory of the session history (default $XDG_DATA_HOME/runnel)")
	return cmd
}

// env is what a history command needs, from cmd's flags.
func (h *sessionsCommands) env(cmd *cobra.Command) sessions.Env {
	e := sessions.Env{Ctx: h.Ctx, Stdin: h.Stdin, Stdout: h.Stdout, Stderr: h.Stderr, Terminal: h.Terminal, Now: h.Now, DataDirFlag: h.DataDirFlag}
	e.DB, e.DBErr = h.DataDir(cmd)
	e.Prices = h.Prices(cmd)
	e.Width, _ = cmd.Flags().GetInt("width") // 0 for the commands without --width
	if h.Remote != nil {
		e.Remote = func() (*stream.Client, session.Settings, error) { return h.Remote(cmd) }
	}
	return e
}

// runE adapts a history command to RunE: its error, mapped to a status.
func (h *sessionsCommands) runE(fn func(e sessions.Env, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := fn(h.env(cmd), args); err != nil {
			return h.Exit(err)
		}
		return nil
	}
}

func (h *sessionsCommands) listCmd(use string) *cobra.Command {
	var limit int
	var format *listFormat
	list := &cobra.Command{
		Use:   use,
		Short: "List saved sessions, most recently updated first",
		Long: "List saved sessions, most recently updated first: id, when it was last updated, turns, model and title.\n" +
			"--format json prints JSON Lines, one object per session: id, title, turns, model, created, updated (RFC 3339),\n" +
			"updated_ago and preview. Resume one with: runnel -r ID",
		Args: cobra.NoArgs,
		RunE: h.runE(func(e sessions.Env, _ []string) error {
			asJSON, _ := format.JSON() // checked before (PreRunE)
			return e.List(asJSON, limit)
		}),
	}
	format = addListFormat(list, "one session")
	list.PreRunE = format.check
	list.Flags().IntVar(&limit, "limit", 0, "list at most N sessions (0: all)")
	var width int
	widthFlag(list.Flags(), &width, "table width")
	if h.ConfigFlags != nil {
		h.ConfigFlags(list) // the COST column's prices
	}
	return h.withDataDir(list)
}

func (h *sessionsCommands) rmCmd() *cobra.Command {
	var yes bool
	rm := &cobra.Command{
		Use:               "rm ID",
		Aliases:           []string{"delete"},
		Short:             "Delete a session (a unique prefix of its id is enough)",
		Args:              cobra.ExactArgs(1),
		RunE:              h.runE(func(e sessions.Env, a []string) error { return e.Remove(a[0], yes) }),
		ValidArgsFunction: h.IDs,
	}
	rm.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking")
	return h.withDataDir(rm)
}

func (h *sessionsCommands) searchCmd() *cobra.Command {
	var limit int
	var format *listFormat
	search := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search every saved prompt, answer, reasoning summary and tool call",
		Long: "Search every saved prompt, answer, reasoning summary and tool call for turns holding all the words\n" +
			"of QUERY (\"streams\" finds \"streaming\"), best first. On a terminal matches are highlighted,\n" +
			"elsewhere they are marked [like this]. --format json prints JSON Lines, one object per hit: id, title, turn,\n" +
			"snippet and marks (byte ranges of the matches in snippet). Resume a session with: runnel -r ID",
		Args: cobra.MinimumNArgs(1),
		RunE: h.runE(func(e sessions.Env, a []string) error {
			asJSON, _ := format.JSON() // checked before (PreRunE)
			return e.Search(strings.Join(a, " "), asJSON, limit)
		}),
	}
	format = addListFormat(search, "one hit")
	search.PreRunE = format.check
	search.Flags().IntVar(&limit, "limit", 20, "show at most N hits (0: 20)")
	return h.withDataDir(search)
}

func (h *sessionsCommands) exportCmd() *cobra.Command {
	var format, out string
	exp := &cobra.Command{
		Use:   "export ID",
		Short: "Write a session as markdown, JSON or HTML (to stdout, or a file with -o)",
		Long: "Write a session as a readable markdown transcript, as JSON that `runnel sessions import` reads back,\n" +
			"or as a self-contained HTML page (no script, nothing loaded; tool calls and reasoning fold).\n" +
			"The format defaults to json when -o names a .json file, html for .html, else markdown. Files are written 0600.",
		Args:              cobra.ExactArgs(1),
		RunE:              h.runE(func(e sessions.Env, a []string) error { return e.Export(a[0], format, out) }),
		ValidArgsFunction: h.IDs,
	}
	exp.Flags().StringVar(&format, "format", "", "markdown, json or html (default: json for a .json -o file, html for .html, else markdown)")
	exp.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of stdout")
	exp.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]cobra.Completion{"markdown", "json", "html"}, cobra.ShellCompDirectiveNoFileComp))
	return h.withDataDir(exp)
}

func (h *sessionsCommands) importCmd() *cobra.Command {
	var conv string
	cmd := &cobra.Command{
		Use:   "import FILE | --conversation ID",
		Short: "Add a session from a JSON export (a file, or - for stdin) or a server-side conversation, listed first",
		Long: "Add a session from a JSON export (a file, or - for stdin), listed first.\n" +
			"With --conversation ID, pull that server-side conversation (GET /conversations/ID/items) from the\n" +
			"configured provider into a new session; resumed, it continues the same conversation.",
		Args: func(cmd *cobra.Command, args []string) error {
			if conv != "" {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: h.runE(func(e sessions.Env, a []string) error {
			if conv != "" {
				return e.ImportConversation(conv)
			}
			return e.Import(a[0])
		}),
	}
	cmd.Flags().StringVar(&conv, "conversation", "", "pull this server-side conversation (conv_…) into a new session that continues it")
	if h.ConfigFlags != nil {
		h.ConfigFlags(cmd) // the provider to pull it from
	}
	return h.withDataDir(cmd)
}

// remote is the client of the provider cmd's --config and -c name, and the
// settings a new session starts with there (sessions import --conversation).
func remote(cmd *cobra.Command) (*stream.Client, session.Settings, error) {
	var o options
	o.configPath, _ = cmd.Flags().GetString("config")
	o.overrides, _ = cmd.Flags().GetStringArray("override")
	cfg, err := loadConfig(o)
	if err != nil {
		return nil, session.Settings{}, err
	}
	s, err := cfg.Resolve(os.Getenv, o.configOverrides())
	if err != nil {
		return nil, session.Settings{}, err
	}
	if s.Demo() {
		return nil, session.Settings{}, errors.New("no provider is configured (the demo keeps no conversations): set OPENAI_API_KEY, or base_url in the config")
	}
	client, _ := s.Client(false)
	return client, s.Session(), nil
}
