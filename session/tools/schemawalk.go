package tools

// This file is the one bounded walker over a JSON Schema (decoded JSON):
// every check that looks inside a schema (CheckSchema's bounds, --schema's
// strict and type checks) walks it with WalkSchema, so none can recurse
// without end. It refuses what the schema library would recurse on for
// ever when validating: a $ref cycle that never descends into the value (a
// schema that is its own $ref, or reaches itself through allOf, anyOf,
// oneOf, not, if/then/else or dependentSchemas alone). A recursive schema
// whose cycle passes through properties or items is fine: each turn of it
// reads a smaller part of the value.

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"runnel/stream"
)

// descending are the keywords whose subschemas apply to a part of the
// value (a property, an item, a key); the rest apply to the value itself.
var descending = []string{"properties", "patternProperties", "additionalProperties", "items", "prefixItems",
	"contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"}

// schemaChild is one schema directly below another.
type schemaChild struct {
	node     any
	keyword  string
	pointer  string // its JSON pointer from the root
	sameTurn bool   // it applies to the same value (no descent)
}

// children are the schemas directly below n, with their pointers.
func children(n map[string]any, at string) []schemaChild {
	var out []schemaChild
	add := func(kw string, v any, ptr string) {
		out = append(out, schemaChild{node: v, keyword: kw, pointer: ptr, sameTurn: !slices.Contains(descending, kw)})
	}
	for _, k := range []string{"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"} {
		if m, ok := n[k].(map[string]any); ok {
			for _, name := range sortedKeys(m) {
				add(k, m[name], at+"/"+escapePointer(k)+"/"+escapePointer(name))
			}
		}
	}
	for _, k := range []string{"anyOf", "allOf", "oneOf", "prefixItems"} {
		if a, ok := n[k].([]any); ok {
			for i, v := range a {
				add(k, v, at+"/"+k+"/"+strconv.Itoa(i))
			}
		}
	}
	for _, k := range []string{"items", "not", "additionalProperties", "if", "then", "else", "contains", "propertyNames",
		"unevaluatedProperties", "unevaluatedItems", "additionalItems"} {
		if v, ok := n[k]; ok {
			if a, isList := v.([]any); isList && k == "items" { // draft 4-7 tuple items
				for i, e := range a {
					add(k, e, at+"/items/"+strconv.Itoa(i))
				}
				continue
			}
			add(k, v, at+"/"+k)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// SchemaError says what is wrong with a schema's shape, at which pointer.
type SchemaError struct {
	Pointer string // "#/properties/a", "#" for the root
	Problem string
}

func (e *SchemaError) Error() string { return e.Problem }

// WalkSchema calls visit on root and on every schema object below it,
// parents first, each once, following no $ref; it returns a *SchemaError
// (or a *stream.BoundError for the depth) without calling visit further
// when the schema nests deeper than the table's schema_depth, or when a
// $ref cycle never descends into the value. visit returning false stops
// the walk (nil error).
func WalkSchema(root map[string]any, visit func(n map[string]any) bool) error {
	depth := stream.Limits().SchemaDepth
	type frame struct {
		n     map[string]any
		ptr   string
		depth int
	}
	nodes := map[string]map[string]any{} // pointer → node, for $ref
	var order []frame
	stack := []frame{{root, "#", 1}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.depth > depth {
			return &stream.BoundError{What: "the schema's nesting (at " + shortPointer(f.ptr) + ")", Key: "schema_depth", Limit: depth}
		}
		nodes[f.ptr] = f.n
		order = append(order, f)
		kids := children(f.n, f.ptr)
		for i := len(kids) - 1; i >= 0; i-- {
			if m, ok := kids[i].node.(map[string]any); ok {
				stack = append(stack, frame{m, kids[i].pointer, f.depth + 1})
			}
		}
	}
	if err := refCycles(nodes, depth); err != nil {
		return err
	}
	for _, f := range order {
		if !visit(f.n) {
			return nil
		}
	}
	return nil
}

// refCycles finds a $ref cycle that applies a schema to the same value
// again: a path of $ref and same-value keywords from a node back to
// itself. A chain of $ref longer than depth is refused as well.
func refCycles(nodes map[string]map[string]any, depth int) error {
	anchors := map[string]string{} // $anchor name → pointer
	for ptr, n := range nodes {
		if a, ok := n["$anchor"].(string); ok {
			anchors[a] = ptr
		}
	}
	// next are the nodes a node applies to the same value.
	next := func(ptr string) []string {
		n := nodes[ptr]
		var out []string
		if ref, ok := n["$ref"].(string); ok {
			if target, ok := resolveRef(ref, nodes, anchors); ok {
				out = append(out, target)
			}
		}
		if ref, ok := n["$dynamicRef"].(string); ok {
			if target, ok := resolveRef(ref, nodes, anchors); ok {
				out = append(out, target)
			}
		}
		for _, c := range children(n, ptr) {
			if _, isObj := c.node.(map[string]any); isObj && c.sameTurn && c.keyword != "$defs" && c.keyword != "definitions" {
				out = append(out, c.pointer)
			}
		}
		return out
	}
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var visit func(ptr string, chain int) error
	visit = func(ptr string, chain int) error {
		if chain > depth {
			return &stream.BoundError{What: "the schema's $ref chain (from " + shortPointer(ptr) + ")", Key: "schema_depth", Limit: depth}
		}
		color[ptr] = grey
		for _, to := range next(ptr) {
			switch color[to] {
			case grey:
				return &SchemaError{Pointer: ptr, Problem: fmt.Sprintf("a $ref cycle: %s comes back to %s without descending into the value, so no value could ever be checked against it", shortPointer(ptr), shortPointer(to))}
			case white:
				if err := visit(to, chain+1); err != nil {
					return err
				}
			}
		}
		color[ptr] = black
		return nil
	}
	for _, ptr := range sortedPointers(nodes) {
		if color[ptr] == white {
			if err := visit(ptr, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// shortPointer keeps a pointer short enough for one line.
func shortPointer(p string) string {
	if len(p) <= 60 {
		return p
	}
	return p[:30] + "…" + p[len(p)-29:]
}

func sortedPointers(nodes map[string]map[string]any) []string {
	out := make([]string, 0, len(nodes))
	for p := range nodes {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// resolveRef finds the node a local $ref names: "#", "#/json/pointer" or
// "#anchor". A reference to another document is not followed (the schema
// library refuses it when it resolves the schema).
func resolveRef(ref string, nodes map[string]map[string]any, anchors map[string]string) (string, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "", false
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	if frag == "" || strings.HasPrefix(frag, "/") {
		ptr := "#" + strings.TrimSuffix(frag, "/")
		_, ok := nodes[ptr]
		return ptr, ok
	}
	ptr, ok := anchors[frag]
	return ptr, ok
}
