package ui

// This file is the transcript child's memory of the hosted MCP tool lists
// it has shown: a server may send its list again in a later response of the
// same conversation (OpenAI does in the response after an approval when the
// list is not in the context, the demo does after every approval, a
// stateless server on every turn), and the same list is not drawn twice.

import (
	"strings"

	"runnel/stream"
)

// toolLists is the hosted MCP tool lists shown, by server label.
//
// Invariants: shown maps a server label to the fingerprint (toolsKey) of
// the last list of that server the transcript shows; a label is absent
// until one of its lists was shown whole.
type toolLists struct {
	shown map[string]string
}

// skip reports whether item it is a server's tool list sent again that
// the transcript does not show: one that is not whole yet (it may turn
// out the same), or, whole, that lists the same tools as the one shown.
// A list with an error or other tools is shown.
func (l *toolLists) skip(it *stream.Item) bool {
	if it.Type != "mcp_list_tools" {
		return false
	}
	prev, listed := l.shown[it.ServerLabel]
	switch {
	case !listed:
		return false
	case !it.Done:
		return true
	}
	return it.ErrorText() == "" && toolsKey(it) == prev
}

// note records it when it is a whole tool list the transcript shows.
func (l *toolLists) note(it *stream.Item) {
	if it.Type != "mcp_list_tools" || !it.Done || !it.Details().HasTools {
		return
	}
	if l.shown == nil {
		l.shown = map[string]string{}
	}
	l.shown[it.ServerLabel] = toolsKey(it)
}

// toolsKey is what a tool list shows: each tool's name and description.
func toolsKey(it *stream.Item) string {
	var b strings.Builder
	for _, t := range it.Details().Tools {
		b.WriteString(t.Name + "\x00" + t.Description + "\x00")
	}
	return b.String()
}
