package config

// This file is the tools part of the config file: [[tools]] (hosted tools
// the server runs), [[functions]] (local commands the model may call),
// [[mcp_servers]] (local MCP servers over stdio) and max_tool_rounds; how
// they are validated, and ToolSet, which turns them into a tools.Config.
// It runs nothing and reads no secrets: package tools does, at request
// time.

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"runnel/session/tools"
)

// HostedToolConfig is one [[tools]] entry. Which keys apply depends on
// Type; a key set for another type is an error.
type HostedToolConfig struct {
	Type    string `toml:"type"`
	Enabled *bool  `toml:"enabled"` // nil = on

	// web_search
	SearchContextSize string            `toml:"search_context_size"`
	UserLocation      map[string]string `toml:"user_location"`
	Filters           SearchFilters     `toml:"filters"`

	// file_search
	VectorStoreIDs []string `toml:"vector_store_ids"`
	MaxNumResults  *int     `toml:"max_num_results"`

	// code_interpreter
	Container string `toml:"container"` // "" or "auto" = a new container; else a container id

	// image_generation
	Size         string `toml:"size"`
	Quality      string `toml:"quality"`
	Background   string `toml:"background"`
	OutputFormat string `toml:"output_format"`
	Model        string `toml:"model"`

	// mcp (a remote server the API calls)
	ServerLabel          string            `toml:"server_label"`
	ServerURL            string            `toml:"server_url"`
	ConnectorID          string            `toml:"connector_id"`
	ServerDescription    string            `toml:"server_description"`
	AllowedTools         []string          `toml:"allowed_tools"`
	RequireApproval      any               `toml:"require_approval" kind:"string-or-table"`
	HeadersEnv           map[string]string `toml:"headers_env"`       // header → variable holding its value
	AuthorizationEnv     string            `toml:"authorization_env"` // variable holding the OAuth token
	AuthorizationCommand Command           `toml:"authorization_command"`
}

// SearchFilters is web_search's filters table.
type SearchFilters struct {
	AllowedDomains []string `toml:"allowed_domains"`
}

// FunctionConfig is one [[functions]] entry: a local command the model may
// call.
type FunctionConfig struct {
	Name           string   `toml:"name"`
	Description    string   `toml:"description"`
	Parameters     any      `toml:"parameters" kind:"schema"` // a table, or a string holding JSON
	Command        any      `toml:"command" kind:"command"`   // an argv array; one string with shell = true
	Timeout        Duration `toml:"timeout"`                  // zero = 30s
	Approval       string   `toml:"approval"`                 // "" = always
	Shell          bool     `toml:"shell"`
	Dir            string   `toml:"dir"`
	PassAPIKey     bool     `toml:"pass_api_key"`
	EnvPassthrough []string `toml:"env_passthrough"` // secret variables (hosted MCP tokens, …) the command may see
}

// MCPServerConfig is one [[mcp_servers]] entry: a local MCP server started
// over stdio (command), or one on the network (url; mcphttp.go).
type MCPServerConfig struct {
	Name           string            `toml:"name"`
	Command        any               `toml:"command" kind:"command"` // an argv array, as [[functions]] take it; or the program alone, with args
	Args           []string          `toml:"args"`
	Env            map[string]string `toml:"env"`
	AllowedTools   []string          `toml:"allowed_tools"`
	Approval       string            `toml:"approval"` // "" = always
	PassAPIKey     bool              `toml:"pass_api_key"`
	EnvPassthrough []string          `toml:"env_passthrough"` // secret variables (hosted MCP tokens, …) the server may see
	Timeout        Duration          `toml:"timeout"`         // one call; zero = 60s
	StartupTimeout Duration          `toml:"startup_timeout"` // launch and handshake; zero = 10s

	URL            string            `toml:"url"`              // a server on the network, instead of command
	Transport      string            `toml:"transport"`        // "" (streamable HTTP, SSE on a 4xx) or "sse"
	Headers        map[string]string `toml:"headers"`          // sent with every request; secret
	BearerTokenEnv string            `toml:"bearer_token_env"` // Authorization: Bearer $NAME
}

