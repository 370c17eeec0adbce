package ui

import (
	"maps"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"runnel/session/tools"
)

func toolInfos() []tools.Info {
	return []tools.Info{
		{Name: "web_search", Kind: tools.KindHosted, Detail: "web_search", Enabled: true},
		{Name: "deepwiki", Kind: tools.KindHosted, Detail: "mcp"},
		{Name: "shell_exec", Kind: tools.KindFunction, Detail: "Run a shell command in the project directory", Enabled: true},
		{Name: "fs", Kind: tools.KindServer, Detail: "npx -y @modelcontextprotocol/server-filesystem /tmp", Enabled: true},
	}
}

func TestToolsToggleAndApply(t *testing.T) {
	t.Parallel()
	enabled := map[string]bool{"web_search": false} // the session turned it off; the rest default
	m := NewToolsMenu(toolInfos(), enabled, dlgStyles())
	want := map[string]bool{"web_search": false, "deepwiki": false, "shell_exec": true, "fs": true}
	if !maps.Equal(m.Enabled(), want) {
		t.Fatalf("initial toggles %v, want %v", m.Enabled(), want)
	}
	m2, _ := dlgPress(m, "space", "down", "down", "x", "down", "down", "space") // the last down stays on fs
	_, msgs := dlgPress(m2, "enter")
	want = map[string]bool{"web_search": true, "deepwiki": false, "shell_exec": false, "fs": false}
	if len(msgs) != 1 || !maps.Equal(msgs[0].(ToolsChangedMsg).Enabled, want) {
		t.Fatalf("enter emitted %v, want ToolsChangedMsg %v", msgs, want)
	}
	if !maps.Equal(m.Enabled(), map[string]bool{"web_search": false, "deepwiki": false, "shell_exec": true, "fs": true}) {
		t.Errorf("toggling changed an earlier copy of the menu: %v", m.Enabled())
	}
	if len(enabled) != 1 || enabled["web_search"] {
		t.Errorf("the caller's map changed: %v", enabled)
	}
	if _, msgs := dlgPress(m2, "esc"); len(msgs) != 1 || msgs[0] != (DialogClosedMsg{}) {
		t.Errorf("esc emitted %v, want DialogClosedMsg", msgs)
	}
}

func TestToolsViewShowsKindsAndChecks(t *testing.T) {
	t.Parallel()
	m, _ := dlgPress(NewToolsMenu(toolInfos(), nil, nil), "down", "space")
	v := ansi.Strip(m.View(100, 20))
	for _, want := range []string{
		"Tools 4 of 4 on",
		"  [x] web_search  hosted",
		"› [x] deepwiki    hosted      mcp",
		"  [x] shell_exec  function    Run a shell command in the project directory",
		"  [x] fs          mcp server  npx -y @modelcontextprotocol/server-filesystem /tmp",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "hosted      web_search") {
		t.Errorf("a hosted tool's type repeats its name:\n%s", v)
	}
}

func TestToolsEmpty(t *testing.T) {
	t.Parallel()
	m := NewToolsMenu(nil, map[string]bool{"gone": true}, dlgStyles())
	for _, w := range []int{60, 100} {
		v := m.View(w, 10)
		checkView(t, v, w, 10)
		flat := strings.Join(strings.Fields(ansi.Strip(v)), " ")
		if !strings.Contains(flat, "no tools configured — see [[tools]], [[functions]] and [[mcp_servers]] in config.example.toml") {
			t.Errorf("%d columns: the empty message is not whole:\n%s", w, ansi.Strip(v))
		}
	}
	_, msgs := dlgPress(m, "space", "enter")
	if len(msgs) != 1 || len(msgs[0].(ToolsChangedMsg).Enabled) != 0 {
		t.Errorf("enter on no tools emitted %v, want an empty ToolsChangedMsg", msgs)
	}
}

func TestToolsViewFitsAndIsClean(t *testing.T) {
	t.Parallel()
	list := toolInfos()
	for i := range 30 {
		list = append(list, tools.Info{Name: "tool_with_a_rather_long_name_" + strings.Repeat("x", i), Kind: tools.Kind(i % 3),
			Detail: "detail\x1b[31m red\x07 \u009b2J " + strings.Repeat("長い説明 ", i)})
	}
	list = append(list, tools.Info{Name: "evil\x1b]0;t\x07\r", Kind: tools.KindFunction, Detail: "a\nb\tc"})
	for _, w := range []int{60, 100} {
		for _, h := range []int{3, 10, 40} {
			m := NewToolsMenu(list, nil, dlgStyles())
			checkView(t, m.View(w, h), w, h)
			m, _ = dlgPress(m, "end", "space", "up")
			checkView(t, m.View(w, h), w, h)
			if h >= 10 && !strings.Contains(m.View(w, h), "› ") {
				t.Errorf("%dx%d: the selected row is not in view", w, h)
			}
		}
	}
	m, _ := dlgPress(NewToolsMenu(list, nil, nil), "end", "space", "enter")
	_, msgs := dlgPress(m, "enter")
	if !msgs[0].(ToolsChangedMsg).Enabled["evil\x1b]0;t\x07\r"] {
		t.Errorf("the map keys must be the configured names, unsanitized: %v", msgs[0])
	}
}
