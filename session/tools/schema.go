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
)

// Schema is a compiled JSON Schema for a tool's arguments.
type Schema struct {
	resolved *jsonschema.Resolved
}

// emptyObject is what a tool without parameters declares.
var emptyObject = json.RawMessage(`{"type":"object","properties":{}}`)

// CompileSchema parses and resolves a schema. It must be a JSON object (the
// API rejects anything else as function parameters); references outside the
// schema are not fetched and are an error.
func CompileSchema(raw json.RawMessage) (*Schema, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, errors.New("the schema must be a JSON object, like {\"type\": \"object\", \"properties\": {}}")
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
