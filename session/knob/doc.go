// Package knob holds what a session asks the server with and the values
// each setting takes: Settings (model, instructions, effort, tools, state,
// tier, verbosity, prompt cache key) and their stored JSON, a prompt
// file's Override of them for one turn, the accepted reasoning efforts,
// service tiers and verbosities, conversations mode's state, the default
// response limit, and a session's own prompt cache key.
//
// It is its own package so that what only needs these values (config,
// prompt files, AGENTS.md) does not link the conversation, its store
// (SQLite), tools (the MCP SDK) and export (goldmark): package session
// aliases Settings and Override, and builds requests from them.
//
// It does not build requests, keep conversations, read config files or
// talk to a server.
package knob
