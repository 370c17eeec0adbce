package config

// This file reads runnel's TOML config file into a Config. It does not apply
// defaults, read the environment or run the key command: that is Resolve, in
// apikey.go.
//
// Flow: read the file → decode strictly with go-toml (syntax, type and
// unknown-key errors come with their positions) → validate what types
// cannot say (enumerations, URLs, tool entries), placing keys with
// position.go. Every error is one line naming the file, line and key.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"runnel/session/knob"
	"runnel/stream"
)

// Config is one config file as written. A key the file leaves out stays at
// its zero value; Resolve fills in defaults later. The zero Config means "no
// config file".
//
// Invariants (after LoadConfig returns it without error):
//   - Theme is a theme's name (CheckThemeName); Reasoning.Effort and
//     Reasoning.Summary hold allowed values.
//   - StatusLine.Items are known items; StatusLine.Command is nil or names
//     a program.
//   - Timeouts hold positive durations; Timeouts.MaxRetries is nil or >= 0.
//   - Provider.BaseURL is "" or an http(s) URL with a host.
//   - Provider.Headers have valid names and values free of control bytes.
//   - Provider.Name is "" or names a provider Profile finds, with a base
//     URL; Providers hold valid entries (see validateProviders).
//   - Tools, Functions and MCPServers hold valid entries with unique names
//     (see validateTools).
type Config struct {
	Model        string          `toml:"model"`
	Instructions string          `toml:"instructions"`
	Store        *bool           `toml:"store"` // nil = not set; the default is true
	Theme        string          `toml:"theme"`
	LLMTitle     bool            `toml:"llm_title"` // ask the model for a session title (one extra request)
	Reasoning    ReasoningConfig `toml:"reasoning"`
	Provider     ProviderConfig  `toml:"provider"` // a [provider] table, or provider = "NAME" (providers.go)
	Timeouts     TimeoutsConfig  `toml:"timeouts"`
	Context      ContextConfig   `toml:"context"`
	Attachments  AttachConfig    `toml:"attachments"`

	// Background creates responses with background: true (and store: true),
	// so a dropped or stalled stream resumes where it broke and `runnel -c`
	// reattaches to an answer a killed runnel left running. Off by default.
	Background bool `toml:"background"`

	// State is how the server keeps a session's context: "chain" (the
	// default: previous_response_id) or "conversation" (one server-side
	// conversation per session, sent as conversation).
	State string `toml:"state"`
	// Request knobs (session/knobs.go), each sent only when set:
	// service_tier (priority, flex, default or auto; /fast toggles
	// priority), verbosity (text.verbosity: low, medium or high), and
	// prompt_cache_key: unset gives each session its own key, "off" sends
	// none, anything else is sent as it is.
	ServiceTier    string `toml:"service_tier"`
	Verbosity      string `toml:"verbosity"`
	PromptCacheKey string `toml:"prompt_cache_key"`

	// MaxResponseBytes bounds the text one response may hold (nil = not
	// set: knob.DefaultResponseLimit); past it runnel stops reading.
	MaxResponseBytes *int `toml:"max_response_bytes"`

	// Limits sets bounds of stream.BoundTable by their key ([limits]
	// tool_result_bytes = 131072, …); a key it leaves out keeps its
	// default (stream.DefaultBounds).
	Limits map[string]int `toml:"limits"`

	// Tools (toolconfig.go): hosted tools, local functions, local MCP
	// servers and the round cap of the agentic loop.
	MaxToolRounds *int               `toml:"max_tool_rounds"` // nil = not set (default 16)
	Tools         []HostedToolConfig `toml:"tools"`
	Functions     []FunctionConfig   `toml:"functions"`
	MCPServers    []MCPServerConfig  `toml:"mcp_servers"`

	// MCPAuthDir is the data directory, where `runnel mcp login` saves
	// logins (mcpauth.StoreIn); set by the caller, not the file.
	MCPAuthDir string `toml:"-"`

	// Models (models.go): [models."NAME"] overrides or adds context windows
	// and prices to the built-in table (package session/models).
	Models map[string]ModelConfig `toml:"models"`

	// Providers (providers.go): [providers.NAME] tables, each a provider
	// to choose with provider = "NAME", --provider or /provider.
	Providers map[string]ProfileConfig `toml:"providers"`

	// Notify (notify.go): "off", "on" or "focus" ("" = focus: only while
	// the terminal has lost focus), for turns of at least NotifyAfter
	// (default 10s); NotifyCommand, an array (no shell), is run with the
	// title as its last argument instead of telling the terminal.
	Notify        string   `toml:"notify"`
	NotifyAfter   Duration `toml:"notify_after"`
	NotifyCommand []string `toml:"notify_command"`
	// Keys (keys.go): the [keys] table, preset = "default" | "vi" and
	// action = "key" or ["key", …]; read through Keymap.
	Keys map[string]any `toml:"keys"`
	// StatusLine (statusline.go): the [status_line] table, items and a
	// command.
	StatusLine StatusLineConfig `toml:"status_line"`

	Path string `toml:"-"` // the file it came from; "" if none
}

