// Package mcptest is the MCP server package tools' tests start: over
// stdio as a program (Main, which testdata/mcpserver and the tools test
// binary run), and its parts served over HTTP by the tests themselves
// (ManyTools, Flood). Its tools exercise what the Manager must handle:
// plain text, progress notifications, an isError result, a protocol
// error, non-text content, a call that waits for cancellation, a call that
// never answers (hang), and a crash.
//
// The args of Main choose a mode: "many N [PAGE]" offers N tools, PAGE a
// page (0: tools/list is never answered; N or more: one page, built as the
// server starts, so it comes at once); "hugepage N" answers tools/list
// with one message of N bytes and more; "flood TOOLS NAME DESC SCHEMA"
// adds what a listing must be bounded against; "silent" reads stdin and
// never answers anything, initialize included; "deaf" does not even read
// its stdin.
//
// It imports nothing of runnel and is imported only by tests (and the
// test program in session/tools/testdata/mcpserver).
package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to send back"`
}

// Main serves MCP over stdin and stdout as the args say (see the package
// doc) until stdin closes; it is a program's main.
func Main(args []string) {
	if len(args) > 0 && args[0] == "silent" {
		_, _ = io.Copy(io.Discard, os.Stdin) // until runnel closes stdin
		return
	}
	if len(args) > 0 && args[0] == "deaf" {
		time.Sleep(time.Hour) // reads nothing, as a server busy registering its tools
		return
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "testserver", Version: "1"}, nil)
	if len(args) > 0 && args[0] == "flood" {
		Flood(s, args[1:])
	}
	if len(args) > 1 && args[0] == "hugepage" {
		n, _ := strconv.Atoi(args[1])
		s.AddReceivingMiddleware(hugePage(n))
	}
	if len(args) > 1 && args[0] == "many" {
		n, _ := strconv.Atoi(args[1])
		page := n
		if len(args) > 2 {
			page, _ = strconv.Atoi(args[2])
		}
		s.AddReceivingMiddleware(ManyTools(n, page, nil))
	}

	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo text back"},
		func(_ context.Context, _ *mcp.CallToolRequest, a echoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + a.Text}}}, nil, nil
		})

	// big answers with as many bytes of text as its text argument says.
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "Answer with N bytes"},
		func(_ context.Context, _ *mcp.CallToolRequest, a echoArgs) (*mcp.CallToolResult, any, error) {
			n, _ := strconv.Atoi(a.Text)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("b", n)}}}, nil, nil
		})

	mcp.AddTool(s, &mcp.Tool{Name: "env", Description: "Print an environment variable"},
		func(_ context.Context, _ *mcp.CallToolRequest, a echoArgs) (*mcp.CallToolResult, any, error) {
			v, ok := os.LookupEnv(a.Text)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s=%q set=%t", a.Text, v, ok)}}}, nil, nil
		})

	// slow reports progress twice, then pings the client: the client answers
	// a ping only after handling the notifications before it, so the test
	// sees both before the result, without timing.
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Work in two steps, with progress"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			tok := req.Params.GetProgressToken()
			if tok != nil {
				for i, msg := range []string{"step one", "step two"} {
					err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
						ProgressToken: tok, Progress: float64(i + 1), Total: 2, Message: msg,
					})
					if err != nil {
						return nil, nil, err
					}
				}
				if err := req.Session.Ping(ctx, nil); err != nil {
					return nil, nil, err
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
		})

	// fail reports a tool-level error: isError with a message.
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Fail as a tool"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("the disk is full")
		})

	// broken answers with a JSON-RPC error instead of a result.
	s.AddTool(&mcp.Tool{Name: "broken", Description: "Fail as a protocol error", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("internal failure in broken")
		})

	mcp.AddTool(s, &mcp.Tool{Name: "picture", Description: "Return an image and a caption"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "a red dot"},
				&mcp.ImageContent{Data: make([]byte, 12000), MIMEType: "image/png"},
			}}, nil, nil
		})

	// block waits until the call is cancelled.
	mcp.AddTool(s, &mcp.Tool{Name: "block", Description: "Wait until cancelled"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Message: "waiting"})
			}
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})

	// hang never answers, not even to a cancellation.
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "Never answer"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			select {}
		})

	// crash exits the whole server in the middle of the call.
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "Exit the server"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "crashing on purpose")
			os.Exit(3)
			return nil, nil, nil
		})

	mcp.AddTool(s, &mcp.Tool{Name: "hidden.tool", Description: "Only listed when allowed"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hidden"}}}, nil, nil
		})

	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

