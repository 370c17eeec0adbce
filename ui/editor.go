package ui

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session/tools"
)

// EditorDoneMsg carries the text back from $EDITOR; the composer takes it.
// Err is set when the editor could not run or its file could not be read.
type EditorDoneMsg struct {
	Text string
	Err  error
}

// editorFallback runs when neither $VISUAL nor $EDITOR is set.
const editorFallback = "vi"

// OpenEditor writes text to a temporary file, runs the user's editor on it
// with the terminal handed over (tea.ExecProcess), and then reads the file
// back as an EditorDoneMsg. The file is removed afterwards. The editor gets
// the one child environment (tools.ChildEnv): runnel's, without the
// variables in hidden (the config's secrets).
func OpenEditor(text string, hidden []string) tea.Cmd {
	c, path, err := editorCommand(text, os.Getenv, hidden)
	if err != nil {
		return func() tea.Msg { return EditorDoneMsg{Err: err} }
	}
	return tea.ExecProcess(c, func(err error) tea.Msg { return finishEdit(path, err) })
}

// editorCommand prepares the editor process on a new temporary file holding
// text. The editor is $VISUAL, else $EDITOR, else vi; it may carry arguments
// ("code --wait"). Its environment is tools.ChildEnv(hidden).
func editorCommand(text string, getenv func(string) string, hidden []string) (*exec.Cmd, string, error) {
	editor := strings.TrimSpace(getenv("VISUAL"))
	if editor == "" {
		editor = strings.TrimSpace(getenv("EDITOR"))
	}
	if editor == "" {
		editor = editorFallback
	}
	f, err := os.CreateTemp("", "runnel-prompt-*.md")
	if err != nil {
		return nil, "", fmt.Errorf("open the editor: create a temporary file: %w", err)
	}
	_, werr := f.WriteString(text)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return nil, "", fmt.Errorf("open the editor: write %s: %w", f.Name(), err)
	}
	args := strings.Fields(editor)
	c := exec.Command(args[0], append(args[1:], f.Name())...)
	c.Env = tools.ChildEnv(hidden)
	return c, f.Name(), nil
}

// finishEdit reads the edited file back and removes it. A trailing newline,
// which editors add, is dropped.
func finishEdit(path string, runErr error) tea.Msg {
	defer os.Remove(path)
	if runErr != nil {
		return EditorDoneMsg{Err: fmt.Errorf("editor failed: %w; set $EDITOR to an editor that works here", runErr)}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return EditorDoneMsg{Err: fmt.Errorf("read the edited prompt: %w", err)}
	}
	return EditorDoneMsg{Text: strings.TrimRight(string(b), "\r\n")}
}
