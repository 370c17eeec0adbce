package tools

// This file says why an MCP server did not start in one line a user can
// act on, in the words the provider's own connection errors use
// ("connection refused — is it running? check url"), never the SDK's
// chain of Go errors ("calling "initialize": sending …: dial tcp …").

import (
	"errors"
	"io"
	"net/url"
	"os/exec"
	"strings"

	"runnel/stream"
)

// urlKey is what the connection lines tell the user to check.
const urlKey = "its url in [[mcp_servers]]"

// ConnectLine says why the server at rawURL could not be reached, in one
// line naming what to check (connectLine, for callers outside the package).
func ConnectLine(rawURL string, err error) string { return connectLine(rawURL, err) }

// connectLine says why the server at rawURL could not be reached.
func connectLine(rawURL string, err error) string {
	host := rawURL
	if u, perr := url.Parse(rawURL); perr == nil && u.Host != "" {
		host = u.Host
	}
	if line, ok := stream.ConnProblem(host, err, urlKey); ok {
		return "connect to " + stream.SanitizeLine(host) + ": " + line
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "connect to " + stream.SanitizeLine(host) + ": the server closed the connection without an answer — is it an MCP server? check " + urlKey
	}
	return "connect to " + stream.SanitizeLine(host) + ": " + innermost(err) + " — check " + urlKey
}

// startLine says why the command of a server on this machine did not
// start, or did not speak MCP.
func startLine(command string, err error) string {
	name := stream.SanitizeLine(command)
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return "no program " + quote(name) + " on PATH — check its command in [[mcp_servers]], or install it"
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return quote(name) + " ended before it answered — is it an MCP server? check its command and args in [[mcp_servers]]"
	}
	return "start " + quote(name) + ": " + innermost(err) + " — check its command in [[mcp_servers]]"
}

// innermost is the last part of an error chain written as "a: b: c" (the
// SDK's "calling …: sending …:" prefixes dropped), sanitized and short.
func innermost(err error) string {
	msg := stream.SanitizeLine(err.Error())
	if i := strings.LastIndex(msg, ": "); i >= 0 && i+2 < len(msg) {
		msg = msg[i+2:]
	}
	if r := []rune(msg); len(r) > 200 {
		msg = string(r[:200]) + "…"
	}
	return msg
}

func quote(s string) string { return `"` + s + `"` }
