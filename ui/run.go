package ui

import (
	"context"
	"io"
	"os"
	"runnel/session/attach"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/images"
	"runnel/session/models"
	"runnel/session/store"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/ui/graphics"
)

// Options configure the chat.
type Options struct {
	Client   *stream.Client
	Provider string           // "demo" for the built-in provider, else the base URL
	Settings session.Settings // Settings.Provider names the provider (config)
	Theme    string           // auto, dark or light
	NoColor  bool
	LLMTitle bool // ask the model to title a new session after its first turn

	// History: DB is nil when there is none; HistoryErr then says why (shown
	// once). Resume is a stored session to continue.
	DB         *store.DB
	HistoryErr error
	Resume     *store.Session

	// MaxResponseBytes bounds the text one response may hold (config
	// max_response_bytes); 0 means session.DefaultResponseLimit. Past it the
	// chat stops reading, keeps what came and says so.
	MaxResponseBytes int

	// Tools: nil means none configured (function calls are still answered,
	// so the chain stays valid).
	Tools *Tools

	// Attach holds the attachment limits and image detail; Files are
	// attached to the first message (-f).
	Attach attach.Limits
	Files  []string

	// Images is where generated images are written; nil writes none (the
	// image panel says so).
	Images images.Sink

	// Models lists the provider's models for /model (a nil Client: none,
	// as for the demo); Prices is the table of context windows and prices
	// behind the status line's "ctx 42% · $0.01" (the zero Table is the
	// built-in one).
	Models models.Lister
	Prices models.Table

	// Providers lets /provider switch provider mid-session
	// (providerpicker.go); nil: no switch.
	Providers *Providers

	// Replay, when set, plays a recorded stream instead of chatting.
	Replay      io.Reader
	ReplayPace  time.Duration
	Input       io.Reader // nil: the terminal
	Output      io.Writer // nil: stdout
	WindowWidth int       // for tests without a terminal
}

// Tools is what the chat needs to offer and run tools.
type Tools struct {
	Config  tools.Config
	MCP     *tools.Manager
	Enabled map[string]bool     // tool name → on
	Env     func(string) string // for secrets read at request time; nil: os.Getenv
	Secrets *stream.Redactor    // hidden in every tool's output; nil: none
	// Reports are the MCP manager's problems (a server that failed to
	// start, that stopped), shown as notices; nil: none. MCP may still be
	// starting (see tools.NewMCP): the chat says so and waits for it.
	Reports <-chan error
}

// responseLimit is MaxResponseBytes or its default.
func (o Options) responseLimit() int {
	if o.MaxResponseBytes > 0 {
		return o.MaxResponseBytes
	}
	return session.DefaultResponseLimit
}

// Result is what the chat leaves behind.
type Result struct {
	SessionID store.SessionID // "" when nothing was saved
}

// ErrInterrupted is what Run returns when a SIGINT from outside ended the
// chat (ctrl+c itself arrives as a key). The session is saved as on quit.
var ErrInterrupted = tea.ErrInterrupted

// Run runs the chat until the user quits.
func Run(ctx context.Context, o Options) (Result, error) {
	m := New(ctx, o)
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if o.Input != nil {
		opts = append(opts, tea.WithInput(o.Input))
	}
	if o.Output != nil {
		opts = append(opts, tea.WithOutput(o.Output))
	}
	if o.NoColor || os.Getenv("NO_COLOR") != "" {
		m.frame.noColor = true
	} else { // the placeholders that draw images are coloured
		m.images.support = graphics.Detect(os.Getenv, nil)
	}
	_, err := tea.NewProgram(m, opts...).Run()
	m.shutdown()
	var out io.Writer = os.Stdout
	if o.Output != nil {
		out = o.Output
	}
	m.freeImages(out)
	res := Result{}
	if m.journal != nil {
		res.SessionID = m.journal.ID()
	}
	if err == tea.ErrProgramKilled && ctx.Err() != nil {
		return res, nil
	}
	return res, err
}