// ManyTools answers tools/list with n tools, page at a time (page <= 0:
// never answers it, until the call's context ends or quit closes),
// without registering them: a server that offers 200,000 tools answers
// initialize at once.
func ManyTools(n, page int, quit <-chan struct{}) mcp.Middleware {
	var whole func() *mcp.ListToolsResult // one page of all n, built while initialize is answered: it comes at once
	if page >= n {
		whole = sync.OnceValue(func() *mcp.ListToolsResult { return manyPage(0, n) })
		go whole()
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/list" {
				return next(ctx, method, req)
			}
			if whole != nil {
				return whole(), nil
			}
			if page <= 0 {
				select {
				case <-ctx.Done():
				case <-quit:
				}
				return nil, fmt.Errorf("never")
			}
			from := 0
			if p, ok := req.GetParams().(*mcp.ListToolsParams); ok && p.Cursor != "" {
				from, _ = strconv.Atoi(p.Cursor)
			}
			to := min(from+page, n)
			res := manyPage(from, to)
			if to < n {
				res.NextCursor = strconv.Itoa(to)
			}
			return res, nil
		}
	}
}

// manyPage is a page of ManyTools' tools from up to to.
func manyPage(from, to int) *mcp.ListToolsResult {
	res := &mcp.ListToolsResult{Tools: make([]*mcp.Tool, 0, to-from)}
	for i := from; i < to; i++ {
		res.Tools = append(res.Tools, &mcp.Tool{Name: fmt.Sprintf("t%06d", i), Description: "one of many tools",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)})
	}
	return res
}

// Flood adds what a listing must be bounded against, sized by its
// arguments (tools, name bytes, description bytes, schema bytes): that
// many plain tools, one with a name that long, one with a description
// that long, one with an input schema that large, and one whose schema
// is its own $ref.
func Flood(s *mcp.Server, args []string) {
	n := make([]int, 4)
	for i := range n {
		if i < len(args) {
			n[i], _ = strconv.Atoi(args[i])
		}
	}
	obj := json.RawMessage(`{"type":"object"}`)
	noop := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	}
	s.AddTool(&mcp.Tool{Name: "longdesc", Description: strings.Repeat("d", n[2]), InputSchema: obj}, noop)
	s.AddTool(&mcp.Tool{Name: "bigschema", InputSchema: json.RawMessage(`{"type":"object","description":"` + strings.Repeat("s", n[3]) + `"}`)}, noop)
	s.AddTool(&mcp.Tool{Name: "cycle", InputSchema: json.RawMessage(`{"type":"object","allOf":[{"$ref":"#"}]}`)}, noop)
	s.AddTool(&mcp.Tool{Name: strings.Repeat("n", n[1]), InputSchema: obj}, noop)
	for i := range n[0] {
		s.AddTool(&mcp.Tool{Name: fmt.Sprintf("t%06d", i), Description: "one of many", InputSchema: obj}, noop)
	}
}

// hugePage answers tools/list with one message of more than n bytes: one
// tool whose description is n bytes long.
func hugePage(n int) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/list" {
				return next(ctx, method, req)
			}
			return &mcp.ListToolsResult{Tools: []*mcp.Tool{{Name: "huge", Description: strings.Repeat("h", n),
				InputSchema: json.RawMessage(`{"type":"object"}`)}}}, nil
		}
	}
}
