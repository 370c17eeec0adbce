package main

// This file is the one-shot prompt (-p, or text piped on stdin) and the
// replay command: both stream into one of the output formats.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"runnel/session"
	"runnel/session/attach"
	"runnel/session/config"
	"runnel/session/store"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/httppolicy"
	"runnel/ui/output"
)

const maxStdinPrompt = 16 << 20

func oneShot(ctx context.Context, o options, cfg config.Config, s config.Settings, stdin io.Reader, stdout, stderr io.Writer) int {
	prompt, tmplFiles, override, code := templatePrompt(o, stderr) // -t NAME (prompts_cmd.go)
	if code != exitOK {
		return code
	}
	o.files = append(tmplFiles, o.files...)
	var piped *attach.File // stdin: sent as a text file, never the prompt (title, history)
	if !isTerminal(stdin) {
		data, err := io.ReadAll(io.LimitReader(stdin, maxStdinPrompt+1))
		if err != nil {
			warnf(stderr, "cannot read stdin: %s", errLine(err))
			return exitUsage
		}
		if len(data) > maxStdinPrompt {
			warnf(stderr, "stdin is larger than %d MiB — pass a smaller input", maxStdinPrompt>>20)
			return exitUsage
		}
		if text := strings.TrimRight(string(data), "\n"); strings.TrimSpace(text) != "" {
			piped = stdinFile(text)
		}
	}
	if strings.TrimSpace(prompt) == "" && len(o.files) == 0 && piped == nil {
		warnf(stderr, "no prompt: give -p PROMPT or pipe text on stdin (run runnel on a terminal for the chat)")
		return exitUsage
	}
	sch, code := loadAnswerSchema(o, stderr) // answer.go: before anything is sent
	if code != exitOK {
		return code
	}
	// A script must not take the demo's answer for a real one. A continued
	// session is on its own provider, which is known once it is read.
	demoRefused := func(s config.Settings) bool {
		if s.Demo() && !o.demo {
			warnf(stderr, "no API key: set $%s, or provider.api_key_command in the config (or pass --demo for the built-in demo)", cfg.APIKeyEnv())
			return true
		}
		return false
	}
	resuming := o.continueLast || o.resumeID != ""
	if !resuming && demoRefused(s) {
		return exitUsage
	}
	if !resuming {
		s = s.WithDemo(o.demo)
	}
	conv := &session.Conversation{Settings: s.Session()}
	var journal *session.Journal
	var db *store.DB
	if resuming {
		var histErr error
		db, histErr = openHistory(o)
		if db != nil {
			defer db.Close()
		}
		sess, code := resumeTarget(o, db, histErr, stderr)
		if code != exitOK {
			return code
		}
		s = continueOn(o, cfg, s, sess, func(l string) { warnf(stderr, "%s", l) }).WithDemo(o.demo) // the session's provider (providers.go)
		if demoRefused(s) {
			return exitUsage
		}
		var probs []error
		conv, probs = session.FromStore(sess)
		for _, p := range probs {
			warnf(stderr, "warning: %s", errLine(p))
		}
		moved := config.ProviderSwitched(conv.Settings, s)
		if moved {
			conv.SwitchProvider() // --provider named another: its chain stays behind
		}
		if sess.Imported { // a file's settings steer nothing the config does not agree with
			var line string
			if conv.Settings, line = session.Foreign(conv.Settings, s.Session()); line != "" {
				warnf(stderr, "%s", line)
			}
		}
		conv.Settings = s.Resumed(conv.Settings, config.Overrides{Model: o.model, Instructions: o.instructions, ReasoningEffort: o.effort})
		journal = session.ResumeJournal(db, sess.Info.ID, conv.Settings)
		if moved {
			journal.SetSettings(conv.Settings) // the session is on that provider now
		}
		defer closeJournal(journal, stderr)
	} else if !o.noSave { // saved as a new session, which -c and -r continue
		var err error
		if db, err = openHistory(o); err != nil {
			warnf(stderr, "this run is not saved: %s (--no-save skips saving)", errLine(err))
		} else {
			defer db.Close()
			journal = session.NewJournal(db, conv.Settings)
			defer closeJournal(journal, stderr)
		}
	}
	cfg.MCPAuthDir = mcpAuthDir(o) // saved MCP logins (runnel mcp login)
	var refused atomic.Bool        // an MCP server the HTTP policy refused (mcpRefused)
	kit, err := cfg.StartTools(ctx, o.tools,
		func(err error) {
			if mcpRefused(err) {
				refused.Store(true)
				warnf(stderr, "%s (nothing was sent to the model)", errLine(err))
				return
			}
			warnf(stderr, "%s", errLine(err))
		},
		func(name string) { warnf(stderr, "starting MCP server %s…", stream.SanitizeLine(name)) })
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return exitUsage
	}
	defer kit.Close()
	if refused.Load() {
		return exitUsage
	}
	client, label := s.Client(o.demo)
	kit.Attach(client, s)
	if db != nil {
		db.SetSecrets(kit.Secrets) // before the first write
	}
	_ = label
	files, err := attach.Load(o.files, s.Attach, kit.Secrets.String) // all or none, before anything is sent
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return exitUsage
	}
	if piped != nil {
		piped.Data = []byte(kit.Secrets.String(string(piped.Data))) // as a file's text is
		files = append([]*attach.File{piped}, files...)
	}
	conv.Project, _ = oneShotAgents(o, stderr) // AGENTS.md (agents.go)
	conv.Override = override                   // -t: the prompt file's instructions, model, effort and tools
	hooks := tools.Hooks{Secrets: kit.Secrets}
	if o.yes {
		hooks.Approve = tools.AutoApprove
	}
	runner := tools.NewRunner(kit.Config, kit.MCP, hooks)
	reqTools, err := runner.RequestTools(kit.On, os.Getenv)
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return exitUsage
	}
	if sch != nil {
		conv.Format = sch.Format
	}
	out := stdout
	if sch != nil {
		out = io.Discard // only the JSON, once checked (finishAnswer)
	}
	p := output.New(o.format, out, stderr, o.width, imageSink(o, o.saveImages), o.saveImages)
	engine := session.NewEngine(client.BaseURL, providerMemory(o)) // the turn's rules: what is resent, what is remembered
	var last *stream.Accumulator
	var lastErr error
	send := func(ctx context.Context, step tools.Step) (*stream.Snapshot, error) {
		text := ""
		if step.Round == 0 {
			text = prompt
		}
		if err := startConversation(ctx, client, conv, journal, stderr); err != nil { // state = "conversation" (conversation.go)
			lastErr = err
			return nil, err
		}
		turn := conv.Begin(text, step.Input...)
		realTools := override.FilterTools(reqTools) // secrets resolved for the requests only
		turn.Request.Tools = tools.Redact(realTools)
		var log *session.TurnLog
		a := engine.Next(session.Event{Kind: session.Sent, Conv: conv, Turn: turn, Now: time.Now()})
		if journal != nil {
			log = journal.Begin(turn)
		}
		// the answer is kept (bounded by the limit): later rounds may resend
		// it (store = false), and the turn holds it
		acc, err := runTurn(ctx, engine, a, func(req stream.Request, guard func(*stream.Snapshot, bool) bool) (*stream.Accumulator, error) {
			req.Tools = realTools
			return drive(stream.Start(ctx, client, req), &stream.Accumulator{Limit: s.MaxResponseBytes}, p, stderr, guard)
		}, log, turn, sayOn(stderr))
		tierNotices(turn, acc, stderr)
		if log != nil {
			log.End(time.Now(), turn) // also after SIGINT or SIGTERM: what came is saved
		}
		last, lastErr = acc, err
		return acc.Current(), err
	}
	stop, _ := tools.Drive(ctx, tools.NewLoop(kit.Config.Rounds()), runner, []json.RawMessage{attach.Message(prompt, files, s.Attach)}, send, func(rs []tools.Result) {
		for _, r := range rs {
			if r.Notice != "" {
				warnf(stderr, "%s", stream.SanitizeLine(r.Notice))
			}
			p.Ran(last.Current(), r) // the call's summary says how its run ended
		}
	})
	p.Close()
	if stop != "" {
		warnf(stderr, "%s", stream.SanitizeLine(stop))
	}
	if last == nil {
		last = &stream.Accumulator{}
	}
	return finishAnswer(o, sch, last, report(last, lastErr, stderr), stdout, stderr)
}

