package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/config"
	"runnel/session/tools"
	"runnel/theme"
)

// walkStatus is the status line of the walk in issue 30: an MCP server
// that is not running, a long dated model name, usage, cost and /fast.
func walkStatus(state State) Status {
	s := Status{
		Model: "gpt-5-mini-2025-08-07", Effort: "medium", ProviderName: "openai", Provider: "https://api.openai.com/v1",
		MCP: "mcp: 1 server, 13 tools (1 server not running: gone)", MCPBrief: "mcp 13 ⚠1",
		State: state, Started: statusNow.Add(-12e9),
		TurnUsage: Usage{Input: 3727, Output: 347}, SessionUsage: Usage{Input: 9_100, Output: 1_200},
		Meter: Meter{Ctx: "8%", Cost: "$0.0213", Cache: "cache 11%"},
		Tier:  "priority",
	}
	if state != Idle {
		s.Detail = "Weighing the options for the reply"
	}
	return s
}

// TestGoldenStatusLine: at 60, 80 and 120 columns the status line keeps the
// cost, the context fill and the provider, idle and busy; the rest gives
// way (the MCP summary shortens to "mcp 13 ⚠1" first). The screens are in
// testdata/golden/statusline-N.golden (-update rewrites them).
func TestGoldenStatusLine(t *testing.T) {
	st := testTheme()
	for _, w := range []int{60, 80, 120} {
		var lines []string
		for _, state := range []State{Idle, Streaming, AwaitingApproval} {
			s := walkStatus(state)
			v := s.View(w, statusNow, &st)
			if got := ansi.StringWidth(v); got != w {
				t.Errorf("width %d: %d cells: %q", w, got, ansi.Strip(v))
			}
			p := ansi.Strip(v)
			for _, want := range []string{"ctx 8%", "$0.0213", "@openai"} {
				if !strings.Contains(p, want) {
					t.Errorf("at %d columns (%v) the status line lacks %q: %q", w, state, want, p)
				}
			}
			if strings.Contains(p, "not running") && w <= 80 {
				t.Errorf("at %d columns the long MCP summary stays: %q", w, p)
			}
			if state == Idle && !strings.Contains(p, "fast") {
				t.Errorf("at %d columns /fast has no mark: %q", w, p)
			}
			lines = append(lines, v)
		}
		checkGoldenText(t, "statusline-"+strconv.Itoa(w), strings.Join(lines, "\n"))
	}
	// 80 columns, idle: the brief MCP form and the model both fit
	if p := ansi.Strip(walkStatus(Idle).View(80, statusNow, &st)); !strings.Contains(p, "mcp 13 ⚠1") || !strings.Contains(p, "gpt-5-mini") {
		t.Errorf("at 80 columns: %q", p)
	}
	// 160 columns: the whole summary
	if p := ansi.Strip(walkStatus(Idle).View(160, statusNow, &st)); !strings.Contains(p, "1 server not running: gone") {
		t.Errorf("at 160 columns: %q", p)
	}
}

// TestStatusKeepsFiguresEveryWidth: from 60 columns up, whatever else the
// line holds, cost, context and provider stay, and the line is exactly as
// wide as the screen.
func TestStatusKeepsFiguresEveryWidth(t *testing.T) {
	for _, st := range testStyles(t) {
		for w := 60; w <= 160; w++ {
			for _, state := range []State{Idle, Streaming, AwaitingApproval} {
				s := walkStatus(state)
				s.Mouse, s.Mode = "mouse off", "INSERT"
				v := s.View(w, statusNow, st)
				p := ansi.Strip(v)
				if ansi.StringWidth(v) != w || !strings.Contains(p, "ctx 8%") || !strings.Contains(p, "$0.0213") || !strings.Contains(p, "@openai") {
					t.Fatalf("width %d (%v): %q", w, state, p)
				}
			}
		}
	}
}

// TestFastMark: the status line marks /fast (the priority tier); another
// tier shows by name; none shows nothing.
func TestFastMark(t *testing.T) {
	s := Status{Model: "gpt-5", Tier: "priority"}
	if p := ansi.Strip(s.View(80, statusNow, nil)); !strings.Contains(p, "fast · gpt-5") {
		t.Errorf("fast: %q", p)
	}
	s.Tier = "flex"
	if p := ansi.Strip(s.View(80, statusNow, nil)); !strings.Contains(p, "tier flex") {
		t.Errorf("flex: %q", p)
	}
	s.Tier = ""
	if p := ansi.Strip(s.View(80, statusNow, nil)); strings.Contains(p, "fast") || strings.Contains(p, "tier") {
		t.Errorf("no tier: %q", p)
	}
}

