package main

// This file wires the history commands (package ui/sessions) to main's
// store, config and exit statuses, and opens the store for the chat and
// -c/-r.

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"runnel/session/models"
	"runnel/session/store"
	"runnel/ui/sessions"
)

// dataDirFlag is the persistent flag naming the history directory.
const dataDirFlag = "data-dir"

// dataDir returns the history database that cmd's --data-dir names
// (DIR/runnel.db), else store.DefaultPath().
func dataDir(cmd *cobra.Command) (string, error) {
	if f := cmd.Flag(dataDirFlag); f != nil && f.Value.String() != "" {
		return filepath.Join(f.Value.String(), "runnel.db"), nil
	}
	return store.DefaultPath()
}

// openHistory opens the store at the data dir. When it is unavailable the
// chat still runs, without history, and the error says why.
func openHistory(o options) (*store.DB, error) {
	if o.dbPathErr != nil {
		return nil, o.dbPathErr
	}
	return store.Open(o.dbPath)
}

// addSessionCommands adds the history commands (ui/sessions) and the
// persistent --data-dir flag to root.
func addSessionCommands(ctx context.Context, root *cobra.Command, stdin io.Reader, stdout, stderr io.Writer) {
	historyCommands(ctx, stdin, stdout, stderr, isTerminal).Add(root)
}

// historyCommands are the history commands wired to main's store, config
// and exit statuses.
func historyCommands(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, terminal func(any) bool) *sessions.Commands {
	return &sessions.Commands{
		Ctx: ctx, Stdin: stdin, Stdout: stdout, Stderr: stderr, Terminal: terminal, Now: time.Now,
		DataDirFlag: dataDirFlag, DataDir: dataDir, Exit: historyExit,
		Prices: func(cmd *cobra.Command) models.Table {
			path, _ := cmd.Flags().GetString("config")
			cfg, _ := loadConfig(options{configPath: path}) // a bad config leaves the built-in prices
			return cfg.ModelTable()
		},
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
