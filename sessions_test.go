package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
	"github.com/spf13/cobra"

	"runnel/ui/sessions"
)

// historyRun runs args (after --data-dir dir) through a root command built
// like main's, with its persistent --format and --width, and the history
// commands added. term is what the commands are told about stdin.
func historyRun(t *testing.T, dir, stdin string, term bool, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	root := &cobra.Command{Use: "runnel", SilenceUsage: true, SilenceErrors: true, Args: cobra.NoArgs, RunE: func(*cobra.Command, []string) error { return nil }}
	root.PersistentFlags().String("format", "", "output format")
	root.PersistentFlags().Int("width", 0, "wrap width")
	in := strings.NewReader(stdin)
	historyCommands(t.Context(), in, &o, &e, func(any) bool { return term }).Add(root)
	root.SetArgs(append([]string{"--data-dir", dir}, args...))
	root.SetIn(in)
	root.SetOut(&o)
	root.SetErr(&e)
	status := exitStatus(root.Execute(), &e)
	return o.String(), e.String(), status
}

// oneLineError checks that stderr is one line starting "runnel: " holding
// every part of want.
func oneLineError(t *testing.T, stderr string, want ...string) {
	t.Helper()
	if !strings.HasPrefix(stderr, "runnel: ") || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr is not one line starting \"runnel: \": %q", stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr %q lacks %q", stderr, w)
		}
	}
}

// sessionDoc is a minimal export document: one session of n turns.
func sessionDoc(id, title, updated string, n int) []byte {
	turns := []any{}
	for i := 1; i <= n; i++ {
		turns = append(turns, map[string]any{
			"seq": i, "prompt": fmt.Sprintf("%s, question %d", title, i), "status": "completed",
			"started": updated, "ended": updated,
			"items": []any{map[string]any{"response": 0, "output": 0, "done": true, "item": map[string]any{
				"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": "answer about " + title}}}}},
		})
	}
	b, _ := json.Marshal(map[string]any{
		"runnel_export": 1,
		"session":       map[string]any{"id": id, "title": title, "created": updated, "updated": updated, "settings": map[string]any{"model": "gpt-test"}},
		"turns":         turns,
	})
	return b
}

// seedHistory imports documents into a fresh history and returns its directory.
func seedHistory(t *testing.T, docs ...[]byte) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range docs {
		if out, errs, code := historyRun(t, dir, string(d), false, "import", "-"); code != exitOK {
			t.Fatalf("import: %d %s %s", code, out, errs)
		}
	}
	return dir
}

func sessionFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sessions", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func threeSessions(t *testing.T) string {
	return seedHistory(t,
		// imported oldest first: a later import lists before an earlier one
		sessionDoc("0k3m9xq4ab", "Oldest talk", "2025-06-01T10:00:00Z", 1),
		sessionDoc("0k3zzzzzzz", "Middle talk", "2025-06-02T10:00:00Z", 2),
		sessionDoc("0k3m9xq4cd", "Newest talk", "2025-06-03T10:00:00Z", 3),
	)
}

