package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/session/attach"
	"runnel/session/tools"
	"runnel/stream"
)

// mcpManager starts the go-sdk's own MCP server over streamable HTTP, with
// one prompt (review: file, [focus]) and one resource (mem://notes), and a
// Manager connected to it as server "web".
func mcpManager(t *testing.T) *tools.Manager {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "web", Version: "1"}, nil)
		s.AddPrompt(&mcp.Prompt{Name: "review", Description: "review a file", Arguments: []*mcp.PromptArgument{{Name: "file", Required: true}, {Name: "focus"}}},
			func(_ context.Context, r *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{
					Text: "Review " + r.Params.Arguments["file"] + " for " + r.Params.Arguments["focus"]}}}}, nil
			})
		s.AddResource(&mcp.Resource{URI: "mem://notes", Name: "notes", MIMEType: "text/plain"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "mem://notes", Text: "meeting notes\x1b[2J"}}}, nil
			})
		return s
	}, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	m := tools.NewMCP(tools.Config{Servers: []tools.Server{{Name: "web", URL: ts.URL}}}, tools.StartHooks{})
	m.Start(t.Context())
	t.Cleanup(func() { m.Close() })
	return m
}

// An MCP prompt is a slash command: /mcp: lists it, its arguments are
// checked, and running it sends its messages as the user's turn.
func TestMCPPromptSlashCommand(t *testing.T) {
	t.Parallel()
	mgr := mcpManager(t)
	c := newTestComposer()
	c.SetMCP(mgr.Prompts(nil), mgr.Resources(nil))
	c = typeText(c, "/mcp:")
	if len(c.menu.rows) != 1 || c.menu.rows[0].Usage() != "/mcp:web:review file [focus]" || c.menu.rows[0].Desc != "review a file" {
		t.Fatalf("menu %+v", c.menu.rows)
	}
	c.Reset()
	c = typeText(c, "/mcp:web:review")
	c, cmd := c.Update(keyMsg("enter"))
	if cmd != nil || c.Value() != "/mcp:web:review " {
		t.Fatalf("enter without the argument: %q %v", c.Value(), run(cmd))
	}
	c, cmd = c.Update(keyMsg("enter"))
	if msgs := run(cmd); len(msgs) != 1 || !strings.Contains(msgs[0].(NoticeMsg).Text, "/mcp:web:review needs file") {
		t.Fatalf("missing argument: %#v", msgs)
	}
	c = typeText(c, "main.go focus=races")
	_, cmd = c.Update(keyMsg("enter"))
	msgs := run(cmd)
	if len(msgs) != 1 || msgs[0] != (SlashMsg{Name: "mcp:web:review", Args: "main.go focus=races"}) {
		t.Fatalf("enter gave %#v", msgs)
	}
	got := run(mcpPromptCmd(t.Context(), mgr, "mcp:web:review", "main.go focus=races"))
	if len(got) != 1 || got[0].(SubmitMsg).Text != "Review main.go for races" {
		t.Fatalf("the prompt sent %#v", got)
	}
	c.Reset()
	c = typeText(c, "/mcp:web:nope")
	_, cmd = c.Update(keyMsg("enter"))
	if msgs := run(cmd); len(msgs) != 1 || !strings.Contains(msgs[0].(NoticeMsg).Text, "no MCP prompt /mcp:web:nope") {
		t.Fatalf("unknown prompt: %#v", msgs)
	}
}

// An MCP resource is attached with @: tab completes it to a chip, and its
// contents, sanitized, go with the message as a text file's do; typed out
// whole it is attached too.
func TestMCPResourceAttach(t *testing.T) {
	t.Parallel()
	mgr := mcpManager(t)
	c := newTestComposer()
	c.SetMCP(mgr.Prompts(nil), mgr.Resources(nil))
	c = typeText(c, "summarise @mcp:web:mem")
	c, _ = c.Update(keyMsg("tab"))
	if c.Value() != "summarise " || len(c.att.files) != 1 || c.att.files[0].Path != "mcp:web:mem://notes" {
		t.Fatalf("after tab: %q %+v", c.Value(), c.att.files)
	}
	if v := c.att.view(100, nil); !strings.Contains(v, "[notes · mcp]") {
		t.Fatalf("chip %q", v)
	}
	files, err := c.takeFiles("summarise")
	if err != nil {
		t.Fatal(err)
	}
	read, err := readResources(t.Context(), mgr, files, attach.Limits{}, stream.NewRedactor().String)
	if err != nil {
		t.Fatal(err)
	}
	msg := readMessage("summarise", read, attach.Limits{}, nil)
	body := string(msg.msg)
	if msg.err != nil || !strings.Contains(body, `mcp:web:mem://notes`) || !strings.Contains(body, "meeting notes") || strings.Contains(body, `\u001b`) {
		t.Fatalf("message %s %v", body, msg.err)
	}
	c2 := newTestComposer()
	c2.SetMCP(mgr.Prompts(nil), mgr.Resources(nil))
	files, _ = c2.takeFiles("read @mcp:web:mem://notes please")
	if len(files) != 1 {
		t.Fatalf("a typed-out mention is not attached: %+v", files)
	}
	c2 = typeText(c2, "@mcp:zzz")
	_, cmd := c2.Update(keyMsg("tab"))
	if msgs := run(cmd); len(msgs) != 1 || msgs[0].(hintMsg).text != "no MCP resource matches mcp:zzz" {
		t.Fatalf("no match: %#v", msgs)
	}
}
