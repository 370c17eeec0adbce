package main

// This file holds the flags several commands share, each added as a local
// flag of the commands it means something to: --config and --override where
// the config is read, --data-dir where the history or the data directory is
// used, and --format, --width and --save-images where an answer is printed.
// None is persistent, so `runnel CMD --help` lists only what CMD reads and
// any other flag is an error naming the command.

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"runnel/ui/output"
)

// configFlags adds --config and --override (what -c key=value becomes),
// bound to o.
func configFlags(cmd *cobra.Command, o *options) {
	f := cmd.Flags()
	f.StringVar(&o.configPath, "config", "", "config file (default $XDG_CONFIG_HOME/runnel/config.toml)")
	f.StringArrayVar(&o.overrides, "override", nil, "set a config key for this run, as -c key=value does: -c model=gpt-5 -c reasoning.effort=high (repeatable)")
}

// configPathFlag adds --config alone, for a command that reads one key of
// the config and takes no overrides.
func configPathFlag(cmd *cobra.Command, o *options) {
	cmd.Flags().StringVar(&o.configPath, "config", "", "config file (default $XDG_CONFIG_HOME/runnel/config.toml)")
}

// dataDirFlags adds --data-dir, the directory of the history and of what
// runnel saves (see dataDir).
func dataDirFlags(cmd *cobra.Command) {
	cmd.Flags().String(dataDirFlag, "", "directory of the session history (default $XDG_DATA_HOME/runnel)")
}

// widthFlag adds --width, checked by checkWidth before the command runs.
func widthFlag(f *pflag.FlagSet, p *int, usage string) {
	f.IntVar(p, "width", 0, fmt.Sprintf(usage+", 1 to %d (default: the terminal's, else 100)", maxFlagWidth))
}

// outputFlags adds --format, --width and --save-images, bound to o, and
// completes --format.
func outputFlags(cmd *cobra.Command, o *options) {
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "", "output format: ansi, markdown, text, json or events (default ansi on a terminal, else markdown)")
	widthFlag(f, &o.width, "wrap width for ansi output")
	f.BoolVar(&o.saveImages, "save-images", false, "write generated images under the data directory (DIR/images); the chat always does")
	cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(output.Formats, cobra.ShellCompDirectiveNoFileComp))
}

// checkWidth is every command's PersistentPreRunE: a --width out of range
// is a usage error before anything runs.
func checkWidth(cmd *cobra.Command, _ []string) error {
	if cmd.Flags().Lookup("width") == nil {
		return nil
	}
	w, _ := cmd.Flags().GetInt("width")
	if w < 0 || w > maxFlagWidth {
		return usageErrorf("--width %d: want 1 to %d (0: the terminal's width)", w, maxFlagWidth)
	}
	return nil
}

// flagError is a flag's usage error, naming the command whose help lists
// the flags it takes.
func flagError(cmd *cobra.Command, err error) error {
	return usageErrorf("%s (see %s --help)", err, cmd.CommandPath())
}
