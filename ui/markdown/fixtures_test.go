package markdown

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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

// allAnswers returns every distinct final answer text
// (response.output_text.done) in the recorded streams of fixtures/real,
// real2 and real3, keyed by file and index.
func allAnswers(t testing.TB) map[string]string {
	t.Helper()
	var roots []string
	for _, set := range answerSets {
		roots = append(roots, sharedtest.Path(t, "fixtures", set))
	}
	answersOnce.Do(func() { answersRead, answersErr = readAnswers(roots) })
	if answersErr != nil {
		t.Fatalf("read fixtures: %v", answersErr)
	}
	return maps.Clone(answersRead)
}

// sweptAnswers are the answers a long property sweep (colouring,
// rough blocks) checks: every one of allAnswers in the full run; under
// -short one in three, by sorted name.
func sweptAnswers(t testing.TB) map[string]string {
	t.Helper()
	all := allAnswers(t)
	if !testing.Short() {
		return all
	}
	for i, name := range slices.Sorted(maps.Keys(all)) {
		if i%3 != 0 {
			delete(all, name)
		}
	}
	return all
}

// The fixtures' answers are read once for the package's tests: each test
// gets a copy of its own.
var (
	answersOnce sync.Once
	answersRead map[string]string
	answersErr  error
)

// answerSets are the fixture sets the answers come from.
var answerSets = []string{"real", "real2", "real3"}

// readAnswers reads the answers of the sets at roots (answerSets, in
// order).
func readAnswers(roots []string) (map[string]string, error) {
	out := map[string]string{}
	seen := map[string]bool{}
	for i, root := range roots {
		set := answerSets[i]
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".sse") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			k := 0
			for _, line := range strings.Split(string(data), "\n") {
				payload, ok := strings.CutPrefix(line, "data: ")
				if !ok {
					continue
				}
				var ev struct {
					Type string `json:"type"`
					Text string `json:"text"`
				}
				if json.Unmarshal([]byte(payload), &ev) != nil || ev.Type != "response.output_text.done" {
					continue
				}
				if ev.Text != "" && !seen[ev.Text] {
					seen[ev.Text] = true
					rel, _ := filepath.Rel(root, path)
					out[fmt.Sprintf("%s/%s#%d", set, rel, k)] = ev.Text
				}
				k++
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
