package ui

// This file is the composer's @ completion part: what an @word completes
// to, files and the MCP servers' resources.

import "runnel/session/tools"

// mentionMenu completes @mentions.
//
// Invariants: resources are as the servers listed them.
type mentionMenu struct {
	resources []tools.Resource // the MCP servers' resources, @mcp:SERVER:URI (mcpextras.go)
}
