package ui

import "strings"

// argMenuMax bounds the argument completions offered at once.
const argMenuMax = 50

// setArgChoices sets the values a command's argument completes to (the
// model list for /model, argChoicesMsg); nil removes them.
func (s *slashMenu) setArgChoices(name string, values []string) {
	if s.args == nil {
		s.args = map[string][]string{}
	}
	s.args[name] = values
}

// argRows is the menu of argument completions for text ("/model gp"): the
// choices that start with what is typed, then those that hold it, at most
// argMenuMax; none once the argument is complete or holds a space.
func (s slashMenu) argRows(text string) []Command {
	name, args, ok := Parse(text)
	if !ok || strings.ContainsAny(args, " \t") {
		return nil
	}
	cmd, ok := Lookup(name)
	values := s.args[name]
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
