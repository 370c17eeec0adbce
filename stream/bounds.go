package stream

// This file is the one table of bounds on what comes into runnel from
// outside: tool results, MCP tool lists, imported conversations, answer
// schemas, login files and the config itself. Every reader of such input
// takes its bound from here (Limits), and each bound has one config key in
// the [limits] table (BoundTable), named in the README. A reader that
// reaches its bound stops there and says so in one line (BoundError), it
// never holds more than the bound, crashes or passes the excess on.
//
// The response's own bound (max_response_bytes, the accumulator's Limit) is
// listed here too, as the one top-level key.

import (
	"fmt"
	"sync/atomic"
	"unicode/utf8"

	"runnel/stream/httppolicy"
)

// Bounds is every bound on input, in the unit its Bound names.
type Bounds struct {
	ToolResult         int // bytes of one tool result the model gets (function, MCP stdio, HTTP or SSE)
	MCPTools           int // tools one MCP server may offer
	MCPPrompts         int // prompts one MCP server may offer
	MCPResources       int // resources one MCP server may list
	MCPToolName        int // bytes of one MCP tool's name
	MCPToolDescription int // bytes of one MCP tool's description (longer ones are cut)
	MCPToolSchema      int // bytes of one MCP tool's input schema (a larger one drops the tool)
	MCPMessage         int // bytes of one message from an MCP server (stdio, HTTP body or SSE event)
	ImportPages        int // pages of one conversation import
	ImportPageBytes    int // bytes of one page of a conversation import
	ImportItems        int // items of one conversation import
	ImportBytes        int // bytes of one import in all (a file, or a conversation's items)
	SchemaBytes        int // bytes of a JSON Schema (--schema, a tool's parameters)
	SchemaDepth        int // nesting of a JSON Schema, $ref followed
	LoginFile          int // bytes of a saved MCP login file
}

// DefaultBounds are the bounds when the config sets none: far above what
// real input needs, far below what strains memory or time.
var DefaultBounds = Bounds{
	ToolResult:         64 << 10,
	MCPTools:           1000,
	MCPPrompts:         1000,
	MCPResources:       1000,
	MCPToolName:        256,
	MCPToolDescription: 16 << 10,
	MCPToolSchema:      64 << 10,
	MCPMessage:         16 << 20,
	ImportPages:        1000,
	ImportPageBytes:    8 << 20,
	ImportItems:        100000,
	ImportBytes:        256 << 20,
	SchemaBytes:        1 << 20,
	SchemaDepth:        64,
	LoginFile:          1 << 20,
}

// Bound describes one entry of the table.
type Bound struct {
	Key  string // its key in the config's [limits] table
	Unit string // "bytes", or what it counts
	What string // what it bounds, for the README and messages
	Min  int    // the least value the config may set
	ref  func(*Bounds) *int
}

// Get is the bound's value in b.
func (d Bound) Get(b Bounds) int { return *d.ref(&b) }

// Set sets the bound's value in b.
func (d Bound) Set(b *Bounds, v int) { *d.ref(b) = v }

// BoundTable lists every bound with its config key ([limits] KEY), in the
// order of the README's table.
var BoundTable = []Bound{
	{"tool_result_bytes", "bytes", "one tool result the model gets, from a function or an MCP server (stdio, HTTP or SSE)", 1 << 10, func(b *Bounds) *int { return &b.ToolResult }},
	{"mcp_tools", "tools", "tools one MCP server may offer", 1, func(b *Bounds) *int { return &b.MCPTools }},
	{"mcp_prompts", "prompts", "prompts one MCP server may offer", 1, func(b *Bounds) *int { return &b.MCPPrompts }},
	{"mcp_resources", "resources", "resources one MCP server may list", 1, func(b *Bounds) *int { return &b.MCPResources }},
	{"mcp_tool_name_bytes", "bytes", "one MCP tool's name", 16, func(b *Bounds) *int { return &b.MCPToolName }},
	{"mcp_tool_description_bytes", "bytes", "one MCP tool's description (cut)", 64, func(b *Bounds) *int { return &b.MCPToolDescription }},
	{"mcp_tool_schema_bytes", "bytes", "one MCP tool's input schema (the tool is left out)", 1 << 10, func(b *Bounds) *int { return &b.MCPToolSchema }},
	{"mcp_message_bytes", "bytes", "one message from an MCP server: a page of its tool list, a result (stdio, an HTTP body or one event of its stream)", 64 << 10, func(b *Bounds) *int { return &b.MCPMessage }},
	{"import_pages", "pages", "pages of one `sessions import --conversation`", 1, func(b *Bounds) *int { return &b.ImportPages }},
	{"import_page_bytes", "bytes", "one page of a conversation import", 64 << 10, func(b *Bounds) *int { return &b.ImportPageBytes }},
	{"import_items", "items", "items of one conversation import", 1, func(b *Bounds) *int { return &b.ImportItems }},
	{"import_bytes", "bytes", "one import in all: a session file, or a conversation's items", 1 << 20, func(b *Bounds) *int { return &b.ImportBytes }},
	{"schema_bytes", "bytes", "a JSON Schema: --schema, a function's parameters, an MCP tool's input schema", 1 << 10, func(b *Bounds) *int { return &b.SchemaBytes }},
	{"schema_depth", "levels", "nesting of a JSON Schema, counting each $ref followed", 4, func(b *Bounds) *int { return &b.SchemaDepth }},
	{"login_file_bytes", "bytes", "a saved MCP login (runnel mcp login)", 4 << 10, func(b *Bounds) *int { return &b.LoginFile }},
}

