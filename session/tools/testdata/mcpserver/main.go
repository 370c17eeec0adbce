// Command mcpserver is the test MCP server of package tools over stdio
// (mcptest.Main), for the end-to-end tests of runnel's MCP servers.
package main

import (
	"os"

	"runnel/session/tools/mcptest"
)

func main() { mcptest.Main(os.Args[1:]) }
