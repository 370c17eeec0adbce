package config

import (
	"strings"
	"testing"
)

func TestCheckBaseURL(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"https://api.openai.com/v1/", "https://api.openai.com/v1", ""},
		{" http://localhost:1234/v1 ", "http://localhost:1234/v1", ""},
		{"localhost:1234", "", "http://"},
		{"https:///v1", "", "no host"},
		{"https://user:hunter2@host/v1?x=1", "", "query"},
	}
	for _, tt := range tests {
		got, err := checkBaseURL(tt.in)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("checkBaseURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("checkBaseURL(%q) error = %v; want one containing %q", tt.in, err, tt.err)
		case err != nil && strings.Contains(err.Error(), "hunter2"):
			t.Errorf("checkBaseURL(%q) error shows the password: %v", tt.in, err)
		}
	}
}
