package config

import (
	"strings"
	"testing"
	"time"
)

// TestNotifyConfig: notify, notify_after and notify_command load; a bad
// mode, a command as one string or with an empty program is one line that
// names the file, the line and the key.
func TestNotifyConfig(t *testing.T) {
	c, _, err := loadText(t, "notify = \"on\"\nnotify_after = \"90s\"\nnotify_command = [\"notify-send\", \"-a\", \"runnel\"]\n")
	if err != nil {
		t.Fatal(err)
	}
	if c.Notify != "on" || c.NotifyAfter.Duration != 90*time.Second || strings.Join(c.NotifyCommand, " ") != "notify-send -a runnel" {
		t.Errorf("loaded %q %v %q", c.Notify, c.NotifyAfter, c.NotifyCommand)
	}
	for doc, want := range map[string]string{
		"model = \"x\"\nnotify = \"loud\"\n":    `config.toml:2: key "notify": "loud" is not allowed; use one of "off", "on", "focus"`,
		"notify_command = [\"\", \"x\"]\n":      `config.toml:1: key "notify_command": the first element must name a program`,
		"notify_command = \"notify-send hi\"\n": "config.toml:1",
		"notify_after = \"soon\"\n":             "config.toml:1",
	} {
		_, _, err := loadText(t, doc)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: err = %v, want one line with %q", doc, err, want)
		}
	}
}
