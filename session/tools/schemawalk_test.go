package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"runnel/stream"
)

// A schema that would send the validator round a $ref cycle for ever, or
// past the table's bounds, is refused in one line before it is compiled;
// a recursive schema whose cycle descends into the value compiles and
// checks.
func TestCompileSchemaBounds(t *testing.T) {
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 10*stream.DefaultBounds.SchemaDepth) + `{}` + strings.Repeat(`}}`, 10*stream.DefaultBounds.SchemaDepth)
	big := `{"type":"object","description":"` + strings.Repeat("x", 10*stream.DefaultBounds.SchemaBytes) + `"}`
	for name, c := range map[string]struct{ schema, want string }{
		"self":          {`{"$ref":"#"}`, "a $ref cycle: # comes back to #"},
		"pair":          {`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, "a $ref cycle"},
		"through allOf": {`{"allOf":[{"$ref":"#"}]}`, "a $ref cycle"},
		"anchor":        {`{"$defs":{"x":{"$anchor":"me","anyOf":[{"$ref":"#me"}]}},"type":"object"}`, "a $ref cycle"},
		"escaped":       {`{"$defs":{"a/b":{"not":{"$ref":"#/$defs/a~1b"}}}}`, "a $ref cycle"},
		"deep":          {deep, "passed 64 levels"},
		"big":           {big, "passed 1 MiB"},
	} {
		_, err := CompileSchema(json.RawMessage(c.schema))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line holding %q", name, err, c.want)
		}
	}
	tree := `{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}}}`
	s, err := CompileSchema(json.RawMessage(tree))
	if err != nil {
		t.Fatalf("a recursive tree schema: %v", err)
	}
	if err := s.Check(`{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]}`); err != nil {
		t.Errorf("a tree: %v", err)
	}
	if err := s.Check(`{"name":"a","children":[{"name":1}]}`); err == nil {
		t.Error("a bad tree passed")
	}
}
