package main

// This file starts the chat (package ui) and its styled printer for
// --format ansi.

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"runnel/session/store"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui"
	"runnel/ui/block"
)

// chat opens the interactive chat: with the history (unless the store is
// unavailable: then it runs without, and says so), the tools, and a session
// to resume for -c / -r.
func chat(ctx context.Context, o options, cfg Config, s Settings, stdout, stderr io.Writer) int {
	kit, err := newToolKit(ctx, cfg, o.tools, stderr)
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return exitUsage
	}
	defer kit.close()
	db, histErr := openHistory(o)
	if db != nil {
		defer db.Close()
	}
	resume, code := resumeTarget(o, db, histErr, stderr)
	if code != exitOK {
		return code
	}
	client, label := newClient(s, o.demo)
	res, err := ui.Run(ctx, ui.Options{
		Client:     client,
		Provider:   label,
		Settings:   sessionSettings(s),
		Theme:      s.Theme,
		NoColor:    os.Getenv("NO_COLOR") != "",
		LLMTitle:   s.LLMTitle,
		DB:         db,
		HistoryErr: histErr,
		Resume:     resume,
		Tools:      &ui.Tools{Config: kit.config, MCP: kit.mcp, Enabled: kit.enabled},

		MaxResponseBytes: s.MaxResponseBytes,
	})
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

		MaxResponseBytes: limit,
	})
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return exitFailure
	}
	return exitOK
}

// ansiPrinter adapts the chat's block printer to an output format.
type ansiPrinter struct{ p *block.Printer }

func (a ansiPrinter) event(ev *stream.Event, s *stream.Snapshot, it *stream.Item) {
	a.p.Event(ev, s, it)
}
func (a ansiPrinter) response(s *stream.Snapshot) { a.p.Response(s) }
func (a ansiPrinter) close()                      { a.p.Close() }

// newANSIPrinter is the styled format, drawn by the same blocks as the chat.
func newANSIPrinter(stdout, stderr io.Writer, width int) printer {
	dark := true
	f, isFile := stdout.(*os.File)
	if isFile && isTerminal(f) {
		dark = theme.DetectDark(os.Stdin, f)
		if width == 0 {
			width = terminalWidth(f)
		}
	}
	if width <= 0 {
		width = 100
	}
	st := theme.New(theme.Pick(dark, os.Getenv("NO_COLOR") != "", ""))
	return ansiPrinter{block.NewPrinter(stdout, width, &st)}
}

// terminalWidth returns the terminal's width, 0 if unknown.
func terminalWidth(f *os.File) int {
	w, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return w
}
