package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream"
	"runnel/stream/streamtest"
)

// strictSchema allows strict: every object closed, every property required.
const strictSchema = `{"type":"object","properties":{"city":{"type":"string"},"temp":{"type":"integer"}},"required":["city","temp"],"additionalProperties":false}`

// writeSchema writes a schema file in the test's temp dir.
func writeSchema(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// oneLine fails unless s is exactly one line, and returns it.
func oneLine(t *testing.T, s string) string {
	t.Helper()
	s = strings.TrimSuffix(s, "\n")
	if s == "" || strings.Contains(s, "\n") {
		t.Fatalf("stderr is not one line: %q", s)
	}
	return s
}

// textFormat is the request's text.format.
func textFormat(t *testing.T, rec streamtest.Recorded) map[string]any {
	t.Helper()
	text, _ := rec.JSON()["text"].(map[string]any)
	f, _ := text["format"].(map[string]any)
	if f == nil {
		t.Fatalf("request has no text.format: %s", rec.Body)
	}
	return f
}

// An answer that validates is printed alone, as the JSON, with exit 0;
// the request asked for it with a strict json_schema format named after
// the file.
func TestSchemaValidAnswerPrintsOnlyJSON(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_a", `{"city":"Paris",`, `"temp":21}`)})
	path := writeSchema(t, "weather.json", strictSchema)
	out, errOut, code := runnel(t, "", "--base-url", srv.URL, "--no-save", "--schema", path, "-p", "weather in Paris")
	if code != exitOK || out != `{"city":"Paris","temp":21}`+"\n" || errOut != "" {
		t.Fatalf("exit %d out %q err %q; want only the JSON", code, out, errOut)
	}
	f := textFormat(t, srv.Requests()[0])
	if f["type"] != "json_schema" || f["name"] != "weather" || f["strict"] != true {
		t.Fatalf("text.format = %v; want json_schema named weather, strict", f)
	}
	if got, _ := json.Marshal(f["schema"]); !strings.Contains(string(got), `"additionalProperties":false`) {
		t.Fatalf("schema sent = %s", got)
	}
}

// An answer that does not validate is one line on stderr, nothing on
// stdout, and exit 6; a schema that leaves an object open goes with
// strict false; --output-last-message still keeps the answer.
func TestSchemaInvalidAnswerFails(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_a", `{"city":3}`)},
		streamtest.Reply{SSE: streamtest.Text("resp_b", `It is sunny.`)})
	open := `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`
	last := filepath.Join(t.TempDir(), "last.txt")
	out, errOut, code := runnel(t, "", "--base-url", srv.URL, "--no-save", "--schema", open, "--output-last-message", last, "-p", "weather")
	if code != exitSchema || out != "" {
		t.Fatalf("exit %d out %q; want 6 and no output", code, out)
	}
	if line := oneLine(t, errOut); !strings.Contains(line, "does not match the schema") || !strings.Contains(line, last) {
		t.Fatalf("stderr %q; want what did not match and where the answer is", line)
	}
	if data, _ := os.ReadFile(last); string(data) != `{"city":3}` {
		t.Fatalf("--output-last-message wrote %q", data)
	}
	if f := textFormat(t, srv.Requests()[0]); f["strict"] != false || f["name"] != "answer" {
		t.Fatalf("text.format = %v; want strict false (an open object), named answer", f)
	}
	// prose is not JSON
	_, errOut, code = runnel(t, "", "--base-url", srv.URL, "--no-save", "--schema", open, "-p", "weather")
	if line := oneLine(t, errOut); code != exitSchema || !strings.Contains(line, "not JSON") {
		t.Fatalf("exit %d stderr %q; want 6 and that the answer is not JSON", code, line)
	}
}

// A schema file that is not a JSON Schema is one line naming it, before
// any request.
func TestSchemaBadFileNamed(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	srv := streamtest.New(t)
	for name, body := range map[string]string{
		"notjson.json":  "type: object\n",
		"array.json":    `[{"type":"object"}]`,
		"badtype.json":  `{"type":5}`,
		"typo.json":     `{"type":"objekt"}`,
		"deeptypo.json": `{"type":"object","properties":{"n":{"type":["integer","nul"]}}}`,
		"dangling.json": `{"$ref":"#/$defs/missing"}`,
	} {
		path := writeSchema(t, name, body)
		out, errOut, code := runnel(t, "", "--base-url", srv.URL, "--no-save", "--schema", path, "-p", "hi")
		if line := oneLine(t, errOut); code != exitUsage || out != "" || !strings.Contains(line, path) {
			t.Errorf("%s: exit %d out %q err %q; want 2 and one line naming the file", name, code, out, line)
		}
	}
	_, errOut, code := runnel(t, "", "--base-url", srv.URL, "--no-save", "--schema", filepath.Join(t.TempDir(), "none.json"), "-p", "hi")
	if line := oneLine(t, errOut); code != exitUsage || !strings.Contains(line, "none.json") {
		t.Errorf("missing file: exit %d err %q", code, line)
	}
	_, errOut, code = runnel(t, "", "--base-url", srv.URL, "--no-save", "--schema", strictSchema, "--format", "json", "-p", "hi")
	if line := oneLine(t, errOut); code != exitUsage || !strings.Contains(line, "--format") {
		t.Errorf("--schema with --format: exit %d err %q", code, line)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests sent; want none", n)
	}
}

// --output-last-message writes the final answer's text.
func TestOutputLastMessage(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_a", "Hello ", "there.")})
	last := filepath.Join(t.TempDir(), "answer.md")
	out, errOut, code := runnel(t, "", "--base-url", srv.URL, "--no-save", "--format", "text", "--output-last-message", last, "-p", "hi")
	if code != exitOK || strings.TrimSpace(out) != "Hello there." {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	if data, err := os.ReadFile(last); err != nil || string(data) != "Hello there." {
		t.Fatalf("file = %q, %v", data, err)
	}
}

// A schema the validator would recurse on for ever ($ref cycles), or past
// the table's bounds (10× the depth, 10× the size), is one line and exit
// 2 before anything is sent: never a stack overflow after the request.
func TestSchemaCycleRefusedBeforeSending(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	srv := streamtest.New(t)
	depth := 10 * stream.DefaultBounds.SchemaDepth
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, depth) + `{}` + strings.Repeat(`}}`, depth)
	big := writeSchema(t, "big.json", `{"type":"object","description":"`+strings.Repeat("x", 10*stream.DefaultBounds.SchemaBytes)+`"}`)
	for name, c := range map[string]struct{ arg, want string }{
		"self": {`{"$ref":"#"}`, "a $ref cycle"},
		"pair": {`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, "a $ref cycle"},
		"deep": {deep, "schema_depth"},
		"big":  {big, "schema_bytes"},
	} {
		last := filepath.Join(t.TempDir(), "last.txt")
		out, errOut, code := runnel(t, "", "--base-url", srv.URL, "--no-save", "--schema", c.arg, "--output-last-message", last, "-p", "hi")
		if line := oneLine(t, errOut); code != exitUsage || out != "" || !strings.Contains(line, c.want) {
			t.Errorf("%s: exit %d out %q err %q; want 2 and one line holding %q", name, code, out, line, c.want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests sent; want none", n)
	}
}