// TestFastMarksTheChat: /fast puts the mark on the chat's status line, and
// /fast again takes it off.
func TestFastMarksTheChat(t *testing.T) {
	m := newTestModel(t, Options{})
	m.Update(SlashMsg{Name: "fast"})
	if row := statusRow(plain(m)); !strings.Contains(row, "fast") {
		t.Errorf("after /fast: %q", row)
	}
	m.Update(SlashMsg{Name: "fast"})
	if row := statusRow(plain(m)); strings.Contains(row, "fast") {
		t.Errorf("after /fast twice: %q", row)
	}
}

// TestMCPBrief: the manager's brief form, without servers.
func TestMCPBrief(t *testing.T) {
	var m *tools.Manager
	if m.Brief() != "" {
		t.Error("no manager, yet a brief")
	}
}

// TestApprovalKeepsDenyAt50: at 50 columns the approval's hint and the
// dialog's foot keep every answer, d/n deny included.
func TestApprovalKeepsDenyAt50(t *testing.T) {
	for _, st := range testStyles(t) {
		h := ansi.Strip(Hint(50, st, AwaitingApproval))
		for _, want := range []string{"a/y once", "s session", "d/n deny"} {
			if !strings.Contains(h, want) {
				t.Errorf("hint at 50 lacks %q: %q", want, h)
			}
		}
		if h := ansi.Strip(Hint(100, st, AwaitingApproval)); !strings.Contains(h, "a/y approve once") {
			t.Errorf("hint at 100 shortened: %q", h)
		}
		a := NewApproval(tools.ApprovalRequest{Call: tools.Call{Name: "deploy", CallID: "c1"}, Tool: "deploy", Kind: tools.KindFunction, Command: []string{"deploy", "main"}}, st)
		v := a.View(50, 20)
		foot := ansi.Strip(v[strings.LastIndex(v, "\n")+1:])
		if !strings.Contains(foot, "d/n deny") || !strings.Contains(foot, "a/y once") {
			t.Errorf("dialog foot at 50: %q", foot)
		}
		for l := range strings.Lines(v) {
			if ansi.StringWidth(strings.TrimRight(l, "\n")) > 50 {
				t.Errorf("dialog line wider than 50: %q", ansi.Strip(l))
			}
		}
	}
}

// checkGoldenText compares text with testdata/golden/name.golden, or
// rewrites it under -update.
func checkGoldenText(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with: go test ./ui -run TestGolden -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from its golden file (styling included); if intended: go test ./ui -run TestGolden -update\n--- got:\n%s\n--- want:\n%s", name, ansi.Strip(got), ansi.Strip(string(want)))
	}
}

// TestStatusItemsAgreeWithConfig: the config accepts exactly the items the
// status line draws, and the themes it knows are theme's built-ins.
func TestStatusItemsAgreeWithConfig(t *testing.T) {
	if !slices.Equal(StatusItems, config.StatusItems) {
		t.Errorf("ui draws %v, the config accepts %v", StatusItems, config.StatusItems)
	}
	if !slices.Equal(theme.Builtins, config.BuiltinThemes) {
		t.Errorf("theme has %v, the config accepts %v", theme.Builtins, config.BuiltinThemes)
	}
	for _, it := range StatusItems {
		s := Status{Model: "m", ProviderName: "p", Meter: Meter{Ctx: "1%", Cost: "$1", Cache: "cache 1%"}, TurnUsage: Usage{Input: 1}, Tier: "flex",
			Branch: "branch 1/2", Cwd: "~/x", GitBranch: "main", Clock: "10:00", Layout: &StatusLayout{Items: []string{it}}}
		if len(s.item(it, theme.Shell{}, func(_ lipgloss.Style, s string) string { return s })) == 0 {
			t.Errorf("item %q draws nothing", it)
		}
	}
}

// TestBranchItem: a chosen "branch" item says which branch shows, of how
// many, once the conversation has more than one, and follows a switch.
func TestBranchItem(t *testing.T) {
	m, srv, _ := branchChat(t)
	m.statusBar.choose(StatusLine{Items: []string{"branch", "model"}}, nil)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if row := statusRow(plain(m)); strings.Contains(row, "branch") {
		t.Errorf("one branch, yet %q", row)
	}
	editTurn2(t, m, srv)
	if row := statusRow(plain(m)); !strings.Contains(row, "branch 2/2") {
		t.Errorf("after the edit: %q", row)
	}
	m.Update(ctrl(tea.KeyLeft))
	if row := statusRow(plain(m)); !strings.Contains(row, "branch 1/2") {
		t.Errorf("after ctrl+←: %q", row)
	}
}
