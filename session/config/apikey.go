package config

// This file resolves a Config against the environment and command-line
// flags into Settings, including where the API key comes from. It does not
// read the config file (config.go) nor make any HTTP request.
//
// Precedence, for each setting: flag > config file > environment > default.
// The key: api_key_command if set, else the variable named by api_key_env.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runnel/session/attach"
	"strconv"
	"strings"
	"time"

	"runnel/session"
)

// Defaults for settings that nothing configured.
const (
	DefaultBaseURL        = "https://api.openai.com/v1"
	DefaultModel          = "gpt-5-mini"
	DefaultAPIKeyEnv      = "OPENAI_API_KEY"
	DefaultIdleTimeout    = 5 * time.Minute
	DefaultConnectTimeout = 30 * time.Second
	DefaultMaxRetries     = 3

	baseURLEnv        = "OPENAI_BASE_URL"
	keyCommandTimeout = 10 * time.Second
	keyCommandMaxOut  = 64 << 10 // bytes of stdout kept; a key is far shorter
)

// Allowed values of the enumerated keys. "" means "not sent".
var (
	themes    = []string{"auto", "dark", "light"}
	efforts   = append([]string{""}, session.ReasoningEfforts...)
	summaries = []string{"", "auto", "concise", "detailed"}
)

// Command is a program to run, as an argv. In TOML it is either an array of
// strings (the argv itself) or one string, which runs as `sh -c STRING`. An
// empty string or array means "no command".
type Command []string

// UnmarshalText reads the string form: a shell command line.
// go-toml hands it the text of a number or boolean too: those are
// refused, as no program is named "5" or "true".
func (c *Command) UnmarshalText(b []byte) error {
	if _, err := strconv.ParseFloat(strings.ReplaceAll(string(b), "_", ""), 64); err == nil || string(b) == "true" || string(b) == "false" {
		return fmt.Errorf("%q is not a command; want a string or an array of strings", b)
	}
	if strings.TrimSpace(string(b)) == "" {
		*c = nil
		return nil
	}
	*c = Command{"sh", "-c", string(b)}
	return nil
}

// String shows the command as the user wrote it, for messages.
func (c Command) String() string {
	if len(c) == 3 && c[0] == "sh" && c[1] == "-c" {
		return c[2]
	}
	return strings.Join(c, " ")
}

// APIKeyEnv is the environment variable the key is read from:
// provider.api_key_env, else OPENAI_API_KEY.
func (c Config) APIKeyEnv() string { return first(c.Provider.APIKeyEnv, DefaultAPIKeyEnv) }

// Overrides are the settings given as command-line flags; "" = not given.
type Overrides struct {
	BaseURL, Model, Instructions, ReasoningEffort string
	Provider                                      string // --provider NAME
	Background                                    bool   // --background
}

// Settings are the config resolved against flags and environment: every
// field holds the value to use.
//
// Invariants (as returned by Resolve):
//   - BaseURL is an http(s) URL with no trailing slash.
//   - APIKey is "" (send no Authorization header) or one line with no
//     spaces or control bytes. It never appears in errors or in String.
//   - KeySource is "" exactly when APIKey is "".
//   - Provider names a provider of the config; one that is not "default"
//     has BaseURLSet, and an APIKey unless it takes none.
//   - Headers is never nil and is not shared with the Config.
//   - Timeouts are positive; MaxRetries >= 0.
type Settings struct {
	Provider         string // the provider's name: "default", a [providers.NAME] table's or a preset's
	BaseURL          string
	APIKey           string
	Model            string
	Instructions     string
	ReasoningEffort  string // "" = server default
	ReasoningSummary string // "" = ask for no summary
	Theme            string
	Headers          map[string]string
	Store            bool
	CompactThreshold int64         // [context] compact_threshold: tokens; 0 = off
	Truncation       string        // [context] truncation: "", "auto" or "disabled"
	LLMTitle         bool          // titles sessions with one extra request after the first turn
	Background       bool          // background = true or --background: resumable streams
	IdleTimeout      time.Duration // max silence between stream events
	ConnectTimeout   time.Duration // dial + TLS + response headers
	MaxRetries       int           // retries before the first byte
	MaxResponseBytes int           // the most text one response may hold
	KeySource        string        // "env OPENAI_API_KEY", "api_key_command" or ""
	BaseURLSet       bool          // the base URL came from a flag, the file or the environment
	Attach           attach.Limits // [attachments]: limits and image detail
}

// Demo reports whether nothing points runnel at a real provider: no API
// key and no base URL anywhere. The built-in demo provider runs then.
func (s Settings) Demo() bool { return s.APIKey == "" && !s.BaseURLSet }

// String describes the settings with the API key redacted, so that printing
// a Settings by accident cannot leak the key.
func (s Settings) String() string {
	key := "none"
	if s.APIKey != "" {
		key = "set from " + s.KeySource
	}
	return fmt.Sprintf("Settings{Provider: %q, BaseURL: %q, Model: %q, Key: %s, Store: %t, Theme: %q}", s.Provider, s.BaseURL, s.Model, key, s.Store, s.Theme)
}