// hostedKeys lists, per hosted type, the keys besides type and enabled
// that apply to it.
var hostedKeys = map[string][]string{
	"web_search":       {"search_context_size", "user_location", "filters"},
	"file_search":      {"vector_store_ids", "max_num_results"},
	"code_interpreter": {"container"},
	"image_generation": {"size", "quality", "background", "output_format", "model"},
	"mcp": {"server_label", "server_url", "connector_id", "server_description", "allowed_tools",
		"require_approval", "headers_env", "authorization_env", "authorization_command"},
}

var hostedTypes = []string{"web_search", "file_search", "code_interpreter", "image_generation", "mcp"}

var imageSize = regexp.MustCompile(`^(auto|[1-9][0-9]{1,4}x[1-9][0-9]{1,4})$`)

// place says where keys are written, for errors.
type place struct {
	name string
	pos  *positions
}

func (p place) at(key string) string { return p.pos.at(p.name, "", 0, key) }

// errorf is an error about key of entry i of array.
func (p place) errorf(array string, i int, key, format string, args ...any) error {
	return fmt.Errorf("%s: key %q: %s", p.pos.at(p.name, array, i, key), array+"."+key, fmt.Sprintf(format, args...))
}

// validateTools checks the tool sections.
func (c *Config) validateTools(name string, pos *positions) error {
	p := place{name, pos}
	if n := c.MaxToolRounds; n != nil && *n < 1 {
		return fmt.Errorf("%s: key \"max_tool_rounds\": %d must be at least 1", p.at("max_tool_rounds"), *n)
	}
	owner := map[string]string{} // tool name → the entry that has it
	claim := func(array string, i int, key, n string) error {
		if prev, ok := owner[n]; ok {
			return p.errorf(array, i, key, "the name %q is taken by %s; every tool needs its own name", n, prev)
		}
		owner[n] = fmt.Sprintf("[[%s]] entry %d", array, i+1)
		return nil
	}
	for i := range c.Tools {
		if err := c.Tools[i].validate(p, i, claim); err != nil {
			return err
		}
	}
	for i := range c.Functions {
		if err := c.Functions[i].validate(p, i, claim); err != nil {
			return err
		}
	}
	for i := range c.MCPServers {
		if err := c.MCPServers[i].validate(p, i, claim); err != nil {
			return err
		}
	}
	return nil
}

type claimFunc func(array string, i int, key, name string) error

