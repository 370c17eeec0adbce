package export_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"runnel/session/attach"
	"runnel/session/export"
	"runnel/session/store"
)

// TestMarkdownListsAttachments: a turn's files are listed under its prompt
// by name and size, names as inline code.
func TestMarkdownListsAttachments(t *testing.T) {
	files := []*attach.File{
		{Path: "a`b.png", Name: "a`b.png", Kind: attach.Image, MIME: "image/png", Size: 4, Data: []byte("\x89PNG")},
		{Path: "n.txt", Name: "n.txt", Kind: attach.Text, MIME: "text/plain", Size: 3, Data: []byte("abc")},
	}
	s := &store.Session{Turns: []store.Turn{{Seq: 1, Prompt: "look", Status: store.StatusCompleted,
		Input: []json.RawMessage{attach.Message("look", files, attach.Limits{})}}}}
	var b bytes.Buffer
	if err := export.Markdown(&b, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "*Attached:* ``a`b.png`` (4 B), `n.txt` (3 B)") {
		t.Errorf("markdown:\n%s", b.String())
	}
}
