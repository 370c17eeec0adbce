package tools

// This file holds an MCP server's tool listing to the table of bounds
// (stream.Limits): how many tools a server offers, and the size of each
// one's name, description and input schema. A tool past a bound is left
// out (its description is cut instead), and the server's start reports it
// in one line naming the [limits] keys to raise. The count is held as each
// page streams in too (mcplisting.go): the entries of a page past
// mcp_tools are never decoded.

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/stream"
)

// toolBounds counts what one listing left out or cut.
type toolBounds struct {
	more              bool // the server offered more than mcp_tools
	name, schema, bad int  // tools left out: a long name, a large schema, a schema past the schema checks
	descriptions      int  // descriptions cut
}

// admit holds t to the bounds: false leaves it out; a long description is
// cut in place.
func (b *toolBounds) admit(t *mcp.Tool) bool {
	lim := stream.Limits()
	if len(t.Name) > lim.MCPToolName {
		b.name++
		return false
	}
	params := toolParams(t)
	if len(params) > lim.MCPToolSchema {
		b.schema++
		return false
	}
	if params != nil {
		tree, _ := t.InputSchema.(map[string]any) // as the SDK decoded it: not decoded again
		if err := CheckSchema(params, tree); err != nil {
			b.bad++
			return false
		}
	}
	if len(t.Description) > lim.MCPToolDescription {
		cut := lim.MCPToolDescription
		for cut > 0 && !utf8.RuneStart(t.Description[cut]) {
			cut--
		}
		t.Description = t.Description[:cut] + "…"
		b.descriptions++
	}
	return true
}

// line is the one line saying what the listing of server left out, "" when
// nothing.
func (b *toolBounds) line(server string) string {
	lim := stream.Limits()
	var parts, keys []string
	if b.more {
		parts = append(parts, fmt.Sprintf("it offers more than %d tools: the rest are left out", lim.MCPTools))
		keys = append(keys, "mcp_tools")
	}
	if b.name > 0 {
		parts = append(parts, fmt.Sprintf("%d with a name longer than %d bytes left out", b.name, lim.MCPToolName))
		keys = append(keys, "mcp_tool_name_bytes")
	}
	if b.schema > 0 {
		parts = append(parts, fmt.Sprintf("%d with an input schema larger than %s left out", b.schema, stream.FormatBytes(lim.MCPToolSchema)))
		keys = append(keys, "mcp_tool_schema_bytes")
	}
	if b.bad > 0 {
		parts = append(parts, fmt.Sprintf("%d with an input schema too deep or with a $ref cycle left out", b.bad))
		keys = append(keys, "schema_depth")
	}
	if b.descriptions > 0 {
		parts = append(parts, fmt.Sprintf("%d descriptions cut at %s", b.descriptions, stream.FormatBytes(lim.MCPToolDescription)))
		keys = append(keys, "mcp_tool_description_bytes")
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("mcp server %s: %s — raise [limits] %s in the config to take more", server, strings.Join(parts, "; "), strings.Join(keys, ", "))
}

// toolParams is t's input schema as JSON, nil when it has none.
func toolParams(t *mcp.Tool) json.RawMessage {
	if t.InputSchema == nil {
		return nil
	}
	params, _ := json.Marshal(t.InputSchema)
	return params
}
