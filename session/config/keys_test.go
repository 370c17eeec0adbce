package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loadKeysText writes text to a config file in a temp dir and loads it.
func loadKeysText(t *testing.T, text string) (Config, string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(path, true)
	return c, path, err
}

// TestKeysErrors: a bad [keys] table is one line with the file, the line
// of the key at fault, and what to do.
func TestKeysErrors(t *testing.T) {
	cases := []struct {
		name, text, line string
		want             []string
	}{
		{"conflict with a default", "model = \"m\"\n[keys]\ncopy_last = \"ctrl+r\"\n", "3",
			[]string{`"keys.copy_last"`, `"ctrl+r" is bound to both copy_last and toggle_reasoning`, "another key"}},
		{"conflict between two rebound", "[keys]\nsessions = \"ctrl+k\"\n\nhelp = [\"f1\", \"ctrl+k\"]\n", "4",
			[]string{`"ctrl+k" is bound to both help and sessions`}},
		{"conflict in the vi preset", "[keys]\npreset = \"vi\"\nsessions = \"ctrl+k\"\n", "3",
			[]string{`"ctrl+k" is bound to both navigate and sessions`}},
		{"conflict in navigation", "[keys]\nnav_copy = \"j\"\n", "2",
			[]string{`"j" is bound to both nav_copy and nav_down`}},
		{"unknown action", "[keys]\ncopylast = \"ctrl+y\"\n", "2",
			[]string{`"keys.copylast"`, "no such action", `did you mean "copy_last"`}},
		{"unparseable key", "[keys]\n\nsend = \"control+s\"\n", "3",
			[]string{`"keys.send"`, `"control+s" is not a key`, "ctrl, alt and shift"}},
		{"unknown key name", "[keys]\nsend = \"return\"\n", "2",
			[]string{`"return" is not a key`, "enter"}},
		{"wrong type", "[keys]\nsend = 3\n", "2",
			[]string{`"keys.send"`, "want a key"}},
		{"bad preset", "[keys]\npreset = \"emacs\"\n", "2",
			[]string{`"keys.preset"`, `"emacs"`, `"default", "vi"`}},
		{"quit on a letter", "[keys]\nquit = \"q\"\n", "2",
			[]string{`"keys.quit"`, `"q" would type into the composer`, `"ctrl+q"`}},
		{"copy on a letter", "model = \"m\"\n\n[keys]\ncopy_last = [\"ctrl+y\", \"x\"]\n", "4",
			[]string{`"keys.copy_last"`, `"x" would type`}},
		{"help on a letter", "[keys]\nhelp = \"a\"\n", "2",
			[]string{`"keys.help"`, `"a" would type`}},
		{"a shifted letter types too", "[keys]\nsessions = \"shift+s\"\n", "2",
			[]string{`"shift+s" would type`}},
		{"space types", "[keys]\nmouse = \"space\"\n", "2",
			[]string{`"space" would type`}},
		{"inline table", "keys = { copy_last = \"ctrl+r\" }\n", "1",
			[]string{`"ctrl+r" is bound to both copy_last and toggle_reasoning`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, path, err := loadKeysText(t, c.text)
			if err == nil {
				t.Fatal("loaded")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("more than one line: %q", msg)
			}
			if !strings.HasPrefix(msg, path+":"+c.line+": ") {
				t.Errorf("got %q, want it to start with %s:%s: ", msg, path, c.line)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("got %q, want %q in it", msg, w)
				}
			}
		})
	}
}

// TestKeymap: the preset and the file's keys make the keymap; a file
// without [keys] keeps the default.
// TestKeysTypingAllowed: a one-character key is fine in the navigation
// mode, as the preset's own key of an action (help's "?"), and with ctrl
// or alt.
func TestKeysTypingAllowed(t *testing.T) {
	for _, text := range []string{
		"[keys]\nnav_copy = \"c\"\n",
		"[keys]\nhelp = \"?\"\n",
		"[keys]\nquit = [\"ctrl+c\", \"ctrl+q\"]\n",
		"[keys]\ncopy_last = \"alt+x\"\n",
		"[keys]\npreset = \"vi\"\nnav_exit = [\"q\", \"esc\"]\n",
	} {
		if _, _, err := loadKeysText(t, text); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
}

func TestKeymap(t *testing.T) {
	c, _, err := loadKeysText(t, "[keys]\npreset = \"vi\"\ncopy_last = [\"ctrl+y\", \"alt+y\"]\nretry = []\n")
	if err != nil {
		t.Fatal(err)
	}
	km := c.Keymap()
	if !km.Vi() || !slices.Equal(km.Keys["copy_last"], []string{"ctrl+y", "alt+y"}) || len(km.Keys["retry"]) != 0 || !slices.Equal(km.Keys["navigate"], []string{"ctrl+k"}) {
		t.Errorf("keymap: %+v", km)
	}
	def := Config{}.Keymap()
	if def.Vi() || len(def.Keys["navigate"]) != 0 || !slices.Equal(def.Keys["send"], []string{"enter"}) {
		t.Errorf("default keymap: %+v", def)
	}
	for _, a := range KeyActions {
		if _, ok := def.Keys[a.Name]; !ok {
			t.Errorf("%s missing from the default keymap", a.Name)
		}
	}
}

// TestDefaultKeymapsHaveNoConflicts: both presets pass their own check.
func TestDefaultKeymapsHaveNoConflicts(t *testing.T) {
	for _, p := range Presets {
		if _, err := (Config{Keys: map[string]any{"preset": p}}).keymap("x", nil); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestKeyNames: the names Bubble Tea gives key presses are accepted.
func TestKeyNames(t *testing.T) {
	for _, k := range []string{"a", "G", "?", "/", "+", "ctrl++", "ctrl+k", "alt+enter", "shift+tab", "ctrl+alt+x", "f12", "pgdown", "space", "é"} {
		if err := checkKeyName(k); err != nil {
			t.Errorf("%q: %v", k, err)
		}
	}
	for _, k := range []string{"", "ab", "alt+ctrl+k", "meta+k", "ctrl+", "ctrl+return", " ", "f13"} {
		if checkKeyName(k) == nil {
			t.Errorf("%q accepted", k)
		}
	}
}
