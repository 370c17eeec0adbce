package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream"
)

// Strict is asked only when every object is closed and requires all its
// properties, nested ones and $defs included.
func TestStrictable(t *testing.T) {
	cases := map[string]bool{
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`:                                                                                                             true,
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`:                                                                                                                                          false,
		`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"],"additionalProperties":false}`:                                                                                       false,
		`{"type":"array","items":{"type":"string"}}`:                                                                                                                                                                       false,
		`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"number"}}}}},"required":["l"],"additionalProperties":false}`:                                               false,
		`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}}},"required":["l"],"additionalProperties":false}`: true,
		`{"type":"object","properties":{"r":{"$ref":"#/$defs/d"}},"required":["r"],"additionalProperties":false,"$defs":{"d":{"type":"object","properties":{}}}}`:                                                          false,
	}
	for src, want := range cases {
		var m map[string]any
		if err := json.Unmarshal([]byte(src), &m); err != nil {
			t.Fatal(err)
		}
		if got := Strictable(m); got != want {
			t.Errorf("%s: strict %v, want %v", src, got, want)
		}
	}
}

// LoadSchema takes inline JSON or a file, names a bad one, and checks
// answers in one line.
func TestLoadSchemaAndCheck(t *testing.T) {
	sch, err := LoadSchema(` {"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`)
	if err != nil || sch.Format.Name != "answer" || !sch.Format.Strict || sch.Format.Type != "json_schema" {
		t.Fatalf("inline: %+v %v", sch, err)
	}
	if err := sch.Check(`{"n":3}`); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`{"n":"3"}`, `{}`, `not json`, `{"n":1,"m":2}`} {
		if err := sch.Check(bad); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	path := filepath.Join(t.TempDir(), "my schema.v2.json")
	os.WriteFile(path, []byte(`{"type":"string"}`), 0o600)
	if sch, err := LoadSchema(path); err != nil || sch.Format.Name != "my_schema_v2" || sch.Format.Strict {
		t.Fatalf("file: %+v %v", sch, err)
	}
	os.WriteFile(path, []byte(`{"type":`), 0o600)
	if _, err := LoadSchema(path); err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("bad file: %v", err)
	}
	if _, err := LoadSchema(t.TempDir()); err == nil {
		t.Fatal("a directory was read")
	}
}

// LastAnswer is the newest assistant message's text, past a turn that
// brought none.
func TestLastAnswer(t *testing.T) {
	msg := func(text string) *stream.Snapshot {
		it, err := stream.ItemFromJSON(json.RawMessage(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"` + text + `"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return &stream.Snapshot{Terminal: true, Items: []*stream.Item{it}}
	}
	c := &Conversation{}
	if c.LastAnswer() != "" {
		t.Fatal("an empty conversation has an answer")
	}
	c.Turns = []*Turn{{Responses: []*stream.Snapshot{msg("first")}}, {Responses: []*stream.Snapshot{msg("second")}}, {Err: os.ErrClosed}}
	if got := c.LastAnswer(); got != "second" {
		t.Fatalf("got %q", got)
	}
}
