package ui

import "strings"

// argMenuMax bounds the argument completions offered at once.
const argMenuMax = 50

// SetArgChoices sets the values a command's argument completes to (the
// model list for /model); nil removes them.
func (c *Composer) SetArgChoices(name string, values []string) {
	if c.argChoices == nil {
		c.argChoices = map[string][]string{}
	}
	c.argChoices[name] = values
	c.updateMenu()
}

// argMenu is the menu of argument completions for text ("/model gp"): the
// choices that start with what is typed, then those that hold it, at most
// argMenuMax; none once the argument is complete or holds a space.
func (c Composer) argMenu(text string) []Command {
	name, args, ok := Parse(text)
	if !ok || strings.ContainsAny(args, " \t") {
		return nil
	}
	cmd, ok := Lookup(name)
	values := c.argChoices[name]
	if !ok || len(values) == 0 {
		return nil
	}
	low := strings.ToLower(args)
	var prefix, inside []Command
	for _, v := range values {
		if v == args {
			return nil // complete: enter sends it as typed
		}
		row := cmd
		row.arg, row.Desc = v, ""
		switch lv := strings.ToLower(v); {
		case strings.HasPrefix(lv, low):
			prefix = append(prefix, row)
		case strings.Contains(lv, low):
			inside = append(inside, row)
		}
	}
	out := append(prefix, inside...)
	return out[:min(len(out), argMenuMax)]
}
