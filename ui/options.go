package ui

// This file is what the chat is given (Options) and leaves behind (Result).

import (
	"context"
	"io"
	"runnel/ui/graphics"
	"time"

	"runnel/session"
	"runnel/session/attach"
	"runnel/session/images"
	"runnel/session/keymap"
	"runnel/session/knob"
	"runnel/session/models"
	"runnel/session/store"
	"runnel/session/tools"
	"runnel/stream"
)

// Options configure the chat.
type Options struct {
	Client   *stream.Client
	Provider string           // "demo" for the built-in provider, else the base URL
	Settings session.Settings // Settings.Provider names the provider (config)
	Theme    string           // auto, dark or light
	NoColor  bool
	Graphics graphics.Support // how the terminal shows images (Run detects it); zero: placeholders only
	LLMTitle bool             // ask the model to title a new session after its first turn
	Notify   Notify           // when and how a long turn tells the user it ended (notify.go)

	// History: DB is nil when there is none; HistoryErr then says why (shown
	// once). Resume is a stored session to continue.
	DB         *store.DB
	HistoryErr error
	Resume     *store.Session

	// MaxResponseBytes bounds the text one response may hold (config
	// max_response_bytes); 0 means knob.DefaultResponseLimit. Past it the
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

	// Prompts are the prompt files offered as /NAME (promptcmds.go); nil:
	// none.
	Prompts *Prompts
	// Agents are the AGENTS.md files found at start (agents.go); nil:
	// none is read.
	Agents *Agents
	// Keys is the keymap (config [keys]: a preset and actions rebound);
	// the zero Keymap is the default preset.
	Keys keymap.Keymap
	// StatusLine is the config's [status_line] (statuscmd.go); the zero
	// value is the default line.
	StatusLine StatusLine
	// ThemesDir holds theme files, NAME.toml, for the config's theme and
	// /theme NAME; "" for none.
	ThemesDir string

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

// secretEnv are the variables no child process the chat starts sees
// (tools.ChildEnv): the config's secret variables, as the local tools'
// config carries them; none without tools (a replay, tests).
func (o Options) secretEnv() []string {
	if o.Tools == nil {
		return nil
	}
	return o.Tools.Config.SecretEnv
}

// responseLimit is MaxResponseBytes or its default.
func (o Options) responseLimit() int {
	if o.MaxResponseBytes > 0 {
		return o.MaxResponseBytes
	}
	return knob.DefaultResponseLimit
}

// Result is what the chat leaves behind.
type Result struct {
	SessionID  store.SessionID // "" when nothing was saved
	LastAnswer string          // the newest answer's text when the chat ended, "" for none (--output-last-message)
}

// Providers lets /provider switch the chat to another provider; nil: the
// chat has none to offer (a replay, tests).
type Providers struct {
	Choices []ProviderChoice
	// Connect resolves a provider: its client (key, headers), model list
	// and defaults. It may run a command: the chat calls it in a tea.Cmd.
	Connect func(ctx context.Context, name string) (Connection, error)
}

// ProviderChoice is one row of the picker.
type ProviderChoice struct {
	Name    string
	BaseURL string // for display: no credentials
	About   string // one phrase: "Ollama on this machine (no key, …)"
}

// Connection is a provider ready to talk to.
type Connection struct {
	Name   string         // the provider's name
	Label  string         // what Options.Provider holds: the base URL
	Client *stream.Client // with its key and headers
	Models models.Lister  // its model list (cached per provider)
	Model  string         // the provider's own model; "" keeps the current one
	// Store and Background are what the provider wants for them: a
	// server that keeps no state gets store off.
	Store, Background bool
}

// switchTo makes c the provider the options name: its client, label,
// model list and what it wants of store and background mode (a provider
// switch, providerSwitchedMsg).
func (o *Options) switchTo(c Connection) {
	o.Client, o.Provider, o.Models = c.Client, c.Label, c.Models
	o.Settings.Store, o.Settings.Background, o.Settings.Provider = c.Store, c.Background, c.Name
}