func (h *HostedToolConfig) validate(p place, i int, claim claimFunc) error {
	bad := func(key, format string, args ...any) error { return p.errorf("tools", i, key, format, args...) }
	if h.Type == "" {
		return bad("type", "missing; set it to one of %s", quoteAll(hostedTypes))
	}
	if err := checkEnum(h.Type, hostedTypes); err != nil {
		return bad("type", "%v", err)
	}
	// A key of another type is most likely a mistake: say whose it is.
	v := reflect.ValueOf(*h)
	for j := range v.NumField() {
		key := v.Type().Field(j).Tag.Get("toml")
		if key == "type" || key == "enabled" || v.Field(j).IsZero() || slices.Contains(hostedKeys[h.Type], key) {
			continue
		}
		for _, t := range hostedTypes {
			if slices.Contains(hostedKeys[t], key) {
				return bad(key, "applies to type %q, not %q", t, h.Type)
			}
		}
	}
	switch h.Type {
	case "web_search":
		if h.SearchContextSize != "" {
			if err := checkEnum(h.SearchContextSize, []string{"low", "medium", "high"}); err != nil {
				return bad("search_context_size", "%v", err)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(h.UserLocation)) {
			if err := checkEnum(k, []string{"type", "city", "country", "region", "timezone"}); err != nil {
				return bad("user_location", "key %v", err)
			}
		}
		if t, ok := h.UserLocation["type"]; ok && t != "approximate" {
			return bad("user_location", "type %q is not allowed; use \"approximate\" (or leave it out)", t)
		}
		if err := nonEmpty(h.Filters.AllowedDomains); err != nil {
			return bad("filters.allowed_domains", "%v", err)
		}
	case "file_search":
		if len(h.VectorStoreIDs) == 0 {
			return bad("vector_store_ids", "missing; file_search needs vector_store_ids = [\"vs_…\"]")
		}
		if err := nonEmpty(h.VectorStoreIDs); err != nil {
			return bad("vector_store_ids", "%v", err)
		}
		if n := h.MaxNumResults; n != nil && (*n < 1 || *n > 50) {
			return bad("max_num_results", "%d is out of range; use 1 to 50", *n)
		}
	case "image_generation":
		if h.Size != "" && !imageSize.MatchString(h.Size) {
			return bad("size", "%q is not a size; use \"auto\" or WIDTHxHEIGHT like \"1024x1024\"", h.Size)
		}
		for _, e := range []struct {
			key, v  string
			allowed []string
		}{
			{"quality", h.Quality, []string{"auto", "low", "medium", "high"}},
			{"background", h.Background, []string{"auto", "transparent", "opaque"}},
			{"output_format", h.OutputFormat, []string{"png", "jpeg", "webp"}},
		} {
			if e.v != "" {
				if err := checkEnum(e.v, e.allowed); err != nil {
					return bad(e.key, "%v", err)
				}
			}
		}
	case "mcp":
		if err := h.validateMCP(bad); err != nil {
			return err
		}
		return claim("tools", i, "server_label", h.ServerLabel)
	}
	return claim("tools", i, "type", h.Type)
}

func (h *HostedToolConfig) validateMCP(bad func(key, format string, args ...any) error) error {
	switch {
	case h.ServerLabel == "":
		return bad("server_label", "missing; an mcp tool needs a server_label (letters, digits, _ and -)")
	case !tools.ValidName(h.ServerLabel):
		return bad("server_label", "%q must be 1 to 64 letters, digits, _ or -", h.ServerLabel)
	case h.ServerURL == "" && h.ConnectorID == "":
		return bad("server_url", "missing; an mcp tool needs server_url (or connector_id)")
	case h.ServerURL != "" && h.ConnectorID != "":
		return bad("connector_id", "set server_url or connector_id, not both")
	case h.AuthorizationEnv != "" && len(h.AuthorizationCommand) > 0:
		return bad("authorization_command", "set authorization_env or authorization_command, not both")
	case h.AuthorizationEnv != "" && !validEnvName(h.AuthorizationEnv):
		return bad("authorization_env", "the value is not an environment variable name (letters, digits and _); it must name the variable that holds the token")
	}
	if h.ServerURL != "" {
		u, err := url.Parse(h.ServerURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return bad("server_url", "%q is not an http(s) URL with a host", h.ServerURL)
		}
	}
	if err := nonEmpty(h.AllowedTools); err != nil {
		return bad("allowed_tools", "%v", err)
	}
	if err := checkRequireApproval(h.RequireApproval); err != nil {
		return bad("require_approval", "%v", err)
	}
	for _, name := range slices.Sorted(maps.Keys(h.HeadersEnv)) {
		if err := checkHeader(name, ""); err != nil {
			return bad("headers_env", "%v", err)
		}
		if !validEnvName(h.HeadersEnv[name]) { // it may be a secret pasted in: never echo it
			return bad("headers_env", "header %q: the value is not an environment variable name; it must name the variable that holds the secret, never the secret itself", name)
		}
	}
	return nil
}

// checkRequireApproval accepts "always", "never", or a table with never
// and always lists of tool names.
func checkRequireApproval(v any) error {
	const want = `want "always", "never" or a table like { never = ["read"], always = ["write"] }`
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		if v == "always" || v == "never" {
			return nil
		}
		return fmt.Errorf("%q is not allowed; %s", v, want)
	case map[string]any:
		if len(v) == 0 {
			return fmt.Errorf("the table is empty; %s", want)
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if k != "always" && k != "never" {
				return fmt.Errorf("key %q is not allowed; %s", k, want)
			}
			if _, err := stringList(v[k]); err != nil {
				return fmt.Errorf("%s: %v", k, err)
			}
		}
		return nil
	}
	return fmt.Errorf("%s", want)
}

