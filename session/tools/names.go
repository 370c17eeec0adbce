package tools

import (
	"strconv"
	"strings"
)

// maxNameLen is the longest function name the API accepts.
const maxNameLen = 64

// exposedName is the function name an MCP tool is offered under:
// server + Separator + tool, with every character outside [a-zA-Z0-9_-]
// replaced by "_", cut to 64 characters, and given a "_2", "_3", … suffix
// if that name is taken. It marks the name it returns as used.
func exposedName(server, tool string, used map[string]bool) string {
	base := sanitizeName(server + Separator + tool)
	name := base
	for n := 2; used[name]; n++ {
		suffix := "_" + strconv.Itoa(n)
		name = base[:min(len(base), maxNameLen-len(suffix))] + suffix
	}
	used[name] = true
	return name
}

// sanitizeName maps s onto the API's name alphabet and length.
func sanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() == maxNameLen {
			break
		}
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
