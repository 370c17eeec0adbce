package ui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"runnel/session/config"
)

// fakeEditor writes a shell script that appends a line to the file it is
// given, standing in for $EDITOR.
func fakeEditor(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "edit.sh")
	writeScript(t, path, "#!/bin/sh\n"+body+"\n")
	return path
}

// writeScript writes an executable file while holding syscall.ForkLock for
// reading, so no process forked meanwhile by a parallel test inherits the
// open file: a child holding it until its own exec makes running the
// script fail with "text file busy" (ETXTBSY). Forks hold ForkLock for
// writing, so none happens between the open and the close here.
func writeScript(t *testing.T, path, body string) {
	t.Helper()
	syscall.ForkLock.RLock()
	err := os.WriteFile(path, []byte(body), 0o700)
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestEditorRoundTrip(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	ed := fakeEditor(t, `printf 'second line\n' >> "$1"`)
	c, path, err := editorCommand("first line\n", env(map[string]string{"EDITOR": ed}), nil)
	if err != nil {
		t.Fatal(err)
	}
	msg := finishEdit(path, c.Run()).(EditorDoneMsg)
	if msg.Err != nil || msg.Text != "first line\nsecond line" {
		t.Errorf("EditorDoneMsg = %#v", msg)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the prompt file %s was left behind", path)
	}
}

func TestEditorChoice(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	cases := []struct {
		env  map[string]string
		want []string
	}{
		{map[string]string{"VISUAL": "nvim", "EDITOR": "nano"}, []string{"nvim"}},
		{map[string]string{"EDITOR": "code --wait"}, []string{"code", "--wait"}},
		{map[string]string{"EDITOR": "  "}, []string{"vi"}},
		{map[string]string{}, []string{"vi"}},
	}
	for _, c := range cases {
		cmd, path, err := editorCommand("x", env(c.env), nil)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(path)
		want := append(c.want, path)
		if strings.Join(cmd.Args, " ") != strings.Join(want, " ") {
			t.Errorf("env %v: args %q; want %q", c.env, cmd.Args, want)
		}
	}
}

func TestEditorFailure(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	c, path, err := editorCommand("keep", env(map[string]string{"EDITOR": fakeEditor(t, "exit 3")}), nil)
	if err != nil {
		t.Fatal(err)
	}
	msg := finishEdit(path, c.Run()).(EditorDoneMsg)
	if msg.Err == nil || !strings.Contains(msg.Err.Error(), "exit status 3") || !strings.Contains(msg.Err.Error(), "$EDITOR") {
		t.Errorf("failure = %v", msg.Err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the prompt file was left behind after a failure")
	}
	// A missing file (removed by the editor) is an error, not empty text.
	msg = finishEdit(filepath.Join(t.TempDir(), "gone.md"), nil).(EditorDoneMsg)
	if msg.Err == nil {
		t.Error("reading a missing file gave no error")
	}
}

func TestEditorNoTempDir(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	if _, _, err := editorCommand("x", env(nil), nil); err == nil || !strings.Contains(err.Error(), "temporary file") {
		t.Errorf("err = %v", err)
	}
	msg := OpenEditor("x", nil)().(EditorDoneMsg)
	if msg.Err == nil {
		t.Error("OpenEditor without a temp dir gave no error")
	}
}

// The editor runs in the one child environment: the terminal, home, path
// and display reach it; the config's secret variables (the API key, every
// provider's key, an MCP server's token) do not. The hidden list comes the
// way the chat gets it: config → its tools' config → Options → composer.
func TestEditorGetsTheChildEnvironment(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("OPENAI_API_KEY", "sk-editor-secret")
	t.Setenv("GROQ_API_KEY", "groq-editor-secret")
	t.Setenv("CORP_KEY", "corp-editor-secret")
	t.Setenv("MY_MCP_TOKEN", "mcp-editor-secret")
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("DISPLAY", ":7")
	file := filepath.Join(t.TempDir(), "config.toml")
	toml := "[providers.corp]\nbase_url = \"https://corp.example/v1\"\napi_key_env = \"CORP_KEY\"\n\n" +
		"[[mcp_servers]]\nname = \"net\"\nurl = \"https://mcp.example/mcp\"\nbearer_token_env = \"MY_MCP_TOKEN\"\n"
	if err := os.WriteFile(file, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadConfig(file, true)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := cfg.ToolSet()
	if err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(t.TempDir(), "env.txt")
	ed := fakeEditor(t, `env > "`+dump+`"`)
	o := Options{Tools: &Tools{Config: tc}}
	var c Composer
	c.Configure(t.Context(), o)
	cmd, path, err := editorCommand("x", env(map[string]string{"EDITOR": ed}), c.hidden)
	if err != nil {
		t.Fatal(err)
	}
	if msg := finishEdit(path, cmd.Run()).(EditorDoneMsg); msg.Err != nil {
		t.Fatal(msg.Err)
	}
	b, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, secret := range []string{"sk-editor-secret", "groq-editor-secret", "corp-editor-secret", "mcp-editor-secret"} {
		if strings.Contains(got, secret) {
			t.Errorf("the editor saw the secret %q", secret)
		}
	}
	for _, v := range []string{"TERM=xterm-256color", "DISPLAY=:7", "HOME=" + os.Getenv("HOME"), "PATH=" + os.Getenv("PATH")} {
		if !strings.Contains(got, v+"\n") {
			t.Errorf("the editor did not get %s", v)
		}
	}
}