func (f *FunctionConfig) validate(p place, i int, claim claimFunc) error {
	bad := func(key, format string, args ...any) error { return p.errorf("functions", i, key, format, args...) }
	switch {
	case f.Name == "":
		return bad("name", "missing; a function needs a name (letters, digits, _ and -)")
	case !tools.ValidName(f.Name):
		return bad("name", "%q must be 1 to 64 letters, digits, _ or - (the API's rule for function names)", f.Name)
	}
	if err := claim("functions", i, "name", f.Name); err != nil {
		return err
	}
	if _, err := f.argv(); err != nil {
		return bad("command", "%v", err)
	}
	if _, err := tools.ParseApproval(f.Approval); err != nil {
		return bad("approval", "%v", err)
	}
	if _, err := f.parameters(); err != nil {
		return bad("parameters", "%v", err)
	}
	return checkPassthrough(f.EnvPassthrough, bad)
}

// checkPassthrough checks env_passthrough: variable names.
func checkPassthrough(names []string, bad func(key, format string, args ...any) error) error {
	for _, n := range names {
		if !validEnvName(n) {
			return bad("env_passthrough", "%q is not an environment variable name (letters, digits and _)", n)
		}
	}
	return nil
}

// argv is the command to run: the array, or with shell the one line.
func (f *FunctionConfig) argv() ([]string, error) {
	switch c := f.Command.(type) {
	case nil:
		return nil, fmt.Errorf("missing; set command = [\"program\", \"arg\"]")
	case string:
		switch {
		case strings.TrimSpace(c) == "":
			return nil, fmt.Errorf("the command is empty")
		case !f.Shell:
			return nil, fmt.Errorf("a string runs through sh -c only with shell = true; write an argv array like [\"git\", \"status\"], or set shell = true")
		}
		return []string{c}, nil
	case []any:
		if f.Shell {
			return nil, fmt.Errorf("with shell = true the command is one string for sh -c, not an array")
		}
		argv, err := stringList(c)
		if err != nil {
			return nil, err
		}
		if len(argv) == 0 || argv[0] == "" {
			return nil, fmt.Errorf("the command is empty; its first element is the program")
		}
		return argv, nil
	}
	return nil, fmt.Errorf("want a string or an array of strings")
}

// parameters is the schema as JSON, compiled to check it; nil when unset.
func (f *FunctionConfig) parameters() (json.RawMessage, error) {
	var raw json.RawMessage
	switch v := f.Parameters.(type) {
	case nil:
		return nil, nil
	case string:
		raw = json.RawMessage(v)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("cannot write the schema as JSON: %v", err)
		}
		raw = b
	}
	if _, err := tools.CompileSchema(raw); err != nil {
		return nil, err
	}
	return raw, nil
}

func (s *MCPServerConfig) validate(p place, i int, claim claimFunc) error {
	bad := func(key, format string, args ...any) error { return p.errorf("mcp_servers", i, key, format, args...) }
	switch {
	case s.Name == "":
		return bad("name", "missing; an MCP server needs a name (letters, digits, _ and -)")
	case !tools.ValidName(s.Name):
		return bad("name", "%q must be 1 to 64 letters, digits, _ or -", s.Name)
	case s.Command == nil && s.URL == "":
		return bad("command", "missing; set command = [\"program\", \"arg\"] (or url to a server on the network)")
	}
	if _, err := s.argv(); s.Command != nil && err != nil {
		return bad("command", "%v", err)
	}
	if err := s.validateHTTP(bad); err != nil {
		return err
	}
	if err := claim("mcp_servers", i, "name", s.Name); err != nil {
		return err
	}
	if _, err := tools.ParseApproval(s.Approval); err != nil {
		return bad("approval", "%v", err)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		if !validEnvName(k) {
			return bad("env", "%q is not an environment variable name (letters, digits and _)", k)
		}
	}
	if err := nonEmpty(s.AllowedTools); err != nil {
		return bad("allowed_tools", "%v", err)
	}
	return checkPassthrough(s.EnvPassthrough, bad)
}

