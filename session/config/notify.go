package config

import (
	"fmt"
	"strings"
)

// notifyModes are the values of notify.
var notifyModes = []string{"off", "on", "focus"}

// validateNotify checks notify and notify_command; at places a key.
func (c *Config) validateNotify(at func(key string) string) error {
	if c.Notify != "" {
		if err := checkEnum(c.Notify, notifyModes); err != nil {
			return fmt.Errorf("%s: key \"notify\": %w", at("notify"), err)
		}
	}
	if len(c.NotifyCommand) > 0 && strings.TrimSpace(c.NotifyCommand[0]) == "" {
		return fmt.Errorf("%s: key \"notify_command\": the first element must name a program (the title is added as the last argument)", at("notify_command"))
	}
	return nil
}
