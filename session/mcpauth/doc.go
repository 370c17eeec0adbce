// Package mcpauth logs runnel in to MCP servers on the network with OAuth
// 2.1 and keeps the tokens.
//
// Login (runnel mcp login NAME) asks the server, is refused with 401, and
// lets the MCP SDK's auth.AuthorizationCodeHandler do the rest: protected
// resource metadata (RFC 9728, from WWW-Authenticate's resource_metadata or
// the well-known paths), authorization server metadata (RFC 8414), dynamic
// client registration (RFC 7591), and the authorization code with PKCE
// (S256). runnel's part is the browser (xdg-open/open, or the URL printed
// when there is no display or it fails) and a redirect listener on
// 127.0.0.1 at a random port.
//
// A login is saved as one JSON file per server under DIR/mcp-auth (DIR is
// the data directory), named from a hash of the server's URL, mode 0600:
// the client registration, the token endpoint and the token. Handler gives
// the chat and -p the saved token, refreshes it when it has expired
// (refresh_token grant) and saves the new one; every token it reads or gets
// goes to the session's stream.Redactor first. A server that refuses the
// token (revoked, or the refresh was refused) gives a tools.LoginError: one
// line naming the server and `runnel mcp login NAME`. Nothing here opens a
// browser during a chat.
//
// What it does not do: read the config, or talk MCP beyond the one probe a
// login needs (the caller connects).
package mcpauth
