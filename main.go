// Command runnel is a terminal chat client for the OpenAI Responses API and
// every server that speaks it.
//
// With no arguments on a terminal it opens the chat (package ui). With -p, or
// with text piped on stdin, it answers one prompt and exits. `runnel replay`
// reads a recorded stream; `runnel sessions …` manages the history;
// `runnel providers [check]` lists (and asks) the providers. This
// package only parses flags, loads the config (package session/config) and
// wires the packages together.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"runnel/session/config"
	"runnel/session/knob"
	"runnel/stream"
	"runnel/ui/memlimit"
	"runnel/ui/output"
)

func main() {
	tuneProcs(os.Getenv)
	memlimit.Tune(os.Getenv)
	stop := startProfile(os.Getenv)
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// maxFlagWidth is the widest --width accepted.
const maxFlagWidth = 1000

// options are the command line.
type options struct {
	prompt, model, instructions, effort, baseURL string
	provider                                     string // --provider NAME
	configPath, format                           string
	width                                        int
	speed                                        float64
	demo, yes, continueLast, saveImages, bg      bool
	resumeID                                     string
	dbPath                                       string // the history database (--data-dir)
	dbPathErr                                    error
	promptSet                                    bool
	tools                                        []string // --tool: exactly these tools are on
	files                                        []string // -f: attached to the prompt (or the chat's first message)
	overrides                                    []string // -c key=value (--override)
	noSave                                       bool     // --no-save: -p is not saved
	noProject                                    bool     // --no-project: the project's AGENTS.md and prompt files are not read
	template                                     string   // -t NAME: the -p prompt goes through that prompt file (prompts_cmd.go)
	schema                                       string   // --schema FILE|JSON: the -p answer follows this JSON Schema (answer.go)
	lastMessage                                  string   // --output-last-message FILE: -p writes the final answer there
	version                                      bool     // --version: print the version and exit
	demoSpeed                                    float64  // the built-in demo's speed (config.Settings.DemoSpeed): runDemoAt's, no flag
}

// run is main without the process: it returns the exit status. SIGINT
// stops the command (130). SIGTERM stops it too, lets it save, and makes the
// status 143 whatever the command returned; the chat is not cancelled by it
// but quits the way Bubble Tea quits on SIGTERM, saving as on /quit (a
// cancelled Bubble Tea v2.0.10 program can hang restoring its input).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runDemoAt(1, args, stdin, stdout, stderr)
}

// runDemoAt is run with the built-in demo answering at demoSpeed times its
// natural pace: the in-process tests run it fast, so they don't wait on
// the pacing that the built binary's tests (TestTmuxOneShot, the demo
// chat) see as a user does.
func runDemoAt(demoSpeed float64, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	chatCtx, stopInt := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stopInt()
	ctx, stopTerm := signal.NotifyContext(chatCtx, syscall.SIGTERM)
	defer stopTerm()
	root := newRoot(ctx, chatCtx, demoSpeed, stdin, stdout, stderr)
	sets := []*pflag.FlagSet{root.Flags()}
	for _, c := range root.Commands() {
		sets = append(sets, c.Flags())
	}
	root.SetArgs(config.ExpandOverrides(args, sets...))
	code := exitStatus(root.ExecuteContext(ctx), stderr)
	if ctx.Err() != nil && chatCtx.Err() == nil {
		return exitTerminated
	}
	return code
}