// mcpRefused reports whether err is an MCP server's start that the HTTP
// policy refused: it redirected runnel to another origin (or pointed it at
// one). -p then stops before sending anything, with exit status 2: the
// config names a server that is not where it says, and an answer without
// its tools would pass for a good one. Any other server that fails to
// start is one line, and the prompt goes without its tools, as in the
// chat.
func mcpRefused(err error) bool { return httppolicy.Cause(err) != nil }

// stdinName is the name piped stdin is sent and shown under: a text
// file the prompt refers to, as -f's are.
const stdinName = "stdin"

// stdinFile is piped stdin as a text attachment: sent in the prompt's
// message like an -f file, shown as a chip on resume, and kept out of the
// session's title and the prompt history, which come from the prompt.
func stdinFile(text string) *attach.File {
	return &attach.File{Path: stdinName, Name: stdinName, Kind: attach.Text, MIME: "text/plain", Size: int64(len(text)), Data: []byte(text)}
}

// closeJournal writes what is queued and reports failed writes.
func closeJournal(j *session.Journal, stderr io.Writer) {
	j.Close()
	for {
		select {
		case err := <-j.Errors():
			warnf(stderr, "cannot save the turn: %s", errLine(err))
		default:
			return
		}
	}
}

func replayCommand(ctx context.Context, o options, file string, stdin io.Reader, stdout, stderr io.Writer) int {
	if o.format != "" && !output.Valid(o.format) {
		return badFormat(stderr, o.format)
	}
	var r io.Reader = stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			warnf(stderr, "cannot read %s: %s", file, errLine(unwrapPath(err)))
			return exitUsage
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			warnf(stderr, "cannot read %s: it is a directory — give a .sse file", file)
			return exitUsage
		}
		r = f
	}
	limit, code := replayLimit(o, stderr)
	if code != exitOK {
		return code
	}
	if o.format == "" && isTerminal(stdout) {
		return replayChat(ctx, o, r, limit, stdout, stderr)
	}
	p := output.New(o.format, stdout, stderr, o.width, imageSink(o, o.saveImages), o.saveImages)
	acc := &stream.Accumulator{Limit: limit, DropText: output.StreamsText(o.format)}
	acc, err := drive(stream.StartReader(ctx, r, 0), acc, p, stderr, nil)
	p.Close()
	if err != nil && len(acc.Responses()) == 0 {
		warnf(stderr, "cannot read %s: %s", file, errLine(err))
		return exitUsage
	}
	return report(acc, err, stderr)
}

// replayLimit is the response limit from the config (max_response_bytes),
// read without resolving the rest of it: a replay sends nothing.
func replayLimit(o options, stderr io.Writer) (int, int) {
	n, err := config.ResponseLimitAt(o.configPath)
	if err != nil {
		fmt.Fprintf(stderr, "runnel: %s\n", err)
		return 0, exitUsage
	}
	return n, exitOK
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
