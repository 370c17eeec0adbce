package tools

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Defaults for settings a Config leaves at zero.
const (
	DefaultMaxRounds = 16               // tool rounds per user turn
	DefaultTimeout   = 30 * time.Second // a function command's run time

	// DefaultMCPTimeout bounds one MCP tool call. Longer than a function's
	// 30 s: MCP tools often front remote services (search, fetch, a
	// database) that answer slowly, and a server that still sends progress
	// is probably working; but it must end, so a hung server cannot hold
	// `runnel -p` for ever.
	DefaultMCPTimeout = 60 * time.Second
	// DefaultMCPStartupTimeout bounds a server's launch, handshake and tool
	// listing. A local stdio server answers initialize in well under a
	// second; 10 s leaves room for `npx`/`uvx` fetching a package from a
	// warm cache, without a silent server holding the start for long.
	DefaultMCPStartupTimeout = 10 * time.Second
	MaxParallel              = 4    // calls of one round running at once
	Separator                = "__" // between server and tool in an MCP tool's function name
)

// Approval says when a local tool needs the user's yes before it runs.
type Approval int

const (
	ApproveAlways Approval = iota // ask before every call (the default)
	ApproveNever                  // run without asking
	ApproveOnce                   // ask once; a yes holds for the rest of the session
)

func (a Approval) String() string {
	switch a {
	case ApproveAlways:
		return "always"
	case ApproveNever:
		return "never"
	case ApproveOnce:
		return "once-per-session"
	}
	return fmt.Sprintf("Approval(%d)", int(a))
}

// ParseApproval reads a config value; "" is the default, always.
func ParseApproval(s string) (Approval, error) {
	switch s {
	case "", "always":
		return ApproveAlways, nil
	case "never":
		return ApproveNever, nil
	case "once-per-session":
		return ApproveOnce, nil
	}
	return 0, fmt.Errorf("%q is not an approval policy; use \"always\", \"never\" or \"once-per-session\"", s)
}

// Config is every tool a session may offer the model. It holds no secrets:
// hosted tools name where theirs come from, and RequestTools reads them.
//
// Invariants (checked by the config loader, package session/config, the one
// place tool config is validated):
//   - Names are unique across Hosted, Functions and Servers, and match
//     [a-zA-Z0-9_-]{1,64}.
//   - Every Function has a Command; with Shell it is one element, the line.
//   - Parameters, when set, is a JSON object that compiles as a schema.
//   - Timeouts are >= 0 (0 = DefaultTimeout); MaxRounds >= 0 (0 = default).
type Config struct {
	Hosted    []Hosted
	Functions []Function
	Servers   []Server
	MaxRounds int // 0 = DefaultMaxRounds
	// SecretEnv are the variables runnel reads secrets from (the API key's,
	// hosted MCP tools' authorization_env and headers_env): they are
	// removed from every local tool's environment, but for the API key's
	// (APIKeyEnv) with pass_api_key and those a tool names in
	// env_passthrough.
	SecretEnv []string
	APIKeyEnv []string // the API key's variables, a subset of SecretEnv
}

// hiddenEnv is what to remove from a local tool's environment.
func (c Config) hiddenEnv(passAPIKey bool, passthrough []string) []string {
	var out []string
	for _, v := range c.SecretEnv {
		if passAPIKey && slices.Contains(c.APIKeyEnv, v) || slices.Contains(passthrough, v) {
			continue
		}
		out = append(out, v)
	}
	return out
}

