package main

// This file wires `runnel models` to cobra: its flags, and the config and
// provider it lists for. Package ui/modellist prints the list.

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"runnel/ui/modellist"
)

// addModelsCommand adds `runnel models` to root.
func addModelsCommand(ctx context.Context, root *cobra.Command, stdout, stderr io.Writer) {
	var o options
	var refresh bool
	var format *listFormat
	cmd := &cobra.Command{
		Use:   "models",
		Short: "List the provider's models (GET /models, cached a day) with context windows and prices",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.dbPath, o.dbPathErr = dataDir(cmd)
			cfg, s, code := loadSettings(o, stderr)
			if err := exitWith(code); err != nil {
				return err
			}
			asJSON, err := format.JSON()
			if err != nil {
				return err
			}
			client, label := s.Client(o.demo)
			e := modellist.Env{Ctx: ctx, Stdout: stdout, Stderr: stderr, Lister: s.ModelLister(client, label, o.dbPath, o.dbPathErr), Table: cfg.ModelTable(), Configured: s.Model}
			return e.Run(asJSON, refresh)
		},
	}
	format = addListFormat(cmd, "one model with its window and prices (null when unknown)")
	cmd.Flags().BoolVar(&refresh, "refresh", false, "ask the server even when the cached list is fresh")
	addModelFlags(&o, cmd)
	configFlags(cmd, &o)
	dataDirFlags(cmd) // the cached lists are kept there
	cmd.Flags().BoolVar(&o.demo, "demo", false, "use the built-in demo provider (it has no list)")
	root.AddCommand(cmd)
}
