package tools

// This file checks a call's arguments against its tool's JSON Schema, with
// github.com/google/jsonschema-go: the MCP SDK already depends on it (no new
// module), it is pure Go, and it validates drafts 2020-12 and 07, which
// covers what function tools and MCP servers declare.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"runnel/stream"
)

// Schema is a compiled JSON Schema for a tool's arguments.
type Schema struct {
	resolved *jsonschema.Resolved
}

// emptyObject is what a tool without parameters declares.
var emptyObject = json.RawMessage(`{"type":"object","properties":{}}`)

// CheckSchema checks a schema's shape against the table of bounds before
// anything resolves or sends it: raw at most schema_bytes, nesting at most
// schema_depth, and no $ref cycle that never descends into the value
// (WalkSchema). tree is raw decoded, or nil to decode it here.
func CheckSchema(raw []byte, tree map[string]any) error {
	if limit := stream.Limits().SchemaBytes; len(raw) > limit {
		return &stream.BoundError{What: "the schema", Key: "schema_bytes", Limit: limit, Got: stream.FormatBytes(len(raw))}
	}
	if tree == nil {
		if err := json.Unmarshal(raw, &tree); err != nil {
			return fmt.Errorf("not a JSON object: %w", err)
		}
	}
	return WalkSchema(tree, func(map[string]any) bool { return true })
}

// CompileSchema parses and resolves a schema. It must be a JSON object (the
// API rejects anything else as function parameters) within the bounds
// CheckSchema checks; references outside the schema are not fetched and
// are an error.
func CompileSchema(raw json.RawMessage) (*Schema, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errors.New("the schema must be a JSON object, like {\"type\": \"object\", \"properties\": {}}")
	}
	if err := CheckSchema(raw, nil); err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("not a JSON Schema: %w", err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON Schema: %w", err)
	}
	return &Schema{resolved: r}, nil
}

// Check validates a call's arguments, a JSON text. The error is the message
// the model gets back in place of the tool's output, so it says what was
// wrong in the model's terms.
func (s *Schema) Check(arguments string) error {
	var v any
	args := bytes.TrimSpace([]byte(arguments))
	if len(args) == 0 {
		args = []byte("{}") // models send "" for a call without arguments
	}
	if err := json.Unmarshal(args, &v); err != nil {
		return fmt.Errorf("the arguments are not valid JSON: %v", err)
	}
	if s == nil {
		return nil
	}
	if err := s.resolved.Validate(v); err != nil {
		return fmt.Errorf("the arguments do not match the tool's schema: %v", err)
	}
	return nil
}
