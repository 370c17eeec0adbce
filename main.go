// Command runnel is a terminal chat client for the OpenAI Responses API and
// every server that speaks it.
//
// With no arguments on a terminal it opens the chat (package ui). With -p, or
// with text piped on stdin, it answers one prompt and exits. `runnel replay`
// reads a recorded stream. This package only parses flags, loads the config
// and wires the packages together.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"runnel/session"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// options are the command line.
type options struct {
	prompt, model, instructions, effort, baseURL string
	configPath, format                           string
	width                                        int
	speed                                        float64
	demo, yes, continueLast                      bool
	resumeID                                     string
	dbPath                                       string // the history database (--data-dir)
	dbPathErr                                    error
	promptSet                                    bool
	tools                                        []string // --tool: exactly these tools are on
}

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var o options
	status := exitOK
	root := &cobra.Command{
		Use:   "runnel [-p PROMPT]",
		Short: "A terminal chat client for the OpenAI Responses API",
		Long: "runnel streams answers from the OpenAI Responses API (and every server that speaks it)\n" +
			"with live markdown, tool and MCP panels and reasoning summaries.\n\n" +
			"With no arguments it opens the chat. With no API key configured it uses a built-in demo.",
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.promptSet = cmd.Flags().Changed("prompt")
			o.dbPath, o.dbPathErr = dataDir(cmd)
			status = root(ctx, o, stdin, stdout, stderr)
			return nil
		},
	}
	f := root.Flags()
	f.StringVarP(&o.prompt, "prompt", "p", "", "answer one prompt and exit (stdin, if piped, is context placed before it)")
	addModelFlags(&o, root)
	f.BoolVar(&o.demo, "demo", false, "use the built-in demo provider")
	f.BoolVarP(&o.continueLast, "continue", "c", false, "continue the most recent session")
	f.StringVarP(&o.resumeID, "resume", "r", "", "resume a session by id (a unique prefix works; see runnel sessions)")
	f.BoolVar(&o.yes, "yes", false, "with -p: run local tools that ask for approval without asking")
	f.StringArrayVar(&o.tools, "tool", nil, "turn on only this tool for the session (repeatable; names from the config's tools, functions and mcp_servers)")
	root.PersistentFlags().StringVar(&o.configPath, "config", "", "config file (default $XDG_CONFIG_HOME/runnel/config.toml)")
	root.PersistentFlags().StringVar(&o.format, "format", "", "output format: ansi, markdown, text, json or events (default ansi on a terminal, else markdown)")
	root.PersistentFlags().IntVar(&o.width, "width", 0, "wrap width for ansi output (default: the terminal's, else 100)")

	replay := &cobra.Command{
		Use:   "replay FILE",
		Short: "Read a recorded Responses SSE stream (a file, or - for stdin) and print the result",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, a []string) error {
			status = replayCommand(ctx, o, a[0], stdin, stdout, stderr)
			return nil
		},
	}
	replay.Flags().Float64Var(&o.speed, "speed", 1, "playback speed in the chat view (2 = twice as fast)")
	root.AddCommand(replay)
	addSessionCommands(ctx, root, stdin, stdout, stderr, &status)

	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := root.Execute(); err != nil {
		fmt.Fprintf(stderr, "runnel: %s (see runnel --help)\n", strings.TrimSpace(err.Error()))
		return exitUsage
	}
	return status
}

func addModelFlags(o *options, cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.model, "model", "", "model to use (default from config, else "+DefaultModel+")")
	f.StringVar(&o.instructions, "instructions", "", "instructions sent with each request")
	f.StringVar(&o.effort, "reasoning-effort", "", "reasoning effort: "+strings.Join(session.ReasoningEfforts, ", "))
	f.StringVar(&o.baseURL, "base-url", "", "API base URL (default $OPENAI_BASE_URL, else "+DefaultBaseURL+")")
}

// root runs the chat or a one-shot prompt.
func root(ctx context.Context, o options, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, settings, code := loadSettings(o, stderr)
	if code != exitOK {
		return code
	}
	if o.format != "" && !validFormat(o.format) {
		warnf(stderr, "unknown --format %q: use one of %s", o.format, strings.Join(formats, ", "))
		return exitUsage
	}
	if o.promptSet || !isTerminal(stdin) || !isTerminal(stdout) {
		return oneShot(ctx, o, cfg, settings, stdin, stdout, stderr)
	}
	return chat(ctx, o, cfg, settings, stdout, stderr)
}

func loadSettings(o options, stderr io.Writer) (Config, Settings, int) {
	path, explicit := o.configPath, o.configPath != ""
	if !explicit {
		path = DefaultConfigPath()
	}
	cfg, err := LoadConfig(path, explicit)
	if err != nil {
		fmt.Fprintf(stderr, "runnel: %s\n", err)
		return cfg, Settings{}, exitUsage
	}
	s, err := cfg.Resolve(os.Getenv, Overrides{BaseURL: o.baseURL, Model: o.model, Instructions: o.instructions, ReasoningEffort: o.effort})
	if err != nil {
		fmt.Fprintf(stderr, "runnel: %s\n", err)
		return cfg, Settings{}, exitUsage
	}
	return cfg, s, exitOK
}

func validFormat(f string) bool {
	for _, x := range formats {
		if f == x {
			return true
		}
	}
	return false
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	st, err := file.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
