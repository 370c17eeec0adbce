package knob

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestReasoningEffortsCoverSpec: every effort the Open Responses spec names
// (its enum and the values its descriptions document) is accepted, and so
// is max.
func TestReasoningEffortsCoverSpec(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "fixtures", "spec", "openresponses-openapi.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the spec fixture is needed in CI: %v", err)
		}
		t.Skipf("no spec fixture (%v)", err)
	}
	var spec struct {
		Components struct {
			Schemas map[string]struct {
				Enum  []string          `json:"enum"`
				Descs map[string]string `json:"x-enumDescriptions"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	e, ok := spec.Components.Schemas["ReasoningEffortEnum"]
	if !ok || len(e.Enum) == 0 {
		t.Fatal("the spec has no ReasoningEffortEnum")
	}
	want := append([]string{"max"}, e.Enum...)
	for v := range e.Descs {
		want = append(want, v)
	}
	for _, v := range want {
		if !slices.Contains(ReasoningEfforts, v) {
			t.Errorf("effort %q (in the spec) is not accepted: %v", v, ReasoningEfforts)
		}
	}
}
