package ui

import (
	"context"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/stream"
)

// Options configure the chat.
type Options struct {
	Client   *stream.Client
	Provider string // "demo" for the built-in provider, else the base URL
	Settings session.Settings
	Theme    string // auto, dark or light
	NoColor  bool

	// Replay, when set, plays a recorded stream instead of chatting.
	Replay      io.Reader
	ReplayPace  time.Duration
	Input       io.Reader // nil: the terminal
	Output      io.Writer // nil: stdout
	WindowWidth int       // for tests without a terminal
}

// Run runs the chat until the user quits.
func Run(ctx context.Context, o Options) error {
	m := New(ctx, o)
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if o.Input != nil {
		opts = append(opts, tea.WithInput(o.Input))
	}
	if o.Output != nil {
		opts = append(opts, tea.WithOutput(o.Output))
	}
	if o.NoColor || os.Getenv("NO_COLOR") != "" {
		m.noColor = true
	}
	_, err := tea.NewProgram(m, opts...).Run()
	if err == tea.ErrProgramKilled && ctx.Err() != nil {
		return nil
	}
	return err
}