// ReasoningConfig is the [reasoning] table.
type ReasoningConfig struct {
	Effort  string  `toml:"effort"`  // "" = let the server choose
	Summary *string `toml:"summary"` // nil = not set (default "auto"); "" = ask for no summary
}

// ProviderConfig is the [provider] table: where requests go and how they
// are authenticated, for the provider named "default". Written as a string
// instead (provider = "NAME"), it holds only Name: the provider to use.
type ProviderConfig struct {
	Name          string            `toml:"-"` // provider = "NAME"; "" for the table form
	BaseURL       string            `toml:"base_url"`
	APIKeyEnv     string            `toml:"api_key_env"`     // "" = OPENAI_API_KEY
	APIKeyCommand Command           `toml:"api_key_command"` // empty = not set
	Headers       map[string]string `toml:"headers"`
}

// ContextConfig is the [context] table: how the server keeps a long
// conversation inside the model's context window.
type ContextConfig struct {
	// CompactThreshold > 0 asks the server to compact the context once it
	// passes this many tokens (context_management); 0 or unset: off.
	CompactThreshold int64 `toml:"compact_threshold"`
	// Truncation "auto" is passed through as the request's truncation: the
	// server drops the oldest items instead of refusing an over-long
	// conversation. "disabled" or unset (the default, the server's too)
	// sends nothing.
	Truncation string `toml:"truncation"`
}

// states are the allowed values of state.
var states = []string{"chain", "conversation"}

// truncations are the allowed values of context.truncation.
var truncations = []string{"auto", "disabled"}

// AttachConfig is the [attachments] table. Zero values mean "not set".
type AttachConfig struct {
	ImageDetail   string `toml:"image_detail"`    // input_image detail: auto (default), low or high
	MaxFileMiB    int64  `toml:"max_file_mib"`    // per file (default 20)
	MaxMessageMiB int64  `toml:"max_message_mib"` // all files of one message (default 50)
}

// imageDetails are the allowed [attachments] image_detail values.
var imageDetails = []string{"auto", "low", "high"}

// TimeoutsConfig is the [timeouts] table. Zero durations mean "not set".
type TimeoutsConfig struct {
	Idle       Duration `toml:"idle"`
	Connect    Duration `toml:"connect"`
	MaxRetries *int     `toml:"max_retries"` // nil = not set; 0 = never retry
}

// Duration is a positive time.Duration written in TOML as a Go duration
// string such as "5m" or "30s".
type Duration struct{ time.Duration }

// UnmarshalText parses a duration string; zero and negative values are
// rejected because every timeout in the file must be able to fire.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := parseDuration(string(b))
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// MarshalText writes the duration back in the form UnmarshalText reads.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func parseDuration(s string) (time.Duration, error) {
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q (want a number with a unit, like \"30s\" or \"5m\")", s)
	}
	if v <= 0 {
		return 0, fmt.Errorf("duration %q must be positive", s)
	}
	return v, nil
}

// DefaultConfigPath is $XDG_CONFIG_HOME/runnel/config.toml, or
// ~/.config/runnel/config.toml when XDG_CONFIG_HOME is unset or relative
// (the XDG spec says to ignore relative values). It returns "" when no home
// directory is known.
func DefaultConfigPath() string {
	if dir := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "runnel", "config.toml")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "runnel", "config.toml")
}