// secretName reports whether an environment variable's name says it holds
// a secret: its value (in an [[mcp_servers]] env table) is then hidden in
// everything runnel shows or stores.
func secretName(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "AUTH", "CREDENTIAL", "COOKIE", "SESSION", "PRIVATE"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// SecretValues are the secrets the config names, read now with env (nil
// means os.Getenv): the values of SecretEnv, and of each MCP server's env
// entries whose name says they are secret (TOKEN, KEY, SECRET, …). Add
// them to the session's stream.Redactor. (A hosted MCP tool's
// authorization_command is run at request time: Runner.RequestTools adds
// its token then.)
func (c Config) SecretValues(env func(string) string) []string {
	if env == nil {
		env = os.Getenv
	}
	var out []string
	for _, v := range c.SecretEnv {
		out = append(out, env(v))
	}
	for _, s := range c.Servers {
		for k, v := range s.Env {
			if secretName(k) {
				out = append(out, v)
			}
		}
		for _, v := range s.Headers { // a network server's headers are its credentials
			out = append(out, v, strings.TrimPrefix(v, "Bearer "))
		}
	}
	return out
}

// Hosted is a tool the server runs. Fields go into the request beside
// "type" as they are; the secrets named here are read at request time.
type Hosted struct {
	Name    string         // the toggle name: the type, or the server_label of an mcp tool
	Type    string         // web_search, file_search, code_interpreter, image_generation, mcp
	Enabled bool           // on when the session starts
	Fields  map[string]any // the tool's other fields, as sent

	HeadersEnv           map[string]string // mcp: header name → variable holding its value
	AuthorizationEnv     string            // mcp: variable holding the OAuth token
	AuthorizationCommand []string          // mcp: argv printing the token
}

// Function is a local function tool: the model calls it, runnel runs
// Command.
type Function struct {
	Name        string
	Description string
	Parameters  json.RawMessage // JSON Schema of the arguments; nil = an object with any properties
	Command     []string        // argv; with Shell, the single line for sh -c
	Shell       bool
	Timeout     time.Duration // 0 = DefaultTimeout
	Approval    Approval
	Dir         string // working directory; "" = runnel's own
	PassAPIKey  bool   // keep the API key's variables (APIKeyEnv) in the command's environment
	// EnvPassthrough names variables of SecretEnv the command may see.
	EnvPassthrough []string
}

// Server is a local MCP server started over stdio.
type Server struct {
	Name           string
	Command        string
	Args           []string
	Env            map[string]string // added to the inherited environment
	AllowedTools   []string          // empty = all
	Approval       Approval
	PassAPIKey     bool
	EnvPassthrough []string      // variables of SecretEnv the server may see
	Timeout        time.Duration // one call; 0 = DefaultMCPTimeout
	StartupTimeout time.Duration // launch, initialize and tools/list; 0 = DefaultMCPStartupTimeout

	// A server on the network (URL set) is spoken to over HTTP instead of
	// started: streamable HTTP, falling back to SSE when the first POST gets
	// a 4xx other than 401/403, or SSE only when SSE is set. Headers go with
	// every request (an Authorization header from bearer_token_env among
	// them); OAuth, when set, supplies and refreshes a login's token.
	URL     string
	SSE     bool
	Headers map[string]string
	OAuth   auth.OAuthHandler
}

// callTimeout is the server's call timeout with the default applied.
func (s Server) callTimeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultMCPTimeout
}

// startupTimeout is the server's start-up timeout with the default applied.
func (s Server) startupTimeout() time.Duration {
	if s.StartupTimeout > 0 {
		return s.StartupTimeout
	}
	return DefaultMCPStartupTimeout
}

// Kind is what sort of tool a name stands for.
type Kind int

const (
	KindHosted   Kind = iota // run by the server
	KindFunction             // a local command
	KindServer               // a local MCP server (all its tools)
)

func (k Kind) String() string {
	switch k {
	case KindHosted:
		return "hosted"
	case KindFunction:
		return "function"
	case KindServer:
		return "mcp"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Info describes one name for a tool list.
type Info struct {
	Name    string
	Kind    Kind
	Detail  string // the hosted type, the function's description or the server's command
	Enabled bool   // on by default
}

// List describes every tool name in config order: hosted, functions,
// servers.
func (c Config) List() []Info {
	var out []Info
	for _, h := range c.Hosted {
		out = append(out, Info{Name: h.Name, Kind: KindHosted, Detail: h.Type, Enabled: h.Enabled})
	}
	for _, f := range c.Functions {
		out = append(out, Info{Name: f.Name, Kind: KindFunction, Detail: f.Description, Enabled: true})
	}
	for _, s := range c.Servers {
		out = append(out, Info{Name: s.Name, Kind: KindServer, Detail: s.Command, Enabled: true})
	}
	return out
}

// Names lists every tool name, for a /tools toggle and --tool.
func (c Config) Names() []string {
	var out []string
	for _, i := range c.List() {
		out = append(out, i.Name)
	}
	return out
}

// EnabledByDefault reports whether a name is on when a session starts:
// hosted tools per their config, functions and servers always.
func (c Config) EnabledByDefault(name string) bool {
	for _, i := range c.List() {
		if i.Name == name {
			return i.Enabled
		}
	}
	return false
}

// Rounds is the round cap to use.
func (c Config) Rounds() int {
	if c.MaxRounds > 0 {
		return c.MaxRounds
	}
	return DefaultMaxRounds
}

var validName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// ValidName reports whether s may name a tool: 1 to 64 letters, digits, _
// or - (the API's rule for function names). The config loader checks every
// name with it; Config holds only names that pass.
func ValidName(s string) bool { return validName.MatchString(s) }

// function returns the function tool named n, or nil.
func (c Config) function(n string) *Function {
	i := slices.IndexFunc(c.Functions, func(f Function) bool { return f.Name == n })
	if i < 0 {
		return nil
	}
	return &c.Functions[i]
}
