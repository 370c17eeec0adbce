// Package tools gives the model tools: hosted tools the server runs
// (web_search, file_search, code_interpreter, image_generation, remote mcp),
// local function tools that run a command on this machine, and tools of
// MCP servers runnel speaks to itself: local ones over stdio, and servers
// on the network (Server.URL) over streamable HTTP or SSE (mcphttp.go),
// with configured headers or an OAuth login (Server.OAuth; package
// session/mcpauth keeps logins). It also holds the approval policy and the
// agentic loop that feeds tool results back to the model. MCP servers'
// prompts and resources are listed at start for the chat (mcpprompts.go:
// Prompts, GetPrompt, Resources, ReadResource).
//
// The record of a call and its run (Call, Result, Run, EncodeRuns) and the
// child environment (ChildEnv) are package toolrun's, named here by alias:
// a package that only shows a run or starts a process imports that one and
// does not link the MCP SDK.
//
// What it deliberately does not do: render anything, read the terminal or
// the config file, or send requests. The UI and the one-shot command own
// I/O; they call Runner.Run for the side effects and step a Loop, which is a
// pure state machine.
//
// # Names
//
// Every tool has one name, unique in a Config: a hosted tool is named by its
// type (web_search, file_search, code_interpreter, image_generation) or, for
// a remote MCP server, by its server_label; a function by its name; a local
// MCP server by its name (one toggle for all its tools). Names lists them
// for a /tools toggle and --tool.
//
// A local MCP server's tools reach the model as function tools named
// "<server>__<tool>" (two underscores). OpenAI accepts [a-zA-Z0-9_-]{1,64},
// so other characters become "_", long names are cut, and a clash gets a
// numeric suffix; the Manager keeps the mapping back to the server and the
// tool's real name, so a name is never parsed.
//
// # Flow
//
// One user turn, as both the TUI and -p drive it:
//
//	Loop.Begin(now)               → input owed from a cancelled round, if any
//	send request, stream response
//	Loop.Next(resp, now)          → the client-side calls, or a stop notice
//	Runner.Run(ctx, calls)        → validate → approve → run (≤4 at once)
//	Loop.Finish(results, now)     → the next input: every output, in call order,
//	                                sent with previous_response_id = resp.ID
//	… repeat until a response has no client-side calls, or max_tool_rounds.
//
// Esc at any point: cancel the context (running commands are killed, their
// whole process group; on Windows their job object, procgroup_windows.go)
// and call Loop.Cancel, which gives each unfinished call
// the output "cancelled by user"; Loop.Begin hands those outputs to the next
// user message so the chain stays valid. Drive runs this loop for callers
// that block (the one-shot command); the TUI calls the same methods from its
// messages.
//
// A call runs at most once per call_id in a user turn, whatever the stream
// repeats: a response that lists a call twice (llama.cpp sends it again in
// output_item.done and in the terminal response, with no id and no
// output_index) is one call, a later round that repeats a call_id that ran
// is not run again and gets no new output, and a resumed round skips what
// the journal says ran (Loop.Resume). Calls are read from the terminal
// response, so each output answers the server's final call_id.
//
// Run is where runnel's own run of a call stands and how it ended, as
// typed data (Status, not text): the UI keeps one per call_id for the
// call's panel, the status line and the one-shot summary, and the journal
// records how each ended (EncodeRuns, by stable codes) beside the round's
// outputs, so that a resumed session reads the outcome back (DecodeRuns);
// a call whose record is missing (a session an older runnel saved) reads
// as StatusUnrecorded. The output sent to the model is never parsed for it.
//
// Hosted tool items (web_search_call, mcp_call, …) are never run here: the
// server runs them. Tool output goes back to the model as received, but for
// the secret values in Hooks.Secrets, which are hidden in it; it is
// sanitized only for display, by the UI.
//
// # Limits and secrets
//
// A function command runs at most its timeout (30 s by default); an MCP
// call at most its server's timeout (60 s), then ends with one line naming
// the server and the tool; a server must start (launch, initialize, list
// its tools) within its startup_timeout (10 s), and its start returns by
// then even while the SDK still decodes a page (a listing runs aside,
// inTime, and one past the timeout is abandoned with its connection). A
// listing's page is held to its count as it streams in (mcplisting.go):
// runnel's readers of a server drop the entries of a tools, prompts or
// resources page past mcp_tools (mcp_prompts, mcp_resources) before the
// SDK decodes them, so a page under mcp_message_bytes of a hundred
// thousand tiny tools costs a small multiple of the page, not 35 times
// it; a tool's input schema is compiled at its first call, not at the
// start. Every tool result, a
// function's stdout or an MCP tool's over any transport, is held to the
// table of bounds' tool_result_bytes (stream.CutToolResult), and an MCP
// listing to its mcp_* bounds (mcpbounds.go). One message from a server
// (a listing's page, a result) is held to mcp_message_bytes as it streams
// in: over stdio by runnel's own reader of the server's stdout
// (mcpstdio.go), over HTTP by the policy's body and event bounds; past it
// the server is stopped with one line naming the key. Every schema is checked by
// the one bounded walker (schemawalk.go) before it is compiled.
//
// Every child process runnel starts (functions, local servers, hosted
// tools' authorization_command, !commands, the status line's command, and
// outside this package notify_command, api_key_command, $EDITOR, the
// login's browser, the clipboard readers and tmux) gets its environment
// from ChildEnv: runnel's minus Config.SecretEnv (every variable runnel
// reads a secret from), but for pass_api_key and env_passthrough. A test
// walks the module and fails on a process started any other way.
package tools
