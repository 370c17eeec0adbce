package markdown

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
)

// fixtureAnswers are recorded model answers used as markdown inputs.
var fixtureAnswers = []string{
	"vercel__ai/lmstudio-basic-markdown.sse",
	"vercel__ai/xai-text-reasoning-markdown.sse",
	"pydantic__pydantic-ai/openai-reasoning-4-summary-parts.sse",
}

// realAnswerFixtures are the recorded answers BenchmarkStreamRenderReal
// streams, as ui's BenchmarkChatStreamRender does.
var realAnswerFixtures = []string{
	"vercel__ai/lmstudio-basic-markdown.sse",
	"vercel__ai/xai-text-reasoning-markdown.sse",
	"pydantic__pydantic-ai/openai-reasoning-4-summary-parts.sse",
	"vercel__ai/openai-mcp-tool-two-calls.sse",
	"pydantic__pydantic-ai/openai-reasoning-code-interpreter.sse",
}

// realAnswers concatenates the final answers of realAnswerFixtures, each
// followed by a blank line, until n bytes, cut after a paragraph.
func realAnswers(t testing.TB, n int) string {
	t.Helper()
	var doc strings.Builder
	for doc.Len() < n {
		for _, name := range realAnswerFixtures {
			doc.WriteString(outputText(t, name) + "\n\n")
		}
	}
	s := doc.String()[:n]
	return s[:strings.LastIndex(s, "\n\n")+1]
}

// outputText returns the final text of the first response.output_text.done
// event in a recorded SSE stream.
func outputText(t testing.TB, name string) string {
	t.Helper()
	path := sharedtest.Real(t, name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open fixture: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			continue // not every data line is an event we model
		}
		if ev.Type == "response.output_text.done" {
			return ev.Text
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read fixture %s: %v", name, err)
	}
	t.Fatalf("fixture %s has no response.output_text.done event", name)
	return ""
}
