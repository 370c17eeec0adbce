package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"runnel/ui/modellist"
)

// addModelsCommand wires `runnel models` (package ui/modellist).
func addModelsCommand(ctx context.Context, root *cobra.Command, stdout, stderr io.Writer) {
	var o options
	cmd := modellist.Command(func(cmd *cobra.Command) (modellist.Env, error) {
		o.dbPath, o.dbPathErr = dataDir(cmd)
		o.configPath, _ = cmd.Flags().GetString("config")
		cfg, s, code := loadSettings(o, stderr)
		client, label := s.Client(o.demo)
		e := modellist.Env{Ctx: ctx, Stdout: stdout, Stderr: stderr, Lister: s.ModelLister(client, label, o.dbPath, o.dbPathErr), Table: cfg.ModelTable(), Configured: s.Model}
		return e, exitWith(code)
	})
	addModelFlags(&o, cmd)
	cmd.Flags().BoolVar(&o.demo, "demo", false, "use the built-in demo provider (it has no list)")
	root.AddCommand(cmd)
}
