package config

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"runnel/stream"
	"runnel/stream/costtest"
)

// Every bound of the one table is set in config.example.toml at its default
// and named in the README's table with its key.
func TestLimitsTableDocumented(t *testing.T) {
	example, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseConfig(example, "config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range stream.BoundTable {
		if v, ok := c.Limits[d.Key]; !ok || v != d.Get(stream.DefaultBounds) {
			t.Errorf("config.example.toml: [limits] %s = %d, want it set to the default %d", d.Key, v, d.Get(stream.DefaultBounds))
		}
		if !strings.Contains(string(readme), "`limits."+d.Key+"`") {
			t.Errorf("README.md: the limits table does not name limits.%s", d.Key)
		}
	}
	if got := c.Bounds(); got != stream.DefaultBounds {
		t.Errorf("the example's bounds differ from the defaults: %+v", got)
	}
}

func TestLimitsKeysChecked(t *testing.T) {
	for doc, want := range map[string]string{
		"[limits]\ntool_result_byte = 100000\n":     `c.toml:2: key "limits.tool_result_byte": no such limit`,
		"[limits]\ntool_result_bytes = 10\n":        `c.toml:2: key "limits.tool_result_bytes": 10 is too small (at least 1024 bytes; the default is 65536)`,
		"[limits]\nschema_depth = \"deep\"\n":       "schema_depth",
		"[limits]\nimport_pages = 5\nmcp_tools = 7": "",
	} {
		c, err := parseConfig([]byte(doc), "c.toml")
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", doc, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%q: got %v, want one line holding %q", doc, err, want)
		case want == "":
			if b := c.Bounds(); b.ImportPages != 5 || b.MCPTools != 7 || b.ToolResult != stream.DefaultBounds.ToolResult {
				t.Errorf("%q: bounds %+v", doc, b)
			}
		}
	}
}

// A config past MaxConfigKeys is refused by a count, on the line of the
// first key past it, before go-toml (which costs the square of the keys)
// decodes it.
func TestConfigKeyBound(t *testing.T) {
	_, err := parseConfig(keysDoc(10*MaxConfigKeys), "c.toml")
	want := fmt.Sprintf("c.toml:%d: the file holds more than %d keys", MaxConfigKeys+2, MaxConfigKeys)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %q…", err, want)
	}
	if _, err := parseConfig(keysDoc(MaxConfigKeys-1), "c.toml"); err == nil || !strings.Contains(err.Error(), "no such action") {
		t.Errorf("under the bound: %v", err)
	}
}

// keysDoc is an invalid [keys] table of n lines: every action is unknown.
func keysDoc(n int) []byte {
	var b strings.Builder
	b.WriteString("[keys]\n")
	for i := range n {
		fmt.Fprintf(&b, "act%d = \"ctrl+x\"\n", i)
	}
	return []byte(b.String())
}

// A config table too big to read is refused in linear time: go-toml's
// decode costs the square of the keys, so past MaxConfigKeys a table is
// refused by a count, linear and stopping at the bound, before it is
// decoded: ten times the lines cost at most a few times as long (a decode
// of them would cost a hundred times), and no more than a table under the
// bound. Timed through costtest on
// the thread's CPU clock against a baseline of the same run, in samples of
// tens of ms, so a preempted slice cannot decide it.
func TestConfigTableLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("times a parse")
	}
	costtest.SkipIfRace(t)
	parse := func(n int) costtest.Work {
		doc := keysDoc(n)
		_, err := parseConfig(doc, "c.toml")
		if err == nil || strings.Contains(err.Error(), "\n") ||
			!strings.Contains(err.Error(), `c.toml:2: key "keys.act0": no such action`) && !strings.Contains(err.Error(), "more than 4096 keys") {
			t.Fatalf("%d lines: %v", n, err)
		}
		return costtest.Func(func() { _, _ = parseConfig(doc, "c.toml") })
	}
	big := parse(10 * MaxConfigKeys)
	costtest.AtMost(t, "a [keys] table of 409,600 lines, against 40,960", big, parse(100*MaxConfigKeys), 30)
	costtest.AtMost(t, "a [keys] table of 40,960 lines, against 4,000 (under the bound)", parse(4000), big, 30)
}

// TestFixedBoundsDocumented: the README's limits table names each bound
// the config does not set, with its size.
func TestFixedBoundsDocumented(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range stream.FixedBounds {
		size := stream.FormatBytes(b.Value)
		if !strings.Contains(string(readme), size) {
			t.Errorf("README.md: the limits table does not give %s for %s", size, b.What)
		}
	}
}
