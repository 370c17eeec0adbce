package stream

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
)

// TestLiveRefusalsNameTheParameter: each refusal body of fixtures/live
// names, first among the parameters it names, the one its file says was
// refused; responses.js's zod list reads as its issue about the reasoning
// item, not the first union branch ("Expected string, received array").
func TestLiveRefusalsNameTheParameter(t *testing.T) {
	want := map[string]string{
		"llamacpp-previous-response-id-400.json":       "previous_response_id",
		"responsesjs-reasoning-item-in-input-400.json": "input[1].type",
		"openai-reasoning-summary-400.json":            "reasoning.summary",
		"groq-style-include-400.json":                  "include",
		"pydantic-422.json":                            "text.verbosity",
		"vllm-response-not-found-404.json":             "response_id",
		"openrouter-store-true-400.json":               "", // named only in words: Mentions
	}
	files, _ := filepath.Glob(filepath.Join(sharedtest.Path(t, "fixtures", "live", "errors"), "*.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var le struct {
			Status  int
			Headers map[string]string
			Body    string
		}
		if err := json.Unmarshal(data, &le); err != nil {
			t.Fatal(err)
		}
		h := http.Header{}
		for k, v := range le.Headers {
			h.Set(k, v)
		}
		e := parseAPIError(&http.Response{StatusCode: le.Status, Header: h}, []byte(le.Body), "m")
		name := filepath.Base(f)
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: not in the table", name)
			continue
		}
		first := ""
		if len(e.Names) > 0 {
			first = e.Names[0].Path
		}
		if first != w {
			t.Errorf("%s: names %+v first; want %q", name, e.Names, w)
		}
		checkErrorLine(t, e)
	}
	data, _ := os.ReadFile(sharedtest.Path(t, "fixtures", "live", "errors", "responsesjs-reasoning-item-in-input-400.json"))
	var le struct{ Body string }
	json.Unmarshal(data, &le)
	e := parseAPIError(&http.Response{StatusCode: 400, Header: http.Header{}}, []byte(le.Body), "m")
	if line := e.Error(); strings.Contains(line, "Expected string, received array") || !strings.Contains(line, "input[1].type") || !strings.Contains(line, "reasoning") {
		t.Errorf("line %q", line)
	}
	if !(&APIError{Status: 400, Message: "store: true is not supported; the Responses API is stateless"}).Mentions("store") {
		t.Error("OpenRouter's store is not seen")
	}
	for _, m := range []string{"reasoning.summary is not supported", "restore failed", "storex"} {
		if (&APIError{Status: 400, Message: m}).Mentions("store") || (&APIError{Status: 400, Message: m}).Mentions("reasoning") {
			t.Errorf("%q mentions store or reasoning as a field", m)
		}
	}
}