// LoadConfig reads the config file at path. explicit says the user named
// the file (--config): then a missing file is an error, while a missing
// default file just yields the zero Config.
func LoadConfig(path string, explicit bool) (Config, error) {
	if path == "" {
		if explicit {
			return Config{}, errors.New("config: empty path given to --config")
		}
		return Config{}, nil
	}
	data, err := readBounded(path, stream.MaxConfigFile)
	if err != nil {
		name := displayPath(path)
		if errors.Is(err, errTooLarge) {
			return Config{}, fmt.Errorf("config file %s is larger than %s, the most runnel reads of it — is it the right file?", name, stream.FormatBytes(stream.MaxConfigFile))
		}
		if errors.Is(err, fs.ErrNotExist) {
			if !explicit {
				return Config{}, nil
			}
			return Config{}, fmt.Errorf("config file %s not found (given by --config)", name)
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return Config{}, fmt.Errorf("read config file %s: %v", name, err)
	}
	c, err := parseConfig(data, displayPath(path))
	if err != nil {
		return Config{}, err
	}
	c.Path = path
	return c, nil
}

// parseConfig decodes and validates one document; name prefixes errors.
// Positions come from go-toml alone: its DecodeError for syntax and type
// errors, StrictMissingError for unknown keys.
func parseConfig(data []byte, name string) (Config, error) {
	if line := pastKeyBound(data); line > 0 {
		return Config{}, fmt.Errorf("%s:%d: the file holds more than %d keys, the most runnel reads of a config — is it the right file?", name, line, MaxConfigKeys)
	}
	var c Config
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Config{}, decodeError(name, data, err)
	}
	pos := locate(data)
	if len(c.Tools)+len(c.Functions)+len(c.MCPServers) > 0 {
		// go-toml takes [tools] for a one-entry [[tools]]; say which to write.
		var doc map[string]any
		toml.Unmarshal(data, &doc) // it decoded above
		for _, array := range []string{"tools", "functions", "mcp_servers"} {
			if _, isTable := doc[array].(map[string]any); isTable {
				return Config{}, fmt.Errorf("%s: key %q: want an array of tables (write [[%s]]), got a table", pos.at(name, "", 0, array), array, array)
			}
		}
	}
	if err := c.validate(name, pos); err != nil {
		return Config{}, err
	}
	return c, nil
}

var errTooLarge = errors.New("too large")

// readBounded reads the file at path (a FIFO too: --config <(…)) up to
// limit bytes; a longer one is errTooLarge.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		return nil, errTooLarge
	}
	return data, err
}

// decodeError turns a go-toml error into one line per problem.
func decodeError(name string, data []byte, err error) error {
	var strictErr *toml.StrictMissingError
	if errors.As(err, &strictErr) {
		errs := make([]error, 0, len(strictErr.Errors))
		for i := range strictErr.Errors {
			e := &strictErr.Errors[i]
			line, _ := e.Position()
			errs = append(errs, fmt.Errorf("%s:%d: %s", name, line, unknownKeyMessage(e.Key(), e.Error())))
		}
		return errors.Join(errs...)
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		k := de.Key()
		switch {
		case len(k) == 0:
			return fmt.Errorf("%s:%d:%d: invalid TOML: %s", name, line, col, msg)
		case strings.HasPrefix(msg, "key "): // the message names the key already
			return fmt.Errorf("%s:%d:%d: %s", name, line, col, msg)
		}
		if m := typeMismatch.FindStringSubmatch(msg); m != nil {
			key, want, got := keyString(k), wantOf(m[2], k), gotOf(m[1])
			switch v := genericAt(data, key).(type) {
			case []any: // an element of a list has the wrong type
				if strings.HasSuffix(m[2], ".ProviderConfig") {
					got = "an array" // not a list at all
					break
				}
				want, got = "a string or an array of strings", "an array holding "+got
				if m[2] != "string" || !strings.HasSuffix(key, "command") {
					want = "an array of strings"
				}
			case map[string]any: // a value in a table of strings
				for _, sub := range slices.Sorted(maps.Keys(v)) {
					if _, ok := v[sub].(string); !ok {
						key += "." + keyString([]string{sub})
						break
					}
				}
			}
			return fmt.Errorf("%s:%d: key %q: want %s, got %s", name, line, key, want, got)
		}
		if m := tableMismatch.FindStringSubmatch(msg); m != nil {
			return fmt.Errorf("%s:%d: key %q: want %s, got a table", name, line, keyString(k), wantOf(m[1], k))
		}
		return fmt.Errorf("%s:%d: key %q: %s", name, line, keyString(k), msg)
	}
	// go-toml hands a number, boolean or date to a type that reads text
	// (Duration, Command) with no position and no key: find the key.
	if key, want, got := findNonString(data); key != "" {
		where := name
		if array, rest, ok := strings.Cut(key, "["); ok {
			var i int
			var sub string
			fmt.Sscanf(rest, "%d].%s", &i, &sub)
			where = locate(data).at(name, array, i, sub)
		} else {
			where = locate(data).at(name, "", 0, key)
		}
		return fmt.Errorf("%s: key %q: want %s, got %s", where, entryIndex.ReplaceAllString(key, ""), want, got)
	}
	return fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "toml: "))
}

