package main

// This file starts the chat (package ui).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"runnel/session/attach"
	"runnel/session/config"
	"runnel/session/images"
	"runnel/session/regfile"
	"runnel/session/store"
	"runnel/stream"
	"runnel/ui"
)

// chat opens the interactive chat: with the history (unless the store is
// unavailable: then it runs without, and says so), the tools, and a session
// to resume for -c / -r.
func chat(ctx context.Context, o options, cfg config.Config, s config.Settings, stdout, stderr io.Writer) int {
	if err := ui.CheckTheme(cfg.ThemesDir(), s.Theme); err != nil { // the config's theme file: exit 2, as for the config
		warnf(stderr, "%s", errLine(err))
		return exitUsage
	}
	cfg.MCPAuthDir = mcpAuthDir(o) // saved MCP logins (runnel mcp login)
	kit, err := cfg.StartChatTools(ctx, o.tools)
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return exitUsage
	}
	defer kit.Close()
	db, histErr := openHistory(o)
	if db != nil {
		db.SetSecrets(kit.Secrets) // the provider's are added below, before any write
		defer db.Close()
	}
	resume, code := resumeTarget(o, db, histErr, stderr)
	if code != exitOK {
		return code
	}
	// -c / -r go on on the session's provider unless --provider names one
	s = continueOn(o, cfg, s, resume, func(line string) { warnf(stderr, "%s", line) }).WithDemo(o.demo)
	client, label := s.Client(o.demo)
	kit.Attach(client, s)
	if err := attach.CheckAll(o.files, s.Attach); err != nil { // -f: the first message's chips
		warnf(stderr, "%s", errLine(err))
		return exitUsage
	}
	// Bubble Tea handles SIGINT and SIGTERM itself and quits cleanly; a
	// cancelled context can leave v2.0.10 waiting on its input reader.
	res, err := ui.Run(context.WithoutCancel(ctx), ui.Options{
		Client:     client,
		Provider:   label,
		Settings:   s.Session(),
		Theme:      s.Theme,
		NoColor:    os.Getenv("NO_COLOR") != "",
		LLMTitle:   s.LLMTitle,
		DB:         db,
		HistoryErr: histErr,
		Resume:     resume,
		Keys:       cfg.Keymap(),
		Tools:      &ui.Tools{Config: kit.Config, MCP: kit.MCP, Enabled: kit.Enabled, Secrets: kit.Secrets, Reports: kit.Reports},
		Images:     imageSink(o, true),
		Models:     s.ModelLister(client, label, o.dbPath, o.dbPathErr),
		Providers:  providerSwitch(o, cfg, kit), // also from the demo: /provider ollama leaves it
		Prices:     cfg.ModelTable(),
		Prompts:    chatPrompts(o), // /NAME (prompts_cmd.go)
		Agents:     chatAgents(o),  // AGENTS.md (agents.go)
		Notify:     ui.Notify{Mode: cfg.Notify, After: cfg.NotifyAfter.Duration, Command: cfg.NotifyCommand, Hidden: cfg.SecretEnv()},
		StatusLine: ui.StatusLine{Items: cfg.StatusLine.Items, Command: cfg.StatusLine.Command},
		ThemesDir:  cfg.ThemesDir(),

		MaxResponseBytes: s.MaxResponseBytes,
		Attach:           s.Attach,
		Files:            o.files,
	})
	if o.lastMessage != "" { // --output-last-message: the chat's last answer too
		if werr := regfile.WritePrivate(o.lastMessage, []byte(res.LastAnswer)); werr != nil {
			warnf(stderr, "cannot write the last message to %s: %s", stream.SanitizeLine(o.lastMessage), errLine(unwrapPath(werr)))
		}
	}
	if errors.Is(err, ui.ErrInterrupted) || err != nil && ctx.Err() != nil { // saved as on quit
		if res.SessionID != "" {
			fmt.Fprintf(stdout, "resume this session with: runnel -r %s\n", res.SessionID)
		}
		return exitInterrupt
	}
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return exitFailure
	}
	if res.SessionID != "" {
		fmt.Fprintf(stdout, "resume this session with: runnel -r %s\n", res.SessionID)
	}
	return exitOK
}

// resumeTarget loads the session -c or -r asks for.
func resumeTarget(o options, db *store.DB, histErr error, stderr io.Writer) (*store.Session, int) {
	if !o.continueLast && o.resumeID == "" {
		return nil, exitOK
	}
	if db == nil {
		warnf(stderr, "cannot resume: %s", errLine(histErr))
		return nil, exitFailure
	}
	var id store.SessionID
	var err error
	if o.continueLast {
		id, err = db.Latest()
	} else {
		id, err = db.Resolve(o.resumeID)
	}
	if err != nil {
		warnf(stderr, "%s — list sessions with: runnel sessions", errLine(err))
		return nil, exitUsage
	}
	sess, warns, err := db.Load(id)
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return nil, exitFailure
	}
	for _, w := range warns {
		warnf(stderr, "warning: %s", errLine(w))
	}
	return sess, exitOK
}

// replayPace is the pace of a replay in the chat view at --speed 1: about
// what a fast model streams (recordings carry no timing).
const replayPace = 12 * time.Millisecond

// replayChat plays a recording in the chat view.
func replayChat(ctx context.Context, o options, r io.Reader, limit int, stdout, stderr io.Writer) int {
	pace := replayPace
	if o.speed > 0 {
		pace = time.Duration(float64(replayPace) / o.speed)
	}
	_, err := ui.Run(ctx, ui.Options{
		Provider:   "replay",
		Replay:     r,
		ReplayPace: pace,
		NoColor:    os.Getenv("NO_COLOR") != "",
		Images:     imageSink(o, o.saveImages),

		MaxResponseBytes: limit,
	})
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return exitFailure
	}
	return exitOK
}

// imageSink is where generated images go (see images.InDataDir).
func imageSink(o options, asked bool) images.Sink {
	return images.InDataDir(o.dbPath, o.dbPathErr, asked)
}