// GoString keeps %#v as safe as %v.
func (s Settings) GoString() string { return s.String() }

// Resolve applies flags, environment and defaults to the config. env looks
// up environment variables (nil means os.Getenv). When api_key_command is
// set, Resolve runs it, waiting at most 10 seconds.
func (c Config) Resolve(env func(string) string, o Overrides) (Settings, error) {
	if env == nil {
		env = os.Getenv
	}
	name := "config"
	if c.Path != "" {
		name = displayPath(c.Path)
	}
	if err := c.validate(name, nil); err != nil {
		return Settings{}, err
	}
	pname := first(o.Provider, c.DefaultProviderName())
	where := name + ": key \"provider\""
	if o.Provider != "" {
		where = "--provider " + quoteArg(o.Provider)
	}
	p, err := c.Profile(pname)
	if err != nil {
		return Settings{}, fmt.Errorf("%s: %w", where, err)
	}
	s := Settings{
		Provider:         pname,
		BaseURL:          DefaultBaseURL,
		Model:            first(o.Model, p.Model, c.Model, DefaultModel),
		Instructions:     first(o.Instructions, c.Instructions),
		ReasoningEffort:  first(o.ReasoningEffort, c.Reasoning.Effort),
		ReasoningSummary: "auto",
		Theme:            first(c.Theme, "auto"),
		Headers:          make(map[string]string, len(p.Headers)),
		Store:            c.StoreFor(p),
		CompactThreshold: c.Context.CompactThreshold,
		Truncation:       first(c.Context.Truncation, "disabled"),
		LLMTitle:         c.LLMTitle,
		Background:       c.Background || o.Background,
		IdleTimeout:      first(p.Timeouts.Idle.Duration, c.Timeouts.Idle.Duration, DefaultIdleTimeout),
		ConnectTimeout:   first(p.Timeouts.Connect.Duration, c.Timeouts.Connect.Duration, DefaultConnectTimeout),
		MaxRetries:       DefaultMaxRetries,
		MaxResponseBytes: c.ResponseLimit(),
		Attach: attach.Limits{
			MaxFile:    first(c.Attachments.MaxFileMiB*attach.MiB, attach.DefaultMaxFile),
			MaxMessage: first(c.Attachments.MaxMessageMiB*attach.MiB, attach.DefaultMaxMessage),
			Detail:     first(c.Attachments.ImageDetail, attach.DefaultDetail),
		},
	}
	if err := checkEnum(o.ReasoningEffort, efforts); err != nil {
		return Settings{}, fmt.Errorf("reasoning effort on the command line: %w", err)
	}
	if c.Reasoning.Summary != nil {
		s.ReasoningSummary = *c.Reasoning.Summary
	}
	if c.Timeouts.MaxRetries != nil {
		s.MaxRetries = *c.Timeouts.MaxRetries
	}
	if p.Timeouts.MaxRetries != nil {
		s.MaxRetries = *p.Timeouts.MaxRetries
	}
	if p.Background != nil {
		s.Background = *p.Background || o.Background
	}
	for k, v := range p.Headers {
		s.Headers[k] = v
	}

	var raw, from string
	switch {
	case o.BaseURL != "":
		raw, from = o.BaseURL, "base URL on the command line"
	case p.BaseURL != "" && p.Default:
		raw, from = p.BaseURL, name+": key \"provider.base_url\""
	case p.BaseURL != "":
		raw, from = p.BaseURL, "provider "+strconv.Quote(pname)
	case !p.Default:
		return Settings{}, fmt.Errorf("%s: %w", where, needsURL(pname, p.Preset))
	case strings.TrimSpace(env(baseURLEnv)) != "":
		raw, from = env(baseURLEnv), "$"+baseURLEnv
	}
	if from != "" {
		u, err := checkBaseURL(raw)
		if err != nil {
			return Settings{}, fmt.Errorf("%s: %w", from, err)
		}
		s.BaseURL, s.BaseURLSet = u, true
	}

	key, source, err := resolveKey(p, env)
	if err != nil {
		return Settings{}, err
	}
	if key == "" && p.NeedsKey() && !p.Default {
		// a chosen provider never falls back to the demo: say what to set
		return Settings{}, fmt.Errorf("provider %q: no API key: set $%s (or %s in the config)", pname, p.APIKeyEnv, p.keyName())
	}
	s.APIKey, s.KeySource = key, source
	return s, nil
}

// ResponseLimit is max_response_bytes, or its default.
func (c Config) ResponseLimit() int {
	if c.MaxResponseBytes != nil {
		return *c.MaxResponseBytes
	}
	return session.DefaultResponseLimit
}