// typeMismatch matches go-toml's message for a value of the wrong type:
// "cannot decode TOML integer into struct field config.X.Y of type bool".
var typeMismatch = regexp.MustCompile(`^cannot decode TOML ([a-z ]+) into (?:.* of type )?(\S+)$`)

// entryIndex is the entry number in a path like "functions[2].timeout".
var entryIndex = regexp.MustCompile(`\[[0-9]+\]`)

// tableMismatch matches its message for a table given where a value goes.
var tableMismatch = regexp.MustCompile(`^cannot store a table in (?:an? )?(\S+)$`)

// genericAt is the value at a dotted key of the document decoded without a
// schema (the first entry's, inside an array of tables), or nil.
func genericAt(data []byte, key string) any {
	var v any
	if toml.Unmarshal(data, &v) != nil {
		return nil
	}
	for _, part := range strings.Split(key, ".") {
		if a, ok := v.([]any); ok && len(a) > 0 {
			v = a[0]
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[strings.Trim(part, `"`)]
	}
	return v
}

// gotOf names a TOML value kind from go-toml's message for messages.
func gotOf(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "integer":
		return "an integer"
	case "float":
		return "a float"
	case "boolean":
		return "a boolean"
	case "array":
		return "an array"
	case "table", "inline table":
		return "a table"
	}
	return "a date or time"
}

// wantOf says what a Go field type accepts, in TOML words.
func wantOf(goType string, key toml.Key) string {
	switch {
	case goType == "bool" || goType == "*bool":
		return "true or false"
	case goType == "string" || goType == "*string":
		return "a string"
	case goType == "int" || goType == "*int" || goType == "int64" || goType == "*int64":
		return "an integer"
	case goType == "float64" || goType == "*float64":
		return "a number"
	case strings.HasSuffix(goType, ".Duration"):
		return `a duration string like "30s"`
	case strings.HasSuffix(goType, ".Command"):
		return "a string or an array of strings"
	case strings.HasSuffix(goType, ".ProviderConfig"):
		return providerWant
	case goType == "map[string]string":
		return "a table of strings"
	case goType == "[]string":
		return "an array of strings"
	case strings.HasPrefix(goType, "[]"):
		return fmt.Sprintf("an array of tables (write [[%s]])", keyString(key))
	}
	return "a table"
}

// textKeys are the keys whose Go types read text (Duration, Command),
// with what they accept; findNonString looks there.
var textKeys = map[string]string{
	"timeouts.idle":                `a duration string like "30s"`,
	"timeouts.connect":             `a duration string like "30s"`,
	"functions.timeout":            `a duration string like "30s"`,
	"mcp_servers.timeout":          `a duration string like "30s"`,
	"provider.api_key_command":     "a string or an array of strings",
	"provider":                     providerWant,
	"providers.*.api_key_command":  "a string or an array of strings",
	"providers.*.timeouts.idle":    `a duration string like "30s"`,
	"providers.*.timeouts.connect": `a duration string like "30s"`,
	"tools.authorization_command":  "a string or an array of strings",
}

