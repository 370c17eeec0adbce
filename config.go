package main

// This file reads runnel's TOML config file into a Config. It does not apply
// defaults, read the environment or run the key command: that is Resolve, in
// apikey.go.
//
// Flow: read the file → scan it once with the TOML parser (positions and
// value types of known keys) → decode strictly (unknown keys) → validate
// enumerated values. Every error is one line naming the file, line and key.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"runnel/session"
)

// Config is one config file as written. A key the file leaves out stays at
// its zero value; Resolve fills in defaults later. The zero Config means "no
// config file".
//
// Invariants (after LoadConfig returns it without error):
//   - Theme, Reasoning.Effort and Reasoning.Summary hold allowed values.
//   - Timeouts hold positive durations; Timeouts.MaxRetries is nil or >= 0.
//   - Provider.BaseURL is "" or an http(s) URL with a host.
//   - Provider.Headers have valid names and values free of control bytes.
//   - Tools, Functions and MCPServers hold valid entries with unique names
//     (see validateTools).
type Config struct {
	Model        string          `toml:"model"`
	Instructions string          `toml:"instructions"`
	Store        *bool           `toml:"store"` // nil = not set; the default is true
	Theme        string          `toml:"theme"`
	LLMTitle     bool            `toml:"llm_title"` // ask the model for a session title (one extra request)
	Reasoning    ReasoningConfig `toml:"reasoning"`
	Provider     ProviderConfig  `toml:"provider"`
	Timeouts     TimeoutsConfig  `toml:"timeouts"`

	// MaxResponseBytes bounds the text one response may hold (nil = not
	// set: session.DefaultResponseLimit); past it runnel stops reading.
	MaxResponseBytes *int `toml:"max_response_bytes"`

	// Tools (toolconfig.go): hosted tools, local functions, local MCP
	// servers and the round cap of the agentic loop.
	MaxToolRounds *int               `toml:"max_tool_rounds"` // nil = not set (default 16)
	Tools         []HostedToolConfig `toml:"tools"`
	Functions     []FunctionConfig   `toml:"functions"`
	MCPServers    []MCPServerConfig  `toml:"mcp_servers"`

	Path string `toml:"-"` // the file it came from; "" if none
}

// ReasoningConfig is the [reasoning] table.
type ReasoningConfig struct {
	Effort  string  `toml:"effort"`  // "" = let the server choose
	Summary *string `toml:"summary"` // nil = not set (default "auto"); "" = ask for no summary
}

// ProviderConfig is the [provider] table: where requests go and how they
// are authenticated.
type ProviderConfig struct {
	BaseURL       string            `toml:"base_url"`
	APIKeyEnv     string            `toml:"api_key_env"`     // "" = OPENAI_API_KEY
	APIKeyCommand Command           `toml:"api_key_command"` // empty = not set
	Headers       map[string]string `toml:"headers"`
}

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
	data, err := os.ReadFile(path)
	if err != nil {
		name := displayPath(path)
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
func parseConfig(data []byte, name string) (Config, error) {
	s := newDocScan(data)
	parsed, err := s.run()
	if err != nil {
		return Config{}, fmt.Errorf("%s:%w", name, err)
	}
	var c Config
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Config{}, decodeError(name, err)
	}
	if !parsed { // the decoder must have reported the syntax error
		return Config{}, fmt.Errorf("%s: cannot parse the file as TOML", name)
	}
	if err := c.validate(name, s.lines); err != nil {
		return Config{}, err
	}
	return c, nil
}

// decodeError turns a go-toml error into one line per problem.
func decodeError(name string, err error) error {
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
		return fmt.Errorf("%s:%d:%d: key %q: %s", name, line, col, keyString(k), msg)
	}
	return fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "toml: "))
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
	} else if s := suggestKey(k); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return msg + " — see config.example.toml"
}

