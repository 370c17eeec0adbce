package toolrun

import (
	"slices"
	"testing"
)

// ChildEnv drops exactly the hidden variables, and adds extra.
func TestChildEnv(t *testing.T) {
	got := childEnv([]string{"PATH=/bin", "OPENAI_API_KEY=sk-1", "HOME=/h", "MCP_TOKEN=t=2"}, []string{"OPENAI_API_KEY", "MCP_TOKEN"}, "X=1")
	if want := []string{"PATH=/bin", "HOME=/h", "X=1"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