// ToolSet turns the tool sections into package tools' Config. Local tools
// never see a variable runnel reads a secret from: OPENAI_API_KEY and
// provider.api_key_env (unless a tool says pass_api_key), and hosted MCP
// tools' authorization_env and headers_env variables (unless a tool names
// them in env_passthrough).
func (c Config) ToolSet() (tools.Config, error) {
	if err := c.validateTools("config", nil); err != nil {
		return tools.Config{}, err // a Config built by hand, not loaded
	}
	tc := tools.Config{SecretEnv: c.SecretEnv(), APIKeyEnv: c.apiKeyEnv()}
	if c.MaxToolRounds != nil {
		tc.MaxRounds = *c.MaxToolRounds
	}
	for _, h := range c.Tools {
		tc.Hosted = append(tc.Hosted, h.hosted())
	}
	for _, f := range c.Functions {
		argv, err := f.argv()
		if err != nil {
			return tools.Config{}, fmt.Errorf("function %s: command: %w", f.Name, err)
		}
		params, err := f.parameters()
		if err != nil {
			return tools.Config{}, fmt.Errorf("function %s: parameters: %w", f.Name, err)
		}
		approval, err := tools.ParseApproval(f.Approval)
		if err != nil {
			return tools.Config{}, fmt.Errorf("function %s: %w", f.Name, err)
		}
		tc.Functions = append(tc.Functions, tools.Function{
			Name: f.Name, Description: f.Description, Parameters: params, Command: argv, Shell: f.Shell,
			Timeout: f.Timeout.Duration, Approval: approval, Dir: f.Dir, PassAPIKey: f.PassAPIKey,
			EnvPassthrough: f.EnvPassthrough,
		})
	}
	for _, s := range c.MCPServers {
		argv, _ := s.argv() // checked by validate
		if s.URL != "" {
			argv = []string{""}
		}
		approval, err := tools.ParseApproval(s.Approval)
		if err != nil {
			return tools.Config{}, fmt.Errorf("mcp server %s: %w", s.Name, err)
		}
		tc.Servers = append(tc.Servers, tools.Server{
			Name: s.Name, Command: argv[0], Args: argv[1:], Env: s.Env,
			AllowedTools: s.AllowedTools, Approval: approval, PassAPIKey: s.PassAPIKey,
			Timeout: s.Timeout.Duration, StartupTimeout: s.StartupTimeout.Duration, EnvPassthrough: s.EnvPassthrough,
			URL: s.URL, SSE: s.Transport == "sse", Headers: maps.Clone(s.Headers),
		})
	}
	return tc, nil
}

// apiKeyEnv are the API key's variables (OPENAI_API_KEY and
// provider.api_key_env): what pass_api_key hands a local tool.
func (c Config) apiKeyEnv() []string {
	out := []string{DefaultAPIKeyEnv}
	if e := c.Provider.APIKeyEnv; e != "" && e != DefaultAPIKeyEnv {
		out = append(out, e)
	}
	return out
}