// newRoot builds the command tree. ctx ends on SIGINT and SIGTERM, chatCtx
// on SIGINT only. The demo answers at demoSpeed (runDemoAt).
func newRoot(ctx, chatCtx context.Context, demoSpeed float64, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := options{demoSpeed: demoSpeed}
	root := &cobra.Command{
		Use:   "runnel [-p PROMPT]",
		Short: "A terminal chat client for the OpenAI Responses API",
		Long: "runnel streams answers from the OpenAI Responses API (and every server that speaks it)\n" +
			"with live markdown, tool and MCP panels and reasoning summaries.\n\n" +
			"With no arguments it opens the chat. With no API key configured the chat uses a built-in demo;\n" +
			"-p and piped stdin need a key (or --demo).",
		Args:              cobra.NoArgs,
		SilenceUsage:      true,
		SilenceErrors:     true,
		PersistentPreRunE: checkWidth,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.version {
				_, err := fmt.Fprintln(stdout, "runnel", version())
				return err
			}
			o.promptSet = cmd.Flags().Changed("prompt") || o.template != "" // -t alone runs the prompt file's template
			o.dbPath, o.dbPathErr = dataDir(cmd)
			return exitWith(rootCommand(ctx, chatCtx, o, stdin, stdout, stderr))
		},
	}
	f := root.Flags()
	// --version is ours, not cobra's Version: cobra prints a custom version
	// line through text/template, whose reflective method calls make the
	// linker keep every exported method of every linked type (4.8 MB of
	// binary, 2 MB of resident memory at start-up; TestNoReflectMethodCalls)
	f.BoolVarP(&o.version, "version", "v", false, "version for runnel")
	f.StringVarP(&o.prompt, "prompt", "p", "", "answer one prompt and exit (stdin, if piped, goes with it as a text file named stdin)")
	addModelFlags(&o, root)
	f.BoolVar(&o.demo, "demo", false, "use the built-in demo provider")
	f.BoolVarP(&o.continueLast, "continue", "c", false, "continue the most recent session (with -p too); -c key=value overrides a config key instead")
	f.StringVarP(&o.resumeID, "resume", "r", "", "resume a session by id (a unique prefix works; see runnel sessions)")
	f.BoolVar(&o.yes, "yes", false, "with -p: run local tools that ask for approval without asking")
	f.StringArrayVarP(&o.files, "file", "f", nil, "attach a file (image, PDF or text) to the -p prompt or the chat's first message (repeatable)")
	f.StringArrayVar(&o.tools, "tool", nil, "turn on only this tool for the session (repeatable; names from the config's tools, functions and mcp_servers)")
	f.BoolVar(&o.noSave, "no-save", false, "with -p: do not save the run as a session")
	f.BoolVar(&o.noProject, "no-project", false, "leave out the project's AGENTS.md files and .runnel/prompts (the config directory's own are still used)")
	f.StringVarP(&o.template, "template", "t", "", "send -p through the prompt file NAME: its template, instructions, model and effort (runnel prompts lists them)")
	f.StringVar(&o.schema, "schema", "", "with -p: the answer follows this JSON Schema (a file, or the JSON itself); only the JSON is printed, and exit status 6 says it did not validate")
	f.StringVar(&o.lastMessage, "output-last-message", "", "write the final answer's text to this file (-p: its answer; the chat: the last answer, when it ends)")
	configFlags(root, &o)
	outputFlags(root, &o)
	dataDirFlags(root)
	root.SetFlagErrorFunc(flagError)

	replay := &cobra.Command{
		Use:   "replay FILE",
		Short: "Read a recorded Responses SSE stream (a file, or - for stdin) and print the result",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, a []string) error {
			o.dbPath, o.dbPathErr = dataDir(cmd)
			return exitWith(replayCommand(ctx, o, a[0], stdin, stdout, stderr))
		},
	}
	replay.Flags().Float64Var(&o.speed, "speed", 1, "playback speed in the chat view (2 = twice as fast)")
	outputFlags(replay, &o)
	configPathFlag(replay, &o) // max_response_bytes
	dataDirFlags(replay)       // --save-images writes there
	root.AddCommand(replay)
	addSessionCommands(ctx, root, stdin, stdout, stderr)
	addModelsCommand(ctx, root, stdout, stderr)
	addProvidersCommand(ctx, root, &o, stdout, stderr)
	addPromptsCommand(root, stdout, stderr)
	addMCPCommand(ctx, root, stdout)
	addCompletions(root, &o)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return root
}

func addModelFlags(o *options, cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.model, "model", "", "model to use (default from config, else "+config.DefaultModel+")")
	f.StringVar(&o.instructions, "instructions", "", "instructions sent with each request")
	f.StringVar(&o.effort, "reasoning-effort", "", "reasoning effort: "+strings.Join(knob.ReasoningEfforts, ", "))
	f.BoolVar(&o.bg, "background", false, "create responses in background mode, so a dropped stream resumes (config: background)")
	f.StringVar(&o.baseURL, "base-url", "", "API base URL (default $OPENAI_BASE_URL, else "+config.DefaultBaseURL+")")
	f.StringVar(&o.provider, "provider", "", "provider to use: a [providers.NAME] of the config or a built-in (runnel providers lists them)")
	completeModelFlags(cmd, o) // completion.go
}

// rootCommand runs the chat or a one-shot prompt.
func rootCommand(ctx, chatCtx context.Context, o options, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, settings, code := loadSettings(o, stderr)
	if code != exitOK {
		return code
	}
	if o.format != "" && !output.Valid(o.format) {
		return badFormat(stderr, o.format)
	}
	if o.promptSet || !isTerminal(stdin) || !isTerminal(stdout) {
		return oneShot(ctx, o, cfg, settings, stdin, stdout, stderr)
	}
	return chat(chatCtx, o, cfg, settings, stdout, stderr)
}

// loadConfig reads the config file --config names, else the default one.
func loadConfig(o options) (config.Config, error) {
	path, explicit := o.configPath, o.configPath != ""
	if !explicit {
		path = config.DefaultConfigPath()
	}
	cfg, err := config.LoadConfig(path, explicit)
	if err != nil {
		return cfg, err
	}
	cfg, err = cfg.Override(o.overrides, o.provider)
	if err == nil {
		stream.SetLimits(cfg.Bounds()) // the one table of bounds, before any input is read
	}
	return cfg, err
}

func loadSettings(o options, stderr io.Writer) (config.Config, config.Settings, int) {
	cfg, err := loadConfig(o)
	if err != nil {
		fmt.Fprintf(stderr, "runnel: %s\n", err)
		return cfg, config.Settings{}, exitUsage
	}
	s, err := cfg.Resolve(os.Getenv, o.configOverrides())
	if err != nil {
		fmt.Fprintf(stderr, "runnel: %s\n", err)
		return cfg, config.Settings{}, exitUsage
	}
	s.DemoSpeed = o.demoSpeed
	return cfg, s, exitOK
}

// configOverrides are the flags that override the config.
func (o options) configOverrides() config.Overrides {
	return config.Overrides{BaseURL: o.baseURL, Model: o.model, Instructions: o.instructions, ReasoningEffort: o.effort, Background: o.bg, Provider: o.provider}
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