// validate checks what the TOML types cannot: enumerations, the base URL
// and header syntax. lines maps dotted keys to their line, for messages.
func (c *Config) validate(name string, lines map[string]int) error {
	at := func(key string) string {
		if n, ok := lines[key]; ok {
			return fmt.Sprintf("%s:%d", name, n)
		}
		return name
	}
	if c.Theme != "" {
		if err := checkEnum(c.Theme, themes); err != nil {
			return fmt.Errorf("%s: key \"theme\": %w", at("theme"), err)
		}
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
			where := at("provider.headers")
			if _, ok := lines["provider.headers."+keyString([]string{h})]; ok {
				where = at("provider.headers." + keyString([]string{h}))
			}
			return fmt.Errorf("%s: key \"provider.headers\": %w", where, err)
		}
	}
	if n := c.MaxResponseBytes; n != nil && *n < minResponseBytes {
		return fmt.Errorf("%s: key \"max_response_bytes\": %d is too small (at least %d bytes; the default is %d, 32 MiB)", at("max_response_bytes"), *n, minResponseBytes, session.DefaultResponseLimit)
	}
	if n := c.Timeouts.MaxRetries; n != nil && *n < 0 {
		return fmt.Errorf("%s: key \"timeouts.max_retries\": %d must not be negative (0 means never retry)", at("timeouts.max_retries"), *n)
	}
	return c.validateTools(name, lines)
}

// minResponseBytes is the smallest max_response_bytes accepted: less would
// cut off ordinary answers.
const minResponseBytes = 1024

// valueKind is what TOML value a known key accepts.
type valueKind int

const (
	kindTable valueKind = iota
	kindString
	kindBool
	kindInt
	kindDuration
	kindCommand
	kindStringMap
	kindStringList    // []string
	kindTableArray    // []struct: [[name]] entries
	kindSchema        // a JSON Schema: a table, or a string holding JSON
	kindStringOrTable // a string, or a table checked by validate
)

func (k valueKind) String() string {
	switch k {
	case kindTable:
		return "a table"
	case kindString:
		return "a string"
	case kindBool:
		return "true or false"
	case kindInt:
		return "an integer"
	case kindDuration:
		return `a duration string like "30s"`
	case kindCommand:
		return "a string or an array of strings"
	case kindStringMap:
		return "a table of strings"
	case kindStringList:
		return "an array of strings"
	case kindTableArray:
		return "an array of tables"
	case kindSchema:
		return "a table or a string holding JSON"
	case kindStringOrTable:
		return "a string or a table"
	}
	return fmt.Sprintf("valueKind(%d)", int(k))
}

// schema maps every dotted key of Config to the value it accepts. It is
// derived from the struct tags, so the two cannot drift apart. The keys of
// an array of tables are written without an index ("tools.type"). A field
// of interface type names its kind in a `kind` tag: "schema", "command" or
// "string-or-table".
var schema = buildSchema(reflect.TypeFor[Config](), "", map[string]valueKind{})

func buildSchema(t reflect.Type, prefix string, into map[string]valueKind) map[string]valueKind {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("toml")
		if tag == "" || tag == "-" {
			continue
		}
		key := prefix + tag
		switch f.Type {
		case reflect.TypeFor[string](), reflect.TypeFor[*string]():
			into[key] = kindString
		case reflect.TypeFor[*bool](), reflect.TypeFor[bool]():
			into[key] = kindBool
		case reflect.TypeFor[[]string]():
			into[key] = kindStringList
		case reflect.TypeFor[any]():
			kinds := map[string]valueKind{"schema": kindSchema, "command": kindCommand, "string-or-table": kindStringOrTable}
			k, ok := kinds[f.Tag.Get("kind")]
			if !ok {
				panic(fmt.Sprintf("config schema: field %s of interface type needs a kind tag", f.Name))
			}
			into[key] = k
		case reflect.TypeFor[*int]():
			into[key] = kindInt
		case reflect.TypeFor[Duration]():
			into[key] = kindDuration
		case reflect.TypeFor[Command]():
			into[key] = kindCommand
		case reflect.TypeFor[map[string]string]():
			into[key] = kindStringMap
		default:
			if f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct {
				into[key] = kindTableArray
				buildSchema(f.Type.Elem(), key+".", into)
				continue
			}
			if f.Type.Kind() != reflect.Struct {
				panic(fmt.Sprintf("config schema: field %s has unsupported type %s", f.Name, f.Type))
			}
			into[key] = kindTable
			buildSchema(f.Type, key+".", into)
		}
	}
	return into
}

