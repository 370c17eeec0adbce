package demo

import (
	"embed"
	"encoding/json"
	"strings"
)

// The long answers live in text/ as plain markdown; the reasoning summaries,
// tool calls and tool results are short and live below.
//
//go:embed text/*.md
var texts embed.FS

// showcase is one scripted answer. play emits its items between the
// builder's start and its complete (or fail).
type showcase struct {
	name     string
	keywords []string // lowercase; matched anywhere in the user's text
	play     func(b *builder)
}

// showcases in rotation order: a prompt without a keyword gets the next one,
// so the first answer is the markdown tour that names the other keywords.
var showcases = []showcase{
	{"markdown", []string{"markdown"}, playMarkdown},
	{"tools", []string{"tool", "function", "search", "weather"}, playTools},
	{"mcp", []string{"mcp"}, playMCP},
	{"approval", []string{"approve", "approval", "deploy"}, playApproval},
	{"failure", []string{"fail", "error"}, playFailure},
}

func playMarkdown(b *builder) {
	b.reasoning("**Planning a first answer**\n\n" +
		"No API key is set, so this is the built-in demo. I'll say so, explain how to reach a real server, " +
		"and list the keywords that start the other showcases, using headings, code, a table and a list " +
		"so the renderer has something to show.")
	b.message(text("markdown"))
	b.complete()
}

func playTools(b *builder) {
	b.reasoning(
		"**Checking the weather tool**\n\n"+
			"The user wants the weather. A `get_weather` function is available, so I'll call it for Lisbon "+
			"in Celsius instead of guessing.",
		"**Finding a source to cite**\n\n"+
			"A web search can back the forecast with a page the user can open. I'll search for this week's "+
			"Lisbon forecast and cite the best result.")
	b.functionCall("get_weather", `{"city":"Lisbon","unit":"celsius"}`)
	b.webSearch("Lisbon weather forecast this week",
		"https://weather.example.com/lisbon/week",
		"https://forecast.example.org/pt/lisbon")
	b.message(text("tools"), cite{
		span:  "([weather.example.com](https://weather.example.com/lisbon/week))",
		title: "Lisbon: 7-day forecast | Example Weather",
		url:   "https://weather.example.com/lisbon/week",
	})
	b.complete()
}

func playMCP(b *builder) {
	b.mcpListTools("demo-docs", docsTools)
	b.reasoning() // real servers often send a reasoning item with no summary
	b.mcpCall("demo-docs", "search_docs", `{"query":"streaming events","limit":3}`,
		"3 results:\n"+
			"1. guide/streaming.md: how a response streams, from response.created to response.completed.\n"+
			"2. guide/events.md: every event type with an example payload.\n"+
			"3. guide/errors.md: what error and response.failed mean for a client.", "")
	b.message(text("mcp"))
	b.complete()
}

// Approval: the first response stops at the request; the follow-up
// (playApproved or playDenied) answers the client's mcp_approval_response.

const deployArgs = `{"branch":"main","environment":"preview"}`

func playApproval(b *builder) {
	b.mcpListTools("demo-deploy", deployTools)
	b.reasoning()
	b.approvalRequest("demo-deploy", "deploy_preview", deployArgs)
	b.complete()
}

func playApproved(b *builder, requestID string) {
	b.mcpListTools("demo-deploy", deployTools)
	b.mcpCall("demo-deploy", "deploy_preview", deployArgs,
		"Deployed main to preview: https://preview.example.com/runnel-demo (build 42, 14 s)", requestID)
	b.message(text("approved"))
	b.complete()
}

func playDenied(b *builder) {
	b.mcpListTools("demo-deploy", deployTools)
	b.message(text("denied"))
	b.complete()
}

// playToolResults answers a request that carries function_call_output items:
// the client ran (or refused) the calls of the tools showcase.
func playToolResults(b *builder, outputs []string) {
	var sb strings.Builder
	sb.WriteString("runnel answered the function call and sent the result back, as the agentic loop does:\n\n")
	for _, o := range outputs {
		if r := []rune(o); len(r) > 200 {
			o = string(r[:200]) + "…"
		}
		sb.WriteString("> " + strings.ReplaceAll(o, "\n", " ") + "\n\n")
	}
	sb.WriteString("A real model would now use that result in its answer. To run `get_weather` for real, declare it under `[[functions]]` in the config (see config.example.toml).")
	b.message(sb.String())
	b.complete()
}

func playFailure(b *builder) {
	b.partialMessage(text("failure"))
	b.fail("server_error", "The demo provider stopped this response on purpose to show a failure mid-stream; send another message to continue.")
}

var docsTools = []mcpTool{
	tool("search_docs", "Search the demo documentation and return the best matching pages.", true,
		`{"type":"object","properties":{"query":{"type":"string","description":"Words to look for"},"limit":{"type":"integer","description":"Most results to return","minimum":1,"maximum":10}},"required":["query"],"additionalProperties":false}`),
	tool("read_page", "Return one documentation page as markdown.", true,
		`{"type":"object","properties":{"path":{"type":"string","description":"Page path, e.g. guide/streaming.md"}},"required":["path"],"additionalProperties":false}`),
	tool("list_sections", "List the sections of the documentation.", true,
		`{"type":"object","properties":{},"additionalProperties":false}`),
}

var deployTools = []mcpTool{
	tool("deploy_preview", "Deploy a branch to a preview environment and return its URL.", false,
		`{"type":"object","properties":{"branch":{"type":"string","description":"Git branch to deploy"},"environment":{"type":"string","enum":["preview","staging"]}},"required":["branch"],"additionalProperties":false}`),
	tool("rollback", "Roll an environment back to its previous deployment.", false,
		`{"type":"object","properties":{"environment":{"type":"string","enum":["preview","staging"]}},"required":["environment"],"additionalProperties":false}`),
}

func tool(name, description string, readOnly bool, schema string) mcpTool {
	t := mcpTool{Description: description, InputSchema: json.RawMessage(schema), Name: name}
	t.Annotations.ReadOnly = readOnly
	return t
}

// text returns the embedded answer text/<name>.md without its final newline.
func text(name string) string {
	b, err := texts.ReadFile("text/" + name + ".md")
	if err != nil {
		panic("demo: missing text " + name) // embed bug
	}
	return strings.TrimRight(string(b), "\n")
}
