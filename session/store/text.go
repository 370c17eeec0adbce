package store

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"runnel/stream"
)

// Searchable text comes from the item kind table (stream.KindFor), into the
// columns of the search index. It is sanitized there; the snippet markers
// are removed from it here, so a snippet's only markers are the index's own.

// itemText is the searchable text of one item, by index column.
type itemText struct {
	prompt, answer, reasoning, tool string
}

func (t itemText) empty() bool {
	return t.prompt == "" && t.answer == "" && t.reasoning == "" && t.tool == ""
}

// extract returns the searchable text of one item; malformed items and
// types with nothing to search have none.
func extract(raw []byte) itemText {
	it := stream.StoredItem(raw)
	if it == nil {
		return itemText{}
	}
	return searchText(stream.KindFor(it.Type).Text(it))
}

// searchText is the searchable text of an item as the item kind table
// reads it (stream.KindFor), each column clipped for the index.
func searchText(t stream.Searchable) itemText {
	return itemText{clip(t.Prompt), clip(t.Answer), clip(t.Reasoning), clip(t.Tool)}
}

func join(ss ...string) string {
	n := 0
	for _, s := range ss {
		if s != "" {
			ss[n] = s
			n++
		}
	}
	return strings.Join(ss[:n], "\n")
}

// Snippet markers: private-use runes the index wraps around matches.
const (
	markOpenRune  = '\uE000'
	markCloseRune = '\uE001'
	markOpen      = string(markOpenRune)
	markClose     = string(markCloseRune)
)

// clip cuts text for the index to its first stream.SearchTextBytes (at a
// rune boundary, a copy, so the index holds no more of a long answer than
// that), sanitizes it and removes marker runes from it.
func clip(s string) string {
	if len(s) > stream.SearchTextBytes {
		n := stream.SearchTextBytes
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = strings.Clone(s[:n])
	}
	s = stream.Sanitize(s)
	if strings.Contains(s, markOpen) || strings.Contains(s, markClose) {
		s = strings.NewReplacer(markOpen, " ", markClose, " ").Replace(s)
	}
	return s
}

// previewLine is the line of text that lists show: the first non-blank line
// of the text as plain text (plainMarkdown), sanitized, folded and cut to
// 200 runes.
func previewLine(text string) string {
	return cut(stream.SanitizeLine(firstPlainLine(text)), 200)
}

// cut shortens s to at most n runes, ending with "…" when it was longer.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n-1 {
			return s[:pos] + "…"
		}
		i++
	}
	return s
}

// title makes a session title from a prompt: one line, at most 80 runes.
func title(prompt string) string { return cut(stream.SanitizeLine(prompt), 80) }

// splitArray returns the elements of a JSON array, each as its exact bytes.
func splitArray(raw []byte) ([]json.RawMessage, error) {
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	return a, nil
}