// findNonString returns the first key of textKeys whose value is not a
// string or an array (as "functions[2].timeout"), what it wants and what it
// got; key is "" when there is none.
func findNonString(data []byte) (key, want, got string) {
	var doc map[string]any
	if toml.Unmarshal(data, &doc) != nil {
		return "", "", ""
	}
	var walk func(v any, k, path string) bool
	walk = func(v any, k, path string) bool {
		switch v := v.(type) {
		case map[string]any:
			for _, sub := range slices.Sorted(maps.Keys(v)) {
				q := keyString([]string{sub})
				pattern := strings.TrimPrefix(k+"."+q, ".")
				if k == "providers" {
					pattern = "providers.*" // one entry of a table of tables
				}
				if walk(v[sub], pattern, strings.TrimPrefix(path+"."+q, ".")) {
					return true
				}
			}
		case []any:
			for i, e := range v {
				if _, ok := e.(map[string]any); ok && walk(e, k, fmt.Sprintf("%s[%d]", path, i)) {
					return true
				}
			}
		case string:
		default:
			if w, ok := textKeys[k]; ok {
				key, want = path, w
				switch v.(type) {
				case int64:
					got = "an integer"
				case float64:
					got = "a float"
				case bool:
					got = "a boolean"
				default:
					got = "a date or time"
				}
				return true
			}
		}
		return false
	}
	walk(doc, "", "")
	return key, want, got
}

// unknownKeyMessage explains an unknown key or table and suggests the
// nearest known one.
func unknownKeyMessage(key toml.Key, goTomlMessage string) string {
	what := "key"
	if strings.HasSuffix(goTomlMessage, "missing table") {
		what = "table"
	}
	k := keyString(key)
	msg := fmt.Sprintf("unknown %s %q", what, k)
	if last := key[len(key)-1]; last == "api_key" || last == "key" {
		msg += " (the key itself never goes in this file: set provider.api_key_env or provider.api_key_command)"
	} else if s := suggestKey(profileKey(key)); s != "" {
		if len(key) >= 3 && key[0] == "providers" {
			s = strings.Replace(s, "providers.*", "providers."+keyString(key[1:2]), 1)
		}
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return msg + " — see config.example.toml"
}

// profileKey writes a key with the provider's name of a [providers.NAME]
// key as "*", the way knownKeys lists it.
func profileKey(key toml.Key) string {
	if len(key) >= 3 && key[0] == "providers" {
		return "providers.*." + keyString(key[2:])
	}
	return keyString(key)
}

// validate checks what the TOML types cannot: enumerations, the base URL
// and header syntax. pos places keys for messages; it is empty for a
// Config that did not come from a file.
func (c *Config) validate(name string, pos *positions) error {
	at := func(key string) string { return pos.at(name, "", 0, key) }
	if c.Theme != "" {
		if err := CheckThemeName(c.Theme); err != nil {
			return fmt.Errorf("%s: key \"theme\": %w", at("theme"), err)
		}
	}
	if err := c.validateStatusLine(at); err != nil {
		return err
	}
	if err := checkEnum(c.Reasoning.Effort, efforts); err != nil {
		return fmt.Errorf("%s: key \"reasoning.effort\": %w", at("reasoning.effort"), err)
	}
	if c.Reasoning.Summary != nil {
		if err := checkEnum(*c.Reasoning.Summary, summaries); err != nil {
			return fmt.Errorf("%s: key \"reasoning.summary\": %w", at("reasoning.summary"), err)
		}
	}
	if c.Provider.BaseURL != "" {
		if _, err := checkBaseURL(c.Provider.BaseURL); err != nil {
			return fmt.Errorf("%s: key \"provider.base_url\": %w", at("provider.base_url"), err)
		}
	}
	if env := c.Provider.APIKeyEnv; env != "" && !validEnvName(env) {
		return fmt.Errorf("%s: key \"provider.api_key_env\": %q is not an environment variable name (letters, digits and _)", at("provider.api_key_env"), env)
	}
	for _, h := range slices.Sorted(maps.Keys(c.Provider.Headers)) {
		if err := checkHeader(h, c.Provider.Headers[h]); err != nil {
			return fmt.Errorf("%s: key \"provider.headers\": %w", at("provider.headers."+keyString([]string{h})), err)
		}
	}
	if err := validateLimits(c.Limits, at); err != nil {
		return err
	}
	if n := c.MaxResponseBytes; n != nil && *n < minResponseBytes {
		return fmt.Errorf("%s: key \"max_response_bytes\": %d is too small (at least %d bytes; the default is %d, 32 MiB)", at("max_response_bytes"), *n, minResponseBytes, knob.DefaultResponseLimit)
	}
	if n := c.Context.CompactThreshold; n < 0 {
		return fmt.Errorf("%s: key \"context.compact_threshold\": %d must not be negative (0 turns compaction off)", at("context.compact_threshold"), n)
	}
	if st := c.State; st != "" {
		if err := checkEnum(st, states); err != nil {
			return fmt.Errorf("%s: key \"state\": %w", at("state"), err)
		}
	}
	if t := c.Context.Truncation; t != "" {
		if err := checkEnum(t, truncations); err != nil {
			return fmt.Errorf("%s: key \"context.truncation\": %w", at("context.truncation"), err)
		}
	}
	for key, v := range map[string]string{"service_tier": c.ServiceTier, "verbosity": c.Verbosity} {
		allowed := knob.ServiceTiers
		if key == "verbosity" {
			allowed = knob.Verbosities
		}
		if v != "" {
			if err := checkEnum(v, allowed); err != nil {
				return fmt.Errorf("%s: key %q: %w", at(key), key, err)
			}
		}
	}
	if k := c.PromptCacheKey; len(k) > 64 || strings.ContainsFunc(k, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return fmt.Errorf("%s: key \"prompt_cache_key\": want at most 64 printable characters (or \"off\" to send none)", at("prompt_cache_key"))
	}
	if n := c.Timeouts.MaxRetries; n != nil && *n < 0 {
		return fmt.Errorf("%s: key \"timeouts.max_retries\": %d must not be negative (0 means never retry)", at("timeouts.max_retries"), *n)
	}
	if d := c.Attachments.ImageDetail; d != "" {
		if err := checkEnum(d, imageDetails); err != nil {
			return fmt.Errorf("%s: key \"attachments.image_detail\": %w", at("attachments.image_detail"), err)
		}
	}
	for key, n := range map[string]int64{"max_file_mib": c.Attachments.MaxFileMiB, "max_message_mib": c.Attachments.MaxMessageMiB} {
		if n < 0 || n > 1024 {
			return fmt.Errorf("%s: key \"attachments.%s\": %d is out of range (1 to 1024 MiB; leave it out for the default)", at("attachments."+key), key, n)
		}
	}
	if err := c.validateNotify(at); err != nil {
		return err
	}
	if err := c.validateModels(name, pos); err != nil {
		return err
	}
	if err := c.validateProviders(name, pos); err != nil {
		return err
	}
	if _, err := c.keymap(name, pos); err != nil {
		return err
	}
	return c.validateTools(name, pos)
}

// knownKeys lists every dotted key of Config, from its struct tags, for
// suggestions. Keys of an array of tables have no index ("tools.type").
var knownKeys = appendKeys(appendKeys(nil, reflect.TypeFor[Config](), ""), reflect.TypeFor[ProfileConfig](), "providers.*.")

// providerWant is what the top-level key "provider" accepts.
const providerWant = `a provider name like "ollama", or a [provider] table`

// minResponseBytes is the smallest max_response_bytes accepted: less would
// cut off ordinary answers.
const minResponseBytes = 1024

func appendKeys(keys []string, t reflect.Type, prefix string) []string {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("toml")
		if tag == "" || tag == "-" {
			continue
		}
		keys = append(keys, prefix+tag)
		ft := f.Type
		if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && ft != reflect.TypeFor[Duration]() {
			keys = appendKeys(keys, ft, prefix+tag+".")
		}
	}
	return keys
}

