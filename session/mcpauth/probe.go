package mcpauth

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"runnel/session/tools"
	"runnel/stream"
	"runnel/stream/httppolicy"
)

// Probed is what a server on the network said to an initialize sent with
// no login: whether it needs one, or why it could not be asked.
type Probed struct {
	NeedsLogin bool   // it answered 401 or 403, or asked for credentials (WWW-Authenticate)
	Problem    string // one line when it could not be asked or answered oddly; "" otherwise
}

// probeBody is an MCP initialize request, as a client opens a session.
const probeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"runnel","version":"1"}}}`

// Probe sends the server at serverURL an MCP initialize with no login,
// through the HTTP policy (bound to the server's origin, with the
// configured headers attached there only), within
// httppolicy.MCPProbeWait, and reports what it answered. A 2xx answer
// means no login is needed; nothing of the body is read.
func Probe(ctx context.Context, serverURL string, headers map[string]string) Probed {
	ctx, cancel := context.WithTimeout(ctx, httppolicy.MCPProbeWait)
	defer cancel()
	h := http.Header{}
	for k, v := range headers {
		h.Set(k, v)
	}
	var refused error
	client := httppolicy.New(httppolicy.Options{
		Origin: serverURL, Secrets: h,
		Connect: httppolicy.MCPProbeWait, FirstByte: httppolicy.MCPProbeWait, Idle: httppolicy.MCPProbeWait,
		MaxBody:  64 << 10,
		Hint:     "if the server has moved, set its url in [[mcp_servers]]",
		OnRefuse: func(err error) { refused = err },
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, serverURL, strings.NewReader(probeBody))
	if err != nil {
		return Probed{Problem: "bad url " + stream.SanitizeLine(serverURL) + " — check its url in [[mcp_servers]]"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		if refused != nil {
			err = refused
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return Probed{Problem: "no answer within " + httppolicy.MCPProbeWait.String() + " — is it running? check its url in [[mcp_servers]]"}
		}
		return Probed{Problem: tools.ConnectLine(serverURL, err)}
	}
	_, _ = io.CopyN(io.Discard, resp.Body, 4<<10) // let the connection be reused; the rest is not wanted
	resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden || resp.Header.Get("WWW-Authenticate") != "":
		return Probed{NeedsLogin: true}
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return Probed{}
	}
	return Probed{Problem: "answered " + strconv.Itoa(resp.StatusCode) + " " + stream.SanitizeLine(http.StatusText(resp.StatusCode)) + " — is it an MCP server? check its url in [[mcp_servers]]"}
}
