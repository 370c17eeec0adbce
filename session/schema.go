package session

// This file is structured output (-p --schema): a JSON Schema read from a
// file or given inline becomes the request's text.format (json_schema,
// strict when the schema allows it), and the answer is checked against it
// with github.com/google/jsonschema-go, the library runnel already uses
// for tool arguments.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"runnel/session/regfile"
	"runnel/session/tools"
	"runnel/stream"
)

// AnswerSchema is a JSON Schema the answer must follow.
//
// Invariants: Format is a json_schema format holding the schema's bytes;
// resolved is the same schema, resolved without fetching anything.
type AnswerSchema struct {
	Format   *stream.TextFormat
	Source   string // where it came from, for messages: the file's path, or "the --schema JSON"
	resolved *jsonschema.Resolved
}

// schemaName keeps what the API takes in a format's name.
var schemaName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// LoadSchema reads arg, a JSON Schema inline (it starts with "{") or the
// path of a file holding one. The error names the file (or says the JSON
// was inline) and says what is wrong: not JSON, not a JSON object, or a
// schema that does not resolve.
func LoadSchema(arg string) (*AnswerSchema, error) {
	raw := []byte(strings.TrimSpace(arg))
	src, name, where := "the --schema JSON", "answer", "the --schema JSON"
	if len(raw) == 0 || raw[0] != '{' {
		src, where = arg, "schema "+stream.SanitizeLine(arg)
		data, err := regfile.ReadFile(arg, int64(stream.Limits().SchemaBytes))
		var tooLarge *regfile.TooLargeError
		if errors.As(err, &tooLarge) {
			return nil, fmt.Errorf("schema %s: %v", stream.SanitizeLine(arg), &stream.BoundError{What: "the file", Key: "schema_bytes", Limit: stream.Limits().SchemaBytes})
		}
		if err != nil {
			return nil, fmt.Errorf("schema %s: cannot read it: %w", stream.SanitizeLine(arg), unwrapPath(err))
		}
		raw = bytes.TrimSpace(data)
		base := strings.TrimSuffix(filepath.Base(arg), filepath.Ext(arg))
		if n := strings.Trim(schemaName.ReplaceAllString(base, "_"), "_"); n != "" {
			name = n[:min(len(n), 64)]
		}
	}
	fail := func(what string, err error) error {
		line := where + ": " + what
		if err != nil {
			line += ": " + stream.SanitizeLine(err.Error())
		}
		return errors.New(line + " — give a JSON Schema object, like {\"type\": \"object\", \"properties\": {…}}")
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return nil, fail("not JSON", err)
	}
	obj, ok := tree.(map[string]any)
	if !ok {
		return nil, fail("not a JSON object", nil)
	}
	if err := tools.CheckSchema(raw, obj); err != nil { // before the library, which would recurse on a cycle
		return nil, errors.New(where + ": " + stream.SanitizeLine(err.Error()) + " — nothing was sent")
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fail("not a JSON Schema", err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, fail("not a valid JSON Schema", err)
	}
	if b := badType(obj); b != "" {
		return nil, fail(fmt.Sprintf("type %q is not a JSON type (%s)", stream.SanitizeLine(b), strings.Join(jsonTypes, ", ")), nil)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return nil, fail("not JSON", err)
	}
	f := &stream.TextFormat{Type: "json_schema", Name: name, Schema: compact.Bytes(), Strict: Strictable(obj)}
	return &AnswerSchema{Format: f, Source: src, resolved: r}, nil
}

// unwrapPath drops the path an *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Strictable reports whether a schema (decoded JSON) can be sent with
// strict: true, which OpenAI takes only when the root is an object and
// every object in it says additionalProperties: false and requires every
// one of its properties. It walks the schema with tools.WalkSchema: one
// past the bounds is not strictable.
func Strictable(root map[string]any) bool {
	if root["type"] != "object" {
		return false
	}
	strict := true
	if err := tools.WalkSchema(root, func(n map[string]any) bool { strict = strictNode(n); return strict }); err != nil {
		return false
	}
	return strict
}

// strictNode checks one schema node, not the schemas below it.
func strictNode(n map[string]any) bool {
	props, hasProps := n["properties"].(map[string]any)
	if n["type"] == "object" || hasProps {
		if ap, ok := n["additionalProperties"].(bool); !ok || ap {
			return false
		}
		req, _ := n["required"].([]any)
		for k := range props {
			if !slices.Contains(req, any(k)) {
				return false
			}
		}
	}
	return true
}

// jsonTypes are the names a schema's type may give.
var jsonTypes = []string{"null", "boolean", "object", "array", "number", "string", "integer"}

// badType is the first type name in schema n or below it that is not a
// JSON type ("objekt"), "" when there is none: the schema library resolves
// such a schema, and then nothing would ever match it.
func badType(n map[string]any) string {
	bad := ""
	_ = tools.WalkSchema(n, func(n map[string]any) bool {
		var names []any
		switch t := n["type"].(type) {
		case string:
			names = []any{t}
		case []any:
			names = t
		}
		for _, v := range names {
			if name, _ := v.(string); !slices.Contains(jsonTypes, name) {
				bad = fmt.Sprint(v)
				return false
			}
		}
		return true
	})
	return bad
}

// Check validates an answer's text against the schema. The error is one
// line: the answer is not JSON, or what of it does not match.
func (a *AnswerSchema) Check(answer string) error {
	var v any
	if err := json.Unmarshal([]byte(answer), &v); err != nil {
		return fmt.Errorf("the answer is not JSON (%s)", stream.SanitizeLine(err.Error()))
	}
	if err := a.resolved.Validate(v); err != nil {
		return fmt.Errorf("the answer does not match the schema %s: %s", stream.SanitizeLine(a.Source), stream.SanitizeLine(err.Error()))
	}
	return nil
}

// FinalAnswer is the text of the last assistant message of s, "" when it
// has none.
func FinalAnswer(s *stream.Snapshot) string {
	if s == nil {
		return ""
	}
	for i := len(s.Items) - 1; i >= 0; i-- {
		if it := s.Items[i]; it.Type == "message" && (it.Role == "" || it.Role == "assistant") {
			return it.Text()
		}
	}
	return ""
}

// LastAnswer is the text of the newest assistant message of the
// conversation (what --output-last-message writes when the chat ends), ""
// when there is none.
func (c *Conversation) LastAnswer() string {
	for i := len(c.Turns) - 1; i >= 0; i-- {
		rs := c.Turns[i].Responses
		for j := len(rs) - 1; j >= 0; j-- {
			if a := FinalAnswer(rs[j]); a != "" {
				return a
			}
		}
	}
	return ""
}
