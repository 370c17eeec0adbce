package block

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestMCPListToolsNamesShow: the ◆ server: N tools panel names every tool
// collapsed (issue 10 item 6: its body was empty) and adds the descriptions
// expanded, on every real fixture that lists MCP tools.
func TestMCPListToolsNamesShow(t *testing.T) {
	for _, name := range []string{
		"vercel__ai/openai-mcp-tool-two-calls.sse",
		"pydantic__pydantic-ai/openai-mcp-server-tool.sse",
		"vercel__ai/openai-mcp-approval-request.sse",
	} {
		t.Run(name, func(t *testing.T) {
			r := newReplayer(t, fixture(t, name)).run()
			lists := r.byType("mcp_list_tools")
			if len(lists) == 0 {
				t.Fatal("no mcp_list_tools item")
			}
			for _, b := range lists {
				tools := b.Item().Details().Tools
				if len(tools) == 0 {
					t.Fatal("the item lists no tools")
				}
				for _, width := range []int{40, 100} {
					collapsed := b.Render(r.ctx(width))
					checkFits(t, "collapsed", collapsed, width)
					plain := ansi.Strip(collapsed)
					for _, tl := range tools {
						if !strings.Contains(plain, tl.Name) && !strings.Contains(plain, "more line") {
							t.Errorf("width %d: collapsed panel lacks tool %q:\n%s", width, tl.Name, plain)
						}
					}
					if !strings.Contains(plain, tools[0].Name) {
						t.Errorf("width %d: the first tool is not named:\n%s", width, plain)
					}
				}
				x := b.(Expander)
				x.SetExpanded(true)
				expanded := ansi.Strip(b.Render(r.ctx(100)))
				x.SetExpanded(false)
				for _, tl := range tools {
					if !strings.Contains(expanded, tl.Name) {
						t.Errorf("expanded panel lacks tool %q:\n%s", tl.Name, expanded)
					}
				}
				if d := tools[0].Description; d != "" && !strings.Contains(expanded, cleanLine(d)[:min(20, len(cleanLine(d)))]) {
					t.Errorf("expanded panel lacks the description %q:\n%s", d, expanded)
				}
			}
		})
	}
}

func TestWrapWordsNeverSplitsAName(t *testing.T) {
	lines := wrapWords([]string{"search_docs", "read_page", "list_sections"}, " · ", 24)
	want := []string{"search_docs · read_page", "list_sections"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q", lines)
	}
}