// SecretEnv is every variable runnel reads a secret from: the API key's
// (apiKeyEnv), every other provider's api_key_env and the presets' key
// variables, hosted MCP tools' authorization_env and headers_env, and MCP
// servers' bearer_token_env. No child process runnel starts sees them
// (tools.ChildEnv), but for a tool's pass_api_key and env_passthrough.
func (c Config) SecretEnv() []string {
	out := c.apiKeyEnv()
	add := func(v string) {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	for _, p := range presets {
		add(p.KeyEnv)
	}
	for _, name := range slices.Sorted(maps.Keys(c.Providers)) {
		add(c.Providers[name].APIKeyEnv)
	}
	for _, h := range c.Tools {
		add(h.AuthorizationEnv)
		for _, v := range slices.Sorted(maps.Values(h.HeadersEnv)) {
			add(v)
		}
	}
	for _, s := range c.MCPServers {
		add(s.BearerTokenEnv)
	}
	return out
}

// hosted is the entry as package tools holds it: the request fields, and
// where its secrets come from.
func (h HostedToolConfig) hosted() tools.Hosted {
	out := tools.Hosted{Name: h.Type, Type: h.Type, Enabled: h.Enabled == nil || *h.Enabled, Fields: map[string]any{}}
	set := func(k, v string) {
		if v != "" {
			out.Fields[k] = v
		}
	}
	switch h.Type {
	case "web_search":
		set("search_context_size", h.SearchContextSize)
		if len(h.UserLocation) > 0 {
			loc := map[string]any{"type": "approximate"}
			for k, v := range h.UserLocation {
				loc[k] = v
			}
			out.Fields["user_location"] = loc
		}
		if len(h.Filters.AllowedDomains) > 0 {
			out.Fields["filters"] = map[string]any{"allowed_domains": h.Filters.AllowedDomains}
		}
	case "file_search":
		out.Fields["vector_store_ids"] = h.VectorStoreIDs
		if h.MaxNumResults != nil {
			out.Fields["max_num_results"] = *h.MaxNumResults
		}
	case "code_interpreter":
		if h.Container == "" || h.Container == "auto" {
			out.Fields["container"] = map[string]any{"type": "auto"}
		} else {
			out.Fields["container"] = h.Container
		}
	case "image_generation":
		set("size", h.Size)
		set("quality", h.Quality)
		set("background", h.Background)
		set("output_format", h.OutputFormat)
		set("model", h.Model)
	case "mcp":
		out.Name = h.ServerLabel
		set("server_label", h.ServerLabel)
		set("server_url", h.ServerURL)
		set("connector_id", h.ConnectorID)
		set("server_description", h.ServerDescription)
		if len(h.AllowedTools) > 0 {
			out.Fields["allowed_tools"] = h.AllowedTools
		}
		switch ra := h.RequireApproval.(type) {
		case string:
			out.Fields["require_approval"] = ra
		case map[string]any:
			filter := map[string]any{}
			for k, v := range ra {
				names, _ := stringList(v)
				filter[k] = map[string]any{"tool_names": names}
			}
			out.Fields["require_approval"] = filter
		}
		out.HeadersEnv = h.HeadersEnv
		out.AuthorizationEnv = h.AuthorizationEnv
		out.AuthorizationCommand = h.AuthorizationCommand
	}
	return out
}

// argv is the server's command line: command as [[functions]] take it (an
// argv array), or as a program alone with its arguments in args; args
// follow either form. Nil for a server on the network.
func (s *MCPServerConfig) argv() ([]string, error) {
	var argv []string
	switch c := s.Command.(type) {
	case nil:
		return nil, nil
	case string:
		if strings.TrimSpace(c) == "" {
			return nil, fmt.Errorf("the command is empty; set command = [\"program\", \"arg\"]")
		}
		argv = []string{c}
	case []any:
		list, err := stringList(c)
		if err != nil {
			return nil, err
		}
		if len(list) == 0 || strings.TrimSpace(list[0]) == "" {
			return nil, fmt.Errorf("the command is empty; its first element is the program")
		}
		argv = list
	default:
		return nil, fmt.Errorf("want an array of strings, like [\"node\", \"server.js\"]")
	}
	return append(argv, s.Args...), nil
}

// CommandLine is the server's command line as one string, for listings
// ("" for a server on the network).
func (s MCPServerConfig) CommandLine() string {
	argv, _ := s.argv()
	return strings.Join(argv, " ")
}

// stringList reads a TOML array of strings decoded into an interface.
func stringList(v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want an array of strings")
	}
	out := make([]string, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("want an array of strings, got an array holding a %T", e)
		}
		out[i] = s
	}
	return out, nil
}

// nonEmpty rejects empty strings in a list.
func nonEmpty(list []string) error {
	for i, s := range list {
		if strings.TrimSpace(s) == "" {
			return fmt.Errorf("element %d is empty", i+1)
		}
	}
	return nil
}

func quoteAll(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}