// TestSessionsListNewestFirst: the table and --json list sessions by last
// update, newest first, with id, turns, model and title; --limit cuts.
func TestSessionsListNewestFirst(t *testing.T) {
	dir := threeSessions(t)
	out, errs, code := historyRun(t, dir, "", false, "sessions")
	if code != exitOK || errs != "" {
		t.Fatalf("sessions: %d %q", code, errs)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "ID ") {
		t.Fatalf("want a header and 3 rows:\n%s", out)
	}
	for i, want := range []string{"0k3m9xq4cd", "0k3zzzzzzz", "0k3m9xq4ab"} {
		if !strings.HasPrefix(lines[i+1], want) {
			t.Errorf("row %d is %q, want session %s", i+1, lines[i+1], want)
		}
	}
	if !strings.Contains(lines[1], "2025-06-03") || !strings.Contains(lines[1], "gpt-test") || !strings.HasSuffix(lines[1], "Newest talk") {
		t.Errorf("row 1 lacks its date, model or title: %q", lines[1])
	}
	// The columns line up: every title starts where the header's does.
	col := strings.Index(lines[0], "TITLE")
	for _, l := range lines[1:] {
		if !strings.HasSuffix(l[:col], "  ") || l[col] == ' ' {
			t.Errorf("title not at column %d: %q", col, l)
		}
	}

	out, _, code = historyRun(t, dir, "", false, "sessions", "--json", "--limit", "2")
	if code != exitOK {
		t.Fatalf("sessions --json: %d", code)
	}
	var got []sessions.SessionLine
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var s sessions.SessionLine
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatalf("line %q is not JSON: %v", l, err)
		}
		got = append(got, s)
	}
	want := []sessions.SessionLine{
		{ID: "0k3m9xq4cd", Title: "Newest talk", Turns: 3, Model: "gpt-test", Created: "2025-06-03T10:00:00Z", Updated: "2025-06-03T10:00:00Z", Preview: "answer about Newest talk"},
		{ID: "0k3zzzzzzz", Title: "Middle talk", Turns: 2, Model: "gpt-test", Created: "2025-06-02T10:00:00Z", Updated: "2025-06-02T10:00:00Z", Preview: "answer about Middle talk"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(got), len(want), out)
	}
	for i := range want {
		if got[i].UpdatedAgo == "" {
			t.Errorf("line %d has no updated_ago", i)
		}
		got[i].UpdatedAgo = ""
		if got[i] != want[i] {
			t.Errorf("line %d\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}

	if out, _, code := historyRun(t, t.TempDir(), "", false, "sessions"); code != exitOK || !strings.HasPrefix(out, "no sessions yet") {
		t.Errorf("empty history: %d %q", code, out)
	}
	_, errs, code = historyRun(t, dir, "", false, "sessions", "--limit", "-1")
	if code != exitUsage {
		t.Errorf("--limit -1: status %d, want %d", code, exitUsage)
	}
	oneLineError(t, errs, "--limit")
}

// TestSessionsTableFitsWidth: a long title is cut to the width with "…".
func TestSessionsTableFitsWidth(t *testing.T) {
	long := strings.Repeat("a very long title with wide 漢字 ", 8)
	dir := seedHistory(t, sessionDoc("0k3m9xq4ab", long, "2025-06-01T10:00:00Z", 1))
	for _, w := range []int{60, 100} {
		out, _, _ := historyRun(t, dir, "", false, "sessions", "--width", fmt.Sprint(w))
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if n := runewidth.StringWidth(l); n > w {
				t.Errorf("width %d: a line is %d wide: %q", w, n, l)
			}
		}
		if !strings.Contains(out, "…") {
			t.Errorf("width %d: the title was not cut:\n%s", w, out)
		}
	}
}

// TestSessionsRemove: rm takes a unique prefix; an ambiguous or unknown one
// is a usage error that deletes nothing.
func TestSessionsRemove(t *testing.T) {
	dir := threeSessions(t)
	_, errs, code := historyRun(t, dir, "", false, "sessions", "rm", "0k3m", "--yes")
	if code != exitUsage {
		t.Errorf("ambiguous prefix: status %d, want %d", code, exitUsage)
	}
	oneLineError(t, errs, "0k3m9xq4ab", "0k3m9xq4cd", "type more of the id")
	_, errs, code = historyRun(t, dir, "", false, "sessions", "rm", "zzzz", "--yes")
	if code != exitUsage {
		t.Errorf("unknown id: status %d, want %d", code, exitUsage)
	}
	oneLineError(t, errs, `"zzzz"`, "runnel sessions")

	out, errs, code := historyRun(t, dir, "", false, "sessions", "rm", "0K3Z", "--yes")
	if code != exitOK || errs != "" || out != "deleted 0k3zzzzzzz (Middle talk)\n" {
		t.Fatalf("rm 0K3Z --yes: %d %q %q", code, out, errs)
	}
	out, _, _ = historyRun(t, dir, "", false, "sessions", "--json")
	if strings.Count(out, "\n") != 2 || strings.Contains(out, "0k3zzzzzzz") {
		t.Errorf("after rm the list is:\n%s", out)
	}
}

// TestSessionsRemoveAsks: without --yes, rm asks on a terminal and refuses
// without one.
func TestSessionsRemoveAsks(t *testing.T) {
	dir := threeSessions(t)
	_, errs, code := historyRun(t, dir, "y\n", false, "sessions", "rm", "0k3zz")
	if code != exitUsage {
		t.Errorf("no terminal: status %d, want %d", code, exitUsage)
	}
	oneLineError(t, errs, "not a terminal", "--yes")

	out, errs, code := historyRun(t, dir, "n\n", true, "sessions", "rm", "0k3zz")
	if code != exitOK || out != "" || errs != "delete \"Middle talk\" (2 turns)? [y/N] kept 0k3zzzzzzz\n" {
		t.Errorf("answer n: %d %q %q", code, out, errs)
	}
	out, _, code = historyRun(t, dir, "y\n", true, "sessions", "rm", "0k3zz")
	if code != exitOK || out != "deleted 0k3zzzzzzz (Middle talk)\n" {
		t.Errorf("answer y: %d %q", code, out)
	}
	if out, _, _ := historyRun(t, dir, "", false, "sessions", "--json"); strings.Contains(out, "0k3zzzzzzz") {
		t.Errorf("still listed after y:\n%s", out)
	}
}

// TestSearchHighlights: each hit names the session, turn and title, shows
// the snippet with the match in [brackets] off a terminal, and says how to
// resume; --json carries the marks as byte ranges.
func TestSearchHighlights(t *testing.T) {
	dir := seedHistory(t, sessionFixture(t, "weather.json"), sessionDoc("0k3m9xq4cd", "Gardening", "2025-06-03T10:00:00Z", 1))
	out, errs, code := historyRun(t, dir, "", false, "search", "tomorrow's", "weather")
	if code != exitOK || errs != "" {
		t.Fatalf("search: %d %q", code, errs)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want one hit (2 lines) and the resume hint:\n%s", out)
	}
	if lines[0] != "0k3m9xq4ab  turn 3  What's the weather in Paris?" { // stored turn 4: turn 2 is a tool round
		t.Errorf("hit header %q", lines[0])
	}
	if !strings.Contains(lines[1], "[tomorrow's] [weather]") {
		t.Errorf("snippet without [marks]: %q", lines[1])
	}
	if lines[2] != "resume a session with: runnel -r 0k3m9xq4ab" {
		t.Errorf("last line %q", lines[2])
	}

	out, _, code = historyRun(t, dir, "", false, "search", "--json", "weather")
	if code != exitOK {
		t.Fatalf("search --json: %d", code)
	}
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var hit sessions.HitLine
		if err := json.Unmarshal([]byte(l), &hit); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		n++
		if hit.ID != "0k3m9xq4ab" || len(hit.Marks) == 0 {
			t.Errorf("hit %+v", hit)
		}
		for _, m := range hit.Marks {
			if got := strings.ToLower(hit.Snippet[m[0]:m[1]]); got != "weather" {
				t.Errorf("mark %v covers %q in %q", m, got, hit.Snippet)
			}
		}
	}
	if n < 2 {
		t.Errorf("want the prompt hits of turns 1 and 4, got %d:\n%s", n, out)
	}

	// No match exits 1 with one line, like grep, with or without --json,
	// under both spellings of the command.
	for _, args := range [][]string{{"search", "zebra"}, {"search", "--json", "zebra"}, {"sessions", "search", "zebra"}} {
		out, errs, code = historyRun(t, dir, "", false, args...)
		if code != 1 || out != "" {
			t.Errorf("%v: no hits: %d %q", args, code, out)
		}
		oneLineError(t, errs, `no session matches "zebra"`)
	}
}