// suggestKey returns the known key nearest to an unknown one, or "".
func suggestKey(unknown string) string {
	best, bestDist := "", 3
	last := unknown[strings.LastIndexByte(unknown, '.')+1:]
	for _, k := range knownKeys {
		d := editDistance(unknown, k)
		kl := k[strings.LastIndexByte(k, '.')+1:]
		switch {
		case k == unknown:
		case kl == last:
			d = min(d, 1) // right name, wrong table
		case len(last) >= 4 && strings.Contains(kl, last) && k[:len(k)-len(kl)] == unknown[:len(unknown)-len(last)]:
			d = min(d, 2) // part of the name, right table
		}
		if d < bestDist || (d == bestDist && best != "" && k < best) {
			best, bestDist = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// keyString writes a TOML key path, quoting parts that are not bare keys.
func keyString(parts []string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('.')
		}
		if isBareKey(p) {
			b.WriteString(p)
		} else {
			fmt.Fprintf(&b, "%q", p)
		}
	}
	return b.String()
}

func isBareKey(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// displayPath shortens the home directory to ~ for messages.
func displayPath(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return path
	}
	if rel, ok := strings.CutPrefix(path, home+string(filepath.Separator)); ok {
		return "~" + string(filepath.Separator) + rel
	}
	return path
}
