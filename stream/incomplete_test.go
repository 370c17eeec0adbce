package stream

import (
	"strings"
	"testing"
)

// TestIncompleteText: the incomplete notice is words, never raw JSON.
func TestIncompleteText(t *testing.T) {
	tests := []struct {
		raw  string
		want []string
	}{
		{`{"reason": "max_output_tokens"}`, []string{"cut at the max_output_tokens limit", "/effort"}},
		{`{"reason":"content_filter"}`, []string{"content filter"}},
		{`{"reason":"something_new"}`, []string{"incomplete: something_new"}},
		{`{}`, []string{"no reason"}},
		{``, []string{"no reason"}},
		{`null`, []string{"no reason"}},
		{`{"reason":"a\u001b[31mb"}`, []string{"incomplete: ab"}},
	}
	for _, tt := range tests {
		got := IncompleteText([]byte(tt.raw))
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("IncompleteText(%s) = %q; want %q in it", tt.raw, got, w)
			}
		}
		if strings.ContainsAny(got, "{}\x1b") {
			t.Errorf("IncompleteText(%s) = %q: raw JSON or an escape", tt.raw, got)
		}
	}
}