// suggestKey returns the known key nearest to an unknown one, or "".
func suggestKey(unknown string) string {
	best, bestDist := "", 3
	last := unknown[strings.LastIndexByte(unknown, '.')+1:]
	for k := range schema {
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

// docScan walks a document once with the TOML parser, before decoding. It
// records the line of every key and checks the value type of known keys, so
// that type errors name the key and line even where go-toml cannot (an
// integer given for a duration reaches UnmarshalText with no position).
// Unknown keys are left to the strict decoder.
//
// Keys inside an array of tables are recorded twice: as written in the
// schema ("tools.type", first entry wins) and with the entry's index
// ("tools[2].type"), so that validate can point at the right entry.
//
// Invariants: lines holds only keys seen so far; p is read only by run;
// elem is "" outside an array-of-tables entry, else arrayKey + "[i]".
type docScan struct {
	p        unstable.Parser
	lines    map[string]int // dotted key → 1-based line of its first part
	counts   map[string]int // array-of-tables key → entries seen
	arrayKey string         // the array of tables being read ("tools"), or ""
	elem     string         // its current entry ("tools[2]"), or ""
}

func newDocScan(data []byte) *docScan {
	s := &docScan{lines: map[string]int{}, counts: map[string]int{}}
	s.p.Reset(data)
	return s
}

// enter starts entry number counts[key] of an array of tables at line.
func (s *docScan) enter(key string, line int) {
	s.arrayKey, s.elem = key, fmt.Sprintf("%s[%d]", key, s.counts[key])
	s.counts[key]++
	s.lines[s.elem] = line
}

// run scans the whole document. It returns ok=false on a syntax error,
// which the decoder then reports with its position, and a one-line error
// (starting with the line number) when a known key holds the wrong type.
func (s *docScan) run() (ok bool, err error) {
	var table []string
	for s.p.NextExpression() {
		e := s.p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			it := e.Key()
			if s.arrayKey != "" && !strings.HasPrefix(keyString(s.peekKey(e)), s.arrayKey+".") {
				s.arrayKey, s.elem = "", "" // a table outside the entry ends it
			}
			table = s.keyParts(nil, &it)
			key := keyString(table)
			first := e.Key()
			first.Next()
			line := s.p.Shape(first.Node().Raw).Start.Line // this header's, not the key's first
			k, known := schema[key]
			switch {
			case e.Kind == unstable.ArrayTable && known && k != kindTableArray:
				return true, fmt.Errorf("%d: key %q: want %s, got an array of tables", line, key, k)
			case e.Kind == unstable.ArrayTable && known:
				s.enter(key, line)
			case known && k == kindTableArray:
				return true, fmt.Errorf("%d: key %q: want an array of tables (write [[%s]]), got a table", line, key, key)
			case known && k != kindTable && k != kindStringMap && k != kindSchema && k != kindStringOrTable:
				return true, fmt.Errorf("%d: key %q: want %s, got a table", line, key, k)
			}
		case unstable.KeyValue:
			if err := s.keyValue(table, e); err != nil {
				return true, err
			}
		}
	}
	return s.p.Error() == nil, nil
}

// peekKey returns a table header's key parts without recording lines.
func (s *docScan) peekKey(e *unstable.Node) []string {
	var parts []string
	it := e.Key()
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

// keyParts appends the parts of a key to prefix and records the line of
// each intermediate and final key (and its indexed form inside an entry
// of an array of tables).
func (s *docScan) keyParts(prefix []string, it *unstable.Iterator) []string {
	parts := append([]string(nil), prefix...)
	for it.Next() {
		n := it.Node()
		parts = append(parts, string(n.Data))
		k := keyString(parts)
		line := s.p.Shape(n.Raw).Start.Line
		if _, seen := s.lines[k]; !seen {
			s.lines[k] = line
		}
		if rest, ok := strings.CutPrefix(k, s.arrayKey+"."); ok && s.elem != "" {
			if _, seen := s.lines[s.elem+"."+rest]; !seen {
				s.lines[s.elem+"."+rest] = line
			}
		}
	}
	return parts
}

// keyValue checks one key-value (and the key-values of an inline table
// assigned to a known table).
func (s *docScan) keyValue(prefix []string, e *unstable.Node) error {
	it := e.Key()
	parts := s.keyParts(prefix, &it)
	key := keyString(parts)
	line := s.lines[key]
	v := e.Value()
	want, known := schema[key]
	if !known {
		parent := keyString(parts[:len(parts)-1])
		if len(parts) < 2 || schema[parent] != kindStringMap {
			return nil // unknown: the strict decoder names it
		}
		want = kindString // a value in a table of strings
	}
	got := kindName(v)
	switch want {
	case kindSchema, kindStringOrTable:
		if v.Kind == unstable.String || v.Kind == unstable.InlineTable {
			return nil // the contents are checked by validate
		}
	case kindStringList:
		if v.Kind == unstable.Array {
			if el := firstNonString(v); el != nil {
				return fmt.Errorf("%d: key %q: want %s, got an array holding %s", line, key, want, kindName(el))
			}
			return nil
		}
	case kindTableArray:
		if v.Kind != unstable.Array {
			break
		}
		// tools = [{ … }, { … }]: each element is an entry.
		outerKey, outerElem := s.arrayKey, s.elem
		defer func() { s.arrayKey, s.elem = outerKey, outerElem }()
		elems := v.Children()
		for elems.Next() {
			el := elems.Node()
			if el.Kind != unstable.InlineTable {
				return fmt.Errorf("%d: key %q: want %s, got an array holding %s", line, key, want, kindName(el))
			}
			s.enter(key, line)
			if err := s.inlineTable(parts, el); err != nil {
				return err
			}
		}
		return nil
	case kindTable, kindStringMap:
		if v.Kind != unstable.InlineTable {
			break
		}
		return s.inlineTable(parts, v)
	case kindString:
		if v.Kind == unstable.String {
			return nil
		}
	case kindBool:
		if v.Kind == unstable.Bool {
			return nil
		}
	case kindInt:
		if v.Kind == unstable.Integer {
			return nil
		}
	case kindDuration:
		if v.Kind == unstable.String {
			if _, err := parseDuration(string(v.Data)); err != nil {
				return fmt.Errorf("%d: key %q: %w", line, key, err)
			}
			return nil
		}
	case kindCommand:
		if v.Kind == unstable.String {
			return nil
		}
		if v.Kind == unstable.Array {
			if el := firstNonString(v); el != nil {
				return fmt.Errorf("%d: key %q: want %s, got an array holding %s", line, key, want, kindName(el))
			}
			return nil
		}
	}
	return fmt.Errorf("%d: key %q: want %s, got %s", line, key, want, got)
}

// inlineTable checks the key/value pairs of inline table t under prefix.
func (s *docScan) inlineTable(prefix []string, t *unstable.Node) error {
	children := t.Children()
	for children.Next() {
		if c := children.Node(); c.Kind == unstable.KeyValue {
			if err := s.keyValue(prefix, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// firstNonString returns the first element of array a that is not a
// string, or nil.
func firstNonString(a *unstable.Node) *unstable.Node {
	elems := a.Children()
	for elems.Next() {
		if el := elems.Node(); el.Kind != unstable.String {
			return el
		}
	}
	return nil
}

// kindName names a parsed TOML value for messages, without its content.
func kindName(n *unstable.Node) string {
	switch n.Kind {
	case unstable.String:
		return "a string"
	case unstable.Bool:
		return "a boolean"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a float"
	case unstable.Array:
		return "an array"
	case unstable.InlineTable:
		return "a table"
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		return "a date or time"
	}
	return "a " + n.Kind.String()
}