// CutToolResult cuts a tool's result to the table's tool_result_bytes, at a
// rune boundary, with one line saying so after it; a result within the
// bound comes back as it is. Every tool result the model gets (a
// function's stdout, an MCP tool's result over stdio, HTTP or SSE) is
// held to this bound.
func CutToolResult(s string) (string, bool) {
	limit := Limits().ToolResult
	if len(s) <= limit {
		return s, false
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[output cut at %s; the tool sent %s in all — [limits] tool_result_bytes]", FormatBytes(limit), FormatBytes(len(s))), true
}

// ResponseBoundKey is the one bound outside [limits]: the text one response
// may hold (Accumulator.Limit), set by the top-level max_response_bytes.
const ResponseBoundKey = "max_response_bytes"

// MaxConfigFile bounds the config file. It is the one bound the config
// cannot set, since it is read before the config is known.
const MaxConfigFile = 4 << 20

// SearchTextBytes bounds the text of one item that the session search
// index keeps, of each kind (prompt, answer, reasoning, tool): the first
// SearchTextBytes of an answer as long as the response limit are
// searchable, and the index never holds, tokenizes or copies the whole of
// it. The item itself is stored whole; only its search text is cut.
const SearchTextBytes = 1 << 20

// FixedBound is a bound of the table that the config does not set.
type FixedBound struct {
	What  string // what it bounds
	Value int    // in bytes, or in what Unit counts
	Unit  string
}

// FixedBounds are the table's rows without a config key: the config file's
// own (read before the config is known) and the HTTP policy's
// (stream/httppolicy, on every response runnel reads).
var FixedBounds = []FixedBound{
	{"the config file", MaxConfigFile, "bytes"},
	{"the text of one stored item the session search index keeps (of its prompt, answer, reasoning and tool text each; the item itself is stored whole)", SearchTextBytes, "bytes"},
	{"an HTTP response body that is not an event stream (/models, /conversations, a poll, an error body)", httppolicy.DefaultMaxBody, "bytes"},
	{"a response's headers", httppolicy.MaxHeader, "bytes"},
	{"an OAuth answer (discovery, registration, token)", httppolicy.OAuthMaxBody, "bytes"},
	{"an OAuth token", httppolicy.MaxToken, "bytes"},
}

// LookupBound finds the table entry for a [limits] key.
func LookupBound(key string) (Bound, bool) {
	for _, d := range BoundTable {
		if d.Key == key {
			return d, true
		}
	}
	return Bound{}, false
}

var current atomic.Pointer[Bounds]

// Limits returns the bounds in force: DefaultBounds with what the config's
// [limits] table set (SetLimits).
func Limits() Bounds {
	if b := current.Load(); b != nil {
		return *b
	}
	return DefaultBounds
}

// SetLimits puts b in force for the process; a zero field keeps its
// default. The config loader calls it once, before anything reads input.
func SetLimits(b Bounds) {
	for _, d := range BoundTable {
		if d.Get(b) <= 0 {
			d.Set(&b, d.Get(DefaultBounds))
		}
	}
	current.Store(&b)
}

// BoundError says that input reached one of the bounds: what, where from,
// the bound and its key, so the line says how to raise it.
type BoundError struct {
	What  string // what passed it: "the tool result of search__query", "conversation conv_1"
	Key   string // the [limits] key
	Limit int
	Got   string // how much there was, when known ("more than 1000 pages", "3.2 MiB")
}

func (e *BoundError) Error() string {
	d, _ := LookupBound(e.Key)
	limit := fmt.Sprintf("%d %s", e.Limit, d.Unit)
	if d.Unit == "bytes" {
		limit = FormatBytes(e.Limit)
	}
	got := ""
	if e.Got != "" {
		got = " (" + e.Got + ")"
	}
	return fmt.Sprintf("%s passed %s%s, the most runnel takes — raise [limits] %s in the config to allow more", e.What, limit, got, e.Key)
}