// TestExportMarkdownCommand: export writes the fixture as a transcript with
// its prompts, reasoning and fenced tool call, and no escape byte from the
// stored text; -o writes the same bytes to a 0600 file.
func TestExportMarkdownCommand(t *testing.T) {
	dir := seedHistory(t, sessionFixture(t, "weather.json"))
	md, errs, code := historyRun(t, dir, "", false, "export", "0k3m")
	if code != exitOK || errs != "" {
		t.Fatalf("export: %d %q", code, errs)
	}
	for _, want := range []string{"# What's the weather in Paris?", "> And tomorrow's weather?",
		"<summary>Reasoning</summary>", "**Function call** `get_weather` · completed\n\n```json\n{\n  \"city\": \"Paris\",",
		"**Stopped**", "**Failed:**"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	if strings.ContainsRune(md, 0x1b) || strings.ContainsRune(md, 0x07) {
		t.Errorf("control bytes in the markdown export")
	}

	file := filepath.Join(t.TempDir(), "talk.md")
	os.WriteFile(file, []byte("old"), 0o644) // an existing file is replaced and made private
	out, errs, code := historyRun(t, dir, "", false, "export", "0k3m9xq4ab", "-o", file)
	if code != exitOK || errs != "" || out != "exported 0k3m9xq4ab to "+file+" (markdown)\n" {
		t.Fatalf("export -o: %d %q %q", code, out, errs)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v (%v), want 0600", st.Mode().Perm(), err)
	}
	if b, _ := os.ReadFile(file); string(b) != md {
		t.Errorf("the file differs from stdout's export")
	}

	_, errs, code = historyRun(t, dir, "", false, "export", "0k3m9xq4ab", "--format", "pdf")
	if code != exitUsage {
		t.Errorf("--format pdf: status %d", code)
	}
	oneLineError(t, errs, "pdf", "markdown, json or html")
	_, errs, code = historyRun(t, dir, "", false, "export", "0k3m9xq4ab", "-o", filepath.Join(t.TempDir(), "no", "such", "dir.md"))
	if code != exitFailure {
		t.Errorf("unwritable -o: status %d", code)
	}
	oneLineError(t, errs, "dir.md", "-o")
}

// TestExportImportRoundTrip: a JSON export imported into another history
// exports to the same bytes; -o x.json picks JSON by itself.
func TestExportImportRoundTrip(t *testing.T) {
	src := seedHistory(t, sessionFixture(t, "weather.json"))
	first, errs, code := historyRun(t, src, "", false, "export", "0k3m9xq4ab", "--format", "json")
	if code != exitOK || errs != "" {
		t.Fatalf("export: %d %q", code, errs)
	}
	dst := t.TempDir()
	out, errs, code := historyRun(t, dst, first, false, "import", "-")
	if code != exitOK || errs != "" || out != "imported 0k3m9xq4ab\nresume with: runnel -r 0k3m9xq4ab\n" {
		t.Fatalf("import: %d %q %q", code, out, errs)
	}
	file := filepath.Join(t.TempDir(), "again.json")
	if _, errs, code := historyRun(t, dst, "", false, "export", "0k3m9xq4ab", "-o", file); code != exitOK {
		t.Fatalf("export -o: %d %q", code, errs)
	}
	second, _ := os.ReadFile(file)
	if string(second) != first {
		t.Errorf("export → import → export changed the document:\n%s\n---\n%s", first, second)
	}

	// Importing into the same history again keeps both, under a new id.
	out, _, code = historyRun(t, src, "", false, "import", file)
	if code != exitOK || strings.Contains(out, "0k3m9xq4ab") || !strings.HasPrefix(out, "imported ") {
		t.Errorf("second import: %d %q", code, out)
	}
}

// TestImportWrongShape: a document of the wrong shape is refused with the
// JSON path of the problem, exit 2, and nothing is stored.
func TestImportWrongShape(t *testing.T) {
	dir := t.TempDir()
	var doc map[string]any
	json.Unmarshal(sessionFixture(t, "weather.json"), &doc)
	doc["turns"].([]any)[2].(map[string]any)["items"].([]any)[1].(map[string]any)["item"] = "not an object"
	bad, _ := json.Marshal(doc)
	file := filepath.Join(dir, "bad.json")
	os.WriteFile(file, bad, 0o600)
	for _, c := range []struct {
		name, stdin string
		want        []string
	}{
		{file, "", []string{"bad.json", "turns[2].items[1].item", "want an object, got a string"}},
		{"-", "{\"runnel_export\": 1, \"session\": []}", []string{"stdin", "session: want an object, got an array"}},
		{"-", "{nope", []string{"stdin", "not JSON"}},
		{filepath.Join(dir, "missing.json"), "", []string{"missing.json", "no such file"}},
	} {
		out, errs, code := historyRun(t, dir, c.stdin, false, "import", c.name)
		if code != exitUsage || out != "" {
			t.Errorf("import %s: status %d, stdout %q", c.name, code, out)
		}
		oneLineError(t, errs, c.want...)
	}
	if out, _, _ := historyRun(t, dir, "", false, "sessions", "--json"); out != "" {
		t.Errorf("a refused import stored something:\n%s", out)
	}
}

// TestSessionsCorruptDatabase: every history command on a damaged file
// fails with one line naming the file, exit 1.
func TestSessionsCorruptDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "runnel.db")
	os.WriteFile(db, bytes.Repeat([]byte("this is not sqlite\n"), 400), 0o600)
	doc := filepath.Join(t.TempDir(), "doc.json")
	os.WriteFile(doc, sessionFixture(t, "weather.json"), 0o600)
	for _, args := range [][]string{
		{"sessions"}, {"sessions", "rm", "0k3", "--yes"}, {"search", "weather"},
		{"export", "0k3m9xq4ab"}, {"import", doc},
	} {
		out, errs, code := historyRun(t, dir, "", false, args...)
		if code != exitFailure || out != "" {
			t.Errorf("%v: status %d, stdout %q", args, code, out)
		}
		oneLineError(t, errs, db)
	}
}

// TestSessionsDataDir: dataDir names DIR/runnel.db, and the default path
// without the flag.
func TestSessionsDataDir(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/xdg")
	root := &cobra.Command{Use: "runnel"}
	addSessionCommands(t.Context(), root, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	if p, err := dataDir(root); err != nil || p != "/xdg/runnel/runnel.db" {
		t.Errorf("default: %q %v", p, err)
	}
	list, _, _ := root.Find([]string{"sessions", "list"})
	if p, err := dataDir(list); err != nil || p != "/xdg/runnel/runnel.db" {
		t.Errorf("default: %q %v", p, err)
	}
	list.Flags().Set(dataDirFlag, "/d")
	if p, err := dataDir(list); err != nil || p != "/d/runnel.db" {
		t.Errorf("--data-dir /d: %q %v", p, err)
	}
}
