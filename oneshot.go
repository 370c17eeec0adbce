package main

// This file is the one-shot prompt (-p, or text piped on stdin) and the
// replay command: both stream into one of the output formats.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"runnel/session"
	"runnel/session/demo"
	"runnel/session/tools"
	"runnel/stream"
)

const maxStdinPrompt = 16 << 20

func oneShot(ctx context.Context, o options, cfg Config, s Settings, stdin io.Reader, stdout, stderr io.Writer) int {
	prompt := o.prompt
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
		if ctxText := strings.TrimRight(string(data), "\n"); ctxText != "" {
			if prompt == "" {
				prompt = ctxText
			} else {
				prompt = ctxText + "\n\n" + prompt
			}
		}
	}
	if strings.TrimSpace(prompt) == "" {
		warnf(stderr, "no prompt: give -p PROMPT or pipe text on stdin (run runnel on a terminal for the chat)")
		return exitUsage
	}
	kit, err := newToolKit(ctx, cfg, o.tools, stderr)
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return exitUsage
	}
	defer kit.close()
	client, label := newClient(s, o.demo)
	if label == "demo" {
		warnf(stderr, "no API key configured — answering with the built-in demo provider (set OPENAI_API_KEY, or base_url in config)")
	}
	hooks := tools.Hooks{}
	if o.yes {
		hooks.Approve = tools.AutoApprove
	}
	runner := tools.NewRunner(kit.config, kit.mcp, hooks)
	reqTools, err := runner.RequestTools(kit.on, os.Getenv)
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return exitUsage
	}
	conv := &session.Conversation{Settings: sessionSettings(s)}
	p := newPrinter(o, stdout, stderr)
	var last *stream.Accumulator
	var lastErr error
	send := func(ctx context.Context, step tools.Step) (*stream.Snapshot, error) {
		text := ""
		if step.Round == 0 {
			text = prompt
		}
		turn := conv.Begin(text, step.Input...)
		req := turn.Request
		req.Tools = reqTools // secrets resolved for this request only
		turn.Request.Tools = tools.Redact(reqTools)
		// the answer is kept (bounded by the limit): later rounds may resend
		// it (store = false), and the turn holds it
		acc, err := drive(stream.Start(ctx, client, req), &stream.Accumulator{Limit: s.MaxResponseBytes}, p, stderr)
		conv.Finish(turn, acc.Responses(), err, false)
		last, lastErr = acc, err
		return acc.Current(), err
	}
	stop, _ := tools.Drive(ctx, tools.NewLoop(kit.config.Rounds()), runner, []json.RawMessage{stream.UserText(prompt)}, send, func(rs []tools.Result) {
		for _, r := range rs {
			if r.Notice != "" {
				warnf(stderr, "%s", stream.SanitizeLine(r.Notice))
			}
		}
	})
	p.close()
	if stop != "" {
		warnf(stderr, "%s", stream.SanitizeLine(stop))
	}
	if last == nil {
		last = &stream.Accumulator{}
	}
	return report(last, lastErr, stderr)
}

func replayCommand(ctx context.Context, o options, file string, stdin io.Reader, stdout, stderr io.Writer) int {
	if o.format != "" && !validFormat(o.format) {
		warnf(stderr, "unknown --format %q: use one of %s", o.format, strings.Join(formats, ", "))
		return exitUsage
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
	p := newPrinter(o, stdout, stderr)
	acc := &stream.Accumulator{Limit: limit, DropText: streamsText(o.format)}
	acc, err := drive(stream.StartReader(ctx, r, 0), acc, p, stderr)
	p.close()
	if err != nil && len(acc.Responses()) == 0 {
		warnf(stderr, "cannot read %s: %s", file, errLine(err))
		return exitUsage
	}
	return report(acc, err, stderr)
}

// replayLimit is the response limit from the config (max_response_bytes),
// read without resolving the rest of it: a replay sends nothing.
func replayLimit(o options, stderr io.Writer) (int, int) {
	path, explicit := o.configPath, o.configPath != ""
	if !explicit {
		path = DefaultConfigPath()
	}
	cfg, err := LoadConfig(path, explicit)
	if err != nil {
		fmt.Fprintf(stderr, "runnel: %s\n", err)
		return 0, exitUsage
	}
	return responseLimit(cfg), exitOK
}

// streamsText reports whether a replay format prints message text as it
// passes and needs no snapshot of it: text, markdown and events. Their
// accumulator drops delta text (stream.Accumulator.DropText), so a replay of
// any length runs in bounded memory; ansi and json keep the text, bounded by
// the limit.
func streamsText(format string) bool {
	switch format {
	case "", formatText, formatMarkdown, formatEvents: // "" off a terminal is markdown
		return true
	}
	return false
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// newPrinter picks the output format.
func newPrinter(o options, stdout, stderr io.Writer) printer {
	format := o.format
	if format == "" {
		format = formatMarkdown
		if isTerminal(stdout) {
			format = formatANSI
		}
	}
	switch format {
	case formatJSON:
		enc := json.NewEncoder(jsonSafeWriter{stdout})
		enc.SetEscapeHTML(false)
		return &jsonPrinter{enc: enc}
	case formatEvents:
		enc := json.NewEncoder(jsonSafeWriter{stdout})
		enc.SetEscapeHTML(false)
		return &eventsPrinter{enc: enc}
	case formatText:
		return newTextPrinter(stdout, stderr, true)
	case formatANSI:
		return newANSIPrinter(stdout, stderr, o.width)
	}
	return newTextPrinter(stdout, stderr, false)
}

// newClient returns the client for the settings, and "demo" when the built-in
// demo provider answers.
func newClient(s Settings, forceDemo bool) (*stream.Client, string) {
	if forceDemo || s.Demo() {
		return &stream.Client{
			BaseURL: demo.BaseURL,
			HTTP:    &http.Client{Transport: demo.New(demo.Options{Speed: 1})},
		}, "demo"
	}
	return &stream.Client{
		BaseURL:     s.BaseURL,
		APIKey:      s.APIKey,
		Headers:     s.Headers,
		MaxRetries:  retriesOrNone(s.MaxRetries),
		IdleTimeout: s.IdleTimeout,
		HTTP:        connectClient(s.ConnectTimeout),
	}, s.BaseURL
}

// retriesOrNone maps the config's "0 = never" onto the client's "negative =
// none".
func retriesOrNone(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

func connectClient(timeout time.Duration) *http.Client {
	if timeout <= 0 {
		return nil
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSHandshakeTimeout = timeout
	return &http.Client{Transport: t}
}

func sessionSettings(s Settings) session.Settings {
	return session.Settings{
		Model:            s.Model,
		Instructions:     s.Instructions,
		ReasoningEffort:  s.ReasoningEffort,
		ReasoningSummary: s.ReasoningSummary,
		Store:            s.Store,
	}
}