// resolveKey finds the API key: the command's output if a command is set,
// else the environment variable. Errors never include the key or the
// command's output.
func resolveKey(p Profile, env func(string) string) (key, source string, err error) {
	if len(p.APIKeyCommand) > 0 {
		key, err := runKeyCommand(context.Background(), p.APIKeyCommand, keyCommandTimeout)
		if err != nil {
			if k := p.keyName(); k != "provider.api_key_command" {
				err = errors.New(strings.Replace(err.Error(), "provider.api_key_command", k, 1))
			}
			return "", "", err
		}
		return key, "api_key_command", nil
	}
	name := p.APIKeyEnv
	if name == "" {
		return "", "", nil // the provider takes no key
	}
	key = strings.TrimSpace(env(name))
	if key == "" {
		return "", "", nil
	}
	if !validKey(key) {
		return "", "", fmt.Errorf("$%s holds spaces, line breaks or control characters inside the key; set it to the key alone", name)
	}
	return key, "env " + name, nil
}

// runKeyCommand runs cmd and returns its stdout, trimmed. The command gets
// no stdin and its stderr is discarded: its output may hold secrets, so
// errors name only the command and how it ended.
func runKeyCommand(ctx context.Context, cmd Command, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	x := exec.CommandContext(ctx, cmd[0], cmd[1:]...)
	var out cappedBuffer
	x.Stdout = &out
	x.WaitDelay = time.Second // a grandchild holding stdout open must not hang us
	err := x.Run()
	// The command's text may hold a secret (a key written inline), and so
	// may its output: messages name the config key, and at most the
	// program's name when it cannot be started.
	const name = "provider.api_key_command"
	var exitErr *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("%s did not finish within %s", name, timeout)
	case errors.As(err, &exitErr):
		how := fmt.Sprintf("exit status %d", exitErr.ExitCode())
		if exitErr.ExitCode() < 0 {
			how = exitErr.ProcessState.String() // e.g. "signal: killed"
		}
		return "", fmt.Errorf("%s failed (%s); its output is hidden: run the command in a shell to see why", name, how)
	case errors.Is(err, exec.ErrWaitDelay):
		// It exited successfully but left something holding stdout open:
		// what it printed is complete enough to use.
	case errors.Is(err, exec.ErrNotFound):
		return "", fmt.Errorf("%s: program %q not found; check the command's first word", name, filepath.Base(cmd[0]))
	case err != nil:
		return "", fmt.Errorf("%s could not start (%s)", name, startFailure(err))
	}
	if out.overflow {
		return "", fmt.Errorf("%s printed more than %d KiB; it must print only the key", name, keyCommandMaxOut>>10)
	}
	key := strings.TrimSpace(out.String())
	switch {
	case key == "":
		return "", fmt.Errorf("%s printed nothing; it must print the key", name)
	case strings.ContainsAny(key, "\r\n"):
		return "", fmt.Errorf("%s printed more than one line; it must print only the key (e.g. append \"| head -n1\")", name)
	case !validKey(key):
		return "", fmt.Errorf("%s printed spaces or control characters inside the key; it must print only the key", name)
	}
	return key, nil
}

// startFailure says why a program could not start, without its path or
// arguments.
func startFailure(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return "cannot run it"
}

// cappedBuffer keeps the first keyCommandMaxOut bytes written to it and
// notes whether more came. It never fails a write, so the child is not
// killed by a broken pipe halfway through. (The buffer is a field, not
// embedded: an embedded bytes.Buffer's ReadFrom would let io.Copy bypass
// Write and the cap.)
type cappedBuffer struct {
	buf      bytes.Buffer
	overflow bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := keyCommandMaxOut - b.buf.Len(); len(p) > room {
		b.overflow = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *cappedBuffer) String() string { return b.buf.String() }

// validKey reports whether a key can go in an Authorization header as is.
func validKey(key string) bool {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c <= ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// checkEnum returns an error naming v and the allowed values when v is not
// one of them.
func checkEnum(v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	return fmt.Errorf("%q is not allowed; use one of %s", v, strings.Join(quoted, ", "))
}

// checkBaseURL validates a base URL and returns it without a trailing
// slash. Messages redact any password in it.
func checkBaseURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", errors.New("not a valid URL; want one like \"https://api.openai.com/v1\"")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("%q must start with http:// or https://", u.Redacted())
	case u.Host == "":
		return "", fmt.Errorf("%q has no host", u.Redacted())
	case u.RawQuery != "" || u.Fragment != "":
		return "", fmt.Errorf("%q must not have a query or fragment", u.Redacted())
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// checkHeader validates an extra HTTP header. Its value may be a secret, so
// messages name only the header.
func checkHeader(name, value string) error {
	if name == "" {
		return errors.New("a header has an empty name")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return fmt.Errorf("header name %q is not a valid HTTP header name", name)
		}
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return fmt.Errorf("header %q has a line break or control character in its value", name)
		}
	}
	return nil
}

// validEnvName reports whether s can name an environment variable.
func validEnvName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// first returns the first non-zero value.
func first[T comparable](vs ...T) T {
	var zero T
	for _, v := range vs {
		if v != zero {
			return v
		}
	}
	return zero
}

// ResponseLimitAt is max_response_bytes from the config file at path (""
// for the default file, which may be missing), without resolving the rest.
func ResponseLimitAt(path string) (int, error) {
	explicit := path != ""
	if !explicit {
		path = DefaultConfigPath()
	}
	cfg, err := LoadConfig(path, explicit)
	if err != nil {
		return 0, err
	}
	return cfg.ResponseLimit(), nil
}
