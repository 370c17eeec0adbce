package ui

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in         string
		name, args string
		ok         bool
	}{
		{"/new", "new", "", true},
		{"/model gpt-5", "model", "gpt-5", true},
		{"/model   gpt-5  ", "model", "gpt-5", true},
		{"/effort\thigh", "effort", "high", true},
		{"/Copy 2", "copy", "2", true},
		{"/copy\n2", "copy", "2", true},
		{"hello", "", "", false},
		{" /new", "", "", false}, // only text that starts with the slash
		{"/", "", "", false},
		{"/ new", "", "", false},
		{"/usr/bin is missing", "", "", false},
		{"/etc/hosts?", "", "", false},
		{"", "", "", false},
	}
	for _, c := range cases {
		name, args, ok := Parse(c.in)
		if name != c.name || args != c.args || ok != c.ok {
			t.Errorf("Parse(%q) = %q, %q, %v; want %q, %q, %v", c.in, name, args, ok, c.name, c.args, c.ok)
		}
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	good := [][2]string{
		{"new", ""}, {"help", ""}, {"quit", ""},
		{"model", "gpt-5-mini"},
		{"effort", "none"}, {"effort", "minimal"}, {"effort", "low"}, {"effort", "medium"},
		{"effort", "high"}, {"effort", "xhigh"}, {"effort", "max"},
		{"copy", ""}, {"copy", "1"}, {"copy", "12"},
	}
	for _, g := range good {
		if err := Validate(g[0], g[1]); err != nil {
			t.Errorf("Validate(%q, %q) = %v; want nil", g[0], g[1], err)
		}
	}
	bad := []struct {
		name, args string
		want       []string // substrings of the one-line message
	}{
		{"effort", "extreme", []string{"/effort extreme", "none, minimal, low, medium, high, xhigh, max"}},
		{"effort", "", []string{"none, minimal, low, medium, high, xhigh, max"}},
		{"model", "gpt 5", []string{"without spaces"}},
		{"copy", "0", []string{"/copy 0", "from 1"}},
		{"copy", "two", []string{"/copy two"}},
		{"new", "now", []string{"/new takes no arguments"}},
		{"frobnicate", "", []string{"unknown command /frobnicate"}},
	}
	for _, b := range bad {
		err := Validate(b.name, b.args)
		if err == nil {
			t.Errorf("Validate(%q, %q) = nil; want an error", b.name, b.args)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") {
			t.Errorf("Validate(%q, %q): message has several lines: %q", b.name, b.args, msg)
		}
		for _, w := range b.want {
			if !strings.Contains(msg, w) {
				t.Errorf("Validate(%q, %q) = %q; want it to mention %q", b.name, b.args, msg, w)
			}
		}
	}
}

func TestComplete(t *testing.T) {
	t.Parallel()
	names := func(cs []Command) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	if got := names(Complete("/")); len(got) != len(Commands()) {
		t.Errorf("Complete(/) = %v; want every command", got)
	}
	if got, want := names(Complete("/m")), []string{"model"}; !slices.Equal(got, want) {
		t.Errorf("Complete(/m) = %v; want %v", got, want)
	}
	if got, want := names(Complete("q")), []string{"quit"}; !slices.Equal(got, want) {
		t.Errorf("Complete(q) = %v; want %v", got, want)
	}
	if got := Complete("/zz"); len(got) != 0 {
		t.Errorf("Complete(/zz) = %v; want none", names(got))
	}
	// Callers cannot corrupt the registry through the returned slice.
	cs := Complete("/")
	cs[0].Name = "broken"
	if _, ok := Lookup("new"); !ok {
		t.Error("mutating Complete's result changed the registry")
	}
}

func TestCommandUsage(t *testing.T) {
	t.Parallel()
	m, _ := Lookup("model")
	if got := m.Usage(); got != "/model [NAME]" {
		t.Errorf("Usage = %q", got)
	}
	n, _ := Lookup("new")
	if got := n.Usage(); got != "/new" {
		t.Errorf("Usage = %q", got)
	}
}

func TestCodeBlocks(t *testing.T) {
	t.Parallel()
	md := strings.Join([]string{
		"Here is Go:",
		"",
		"```go",
		"package main",
		"",
		"func main() {}",
		"```",
		"",
		"And a shell one with a longer fence holding a short one:",
		"",
		"````sh",
		"echo hi",
		"```",
		"echo still inside",
		"````",
		"",
		"~~~",
		"```not a close",
		"~~~",
		"",
		"1. In a list:",
		"   ```py",
		"   print(1)",
		"     indented",
		"   ```",
		"",
		"``not a fence``",
		"```unclosed",
		"last line",
		"",
	}, "\n")
	want := []string{
		"package main\n\nfunc main() {}",
		"echo hi\n```\necho still inside",
		"```not a close",
		"print(1)\n  indented",
		"last line",
	}
	if got := CodeBlocks(md); !slices.Equal(got, want) {
		t.Errorf("CodeBlocks:\n got %q\nwant %q", got, want)
	}
}

func TestCodeBlocksEdges(t *testing.T) {
	t.Parallel()
	cases := map[string][]string{
		"":                    nil,
		"no code here":        nil,
		"```\n```":            {""},
		"```\r\nx\r\n```\r\n": {"x"},
		"``` a`b\nnot code\n": nil, // a backtick fence's info may not hold backticks
		"~~~ a`b\ncode\n~~~":  {"code"},
		"```\na\n```\n```\nb": {"a", "b"},
	}
	for in, want := range cases {
		if got := CodeBlocks(in); !slices.Equal(got, want) {
			t.Errorf("CodeBlocks(%q) = %q; want %q", in, got, want)
		}
	}
}
