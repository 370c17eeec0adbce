package tools

// This file turns an MCP tool result into the text the model gets, and
// keeps the tail of a server's stderr for messages.

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/stream"
)

// resultText joins a result's text content; other content is summarized in
// brackets ("[image: 12 KB png]"), since a function output is text. A result
// with no content but structured content gives that, as JSON.
func resultText(res *mcp.CallToolResult) string {
	parts := make([]string, 0, len(res.Content))
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			return string(b)
		}
	}
	return strings.Join(parts, "\n")
}

func contentText(c mcp.Content) string {
	switch c := c.(type) {
	case *mcp.TextContent:
		return c.Text
	case *mcp.ImageContent:
		return fmt.Sprintf("[image: %s %s]", byteSize(int64(len(c.Data))), subtype(c.MIMEType))
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio: %s %s]", byteSize(int64(len(c.Data))), subtype(c.MIMEType))
	case *mcp.ResourceLink:
		return fmt.Sprintf("[resource link: %s %s]", c.Name, c.URI)
	case *mcp.EmbeddedResource:
		r := c.Resource
		switch {
		case r == nil:
			return "[resource]"
		case r.Text != "":
			return r.Text
		}
		return fmt.Sprintf("[resource: %s, %s %s]", r.URI, byteSize(int64(len(r.Blob))), subtype(r.MIMEType))
	case nil:
		return ""
	}
	b, _ := c.MarshalJSON()
	var kind struct{ Type string }
	_ = json.Unmarshal(b, &kind)
	return fmt.Sprintf("[%s content]", kind.Type)
}

// subtype is "png" for "image/png"; "" stays "data".
func subtype(mime string) string {
	if mime == "" {
		return "data"
	}
	_, sub, ok := strings.Cut(mime, "/")
	if !ok {
		return mime
	}
	return sub
}

// tailMax is how much of a server's stderr is kept.
const tailMax = 4 << 10

// tail keeps the last tailMax bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailMax; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// hint is ": <last line of stderr>", safe for a terminal and at most 200
// characters, or "" when the server wrote nothing.
func (t *tail) hint() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	last := stream.SanitizeLine(strings.TrimSpace(lines[len(lines)-1]))
	if last == "" {
		return ""
	}
	if r := []rune(last); len(r) > 200 {
		last = string(r[:200]) + "…"
	}
	return ": " + last
}
