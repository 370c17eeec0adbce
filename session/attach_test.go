package session_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/session"
	"runnel/session/attach"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// attachFiles writes an image (a .png name over GIF content: the content
// decides), a PDF and a text file, and loads them.
func attachFiles(t *testing.T) ([]*attach.File, map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	data := map[string][]byte{
		"shot.png":  append([]byte("GIF89a"), make([]byte, 64)...),
		"paper.pdf": []byte("%PDF-1.7\n1 0 obj\n"),
		"notes.md":  []byte("# notes\nthe word is pamplemousse\n"),
	}
	var paths []string
	for _, name := range []string{"shot.png", "paper.pdf", "notes.md"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data[name], 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	files, err := attach.Load(paths, attach.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return files, data
}

// parts returns the content parts of the request's input items that are
// user messages, in order.
func parts(t *testing.T, r streamtest.Recorded) []map[string]any {
	t.Helper()
	var out []map[string]any
	input, _ := r.JSON()["input"].([]any)
	for _, in := range input {
		m, _ := in.(map[string]any)
		if m["role"] != "user" {
			continue
		}
		c, _ := m["content"].([]any)
		for _, p := range c {
			pm, _ := p.(map[string]any)
			out = append(out, pm)
		}
	}
	return out
}

func dataURL(mime string, b []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
}

// checkAttached asserts that the request carries the image as input_image
// with a data URL and the configured detail, the PDF as input_file with
// file_data and filename, and the text file as input_text headed by its path.
func checkAttached(t *testing.T, r streamtest.Recorded, data map[string][]byte, detail string) {
	t.Helper()
	var image, file, text bool
	for _, p := range parts(t, r) {
		switch p["type"] {
		case "input_image":
			image = p["image_url"] == dataURL("image/gif", data["shot.png"]) && p["detail"] == detail
		case "input_file":
			file = p["file_data"] == dataURL("application/pdf", data["paper.pdf"]) && p["filename"] == "paper.pdf"
		case "input_text":
			s, _ := p["text"].(string)
			text = text || strings.HasPrefix(s, `<file path="`) && strings.Contains(s, `notes.md">`+"\n# notes\nthe word is pamplemousse\n")
		}
	}
	if !image || !file || !text {
		t.Errorf("request lacks input_image %v, input_file %v, input_text %v:\n%.2000s", image, file, text, r.Body)
	}
}

// TestAttachmentsSentStoredAndResentInFallback: a message with an image, a
// PDF and a text file sends them as input_image (data URL, detail from the
// limits), input_file (file_data) and input_text; the session stores them;
// a conversation resumed from the store whose chain the server lost
// rebuilds its request from local history and sends them again.
func TestAttachmentsSentStoredAndResentInFallback(t *testing.T) {
	srv := streamtest.New(t)
	cl := &stream.Client{BaseURL: srv.URL}
	db := openStore(t)
	files, data := attachFiles(t)
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: true}}
	j := session.NewJournal(db, c.Settings)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "a gif, a pdf and notes")})
	turn := c.Begin("what are these?", attach.Message("what are these?", files, attach.Limits{Detail: "low"}))
	send(t, c, cl, turn, j.Begin(turn))
	j.Close()
	checkAttached(t, srv.Requests()[0], data, "low")
	if got := turn.Attachments(); len(got) != 3 || got[0].Label() != "shot.png · 70 B" || got[1].Name != "paper.pdf" || got[2].Label() != "notes.md · 33 B" {
		t.Errorf("turn attachments %+v", got)
	}

	stored, warns, err := db.Load(j.ID())
	if err != nil || len(warns) > 0 {
		t.Fatal(err, warns)
	}
	back, probs := session.FromStore(stored)
	if len(probs) > 0 || len(back.Turns) != 1 || len(back.Turns[0].Attachments()) != 3 {
		t.Fatalf("restored %d turns, problems %v", len(back.Turns), probs)
	}
	srv.Enqueue(streamtest.PreviousResponseNotFound("resp_1"), streamtest.Reply{SSE: streamtest.Text("resp_2", "again")})
	next := back.Say("and now?")
	wantChainLost(t, cl, next.Request)
	back.Rebuild(next)
	send(t, back, cl, next, nil)
	reqs := srv.Requests()
	fallback := reqs[len(reqs)-1]
	if fallback.PreviousResponseID() != "" {
		t.Errorf("fallback still chains")
	}
	checkAttached(t, fallback, data, "low")

	// a fork keeps them too
	f := back.Fork(1)
	if in, _ := json.Marshal(f.FullInput()); !strings.Contains(string(in), base64.StdEncoding.EncodeToString(data["paper.pdf"])) {
		t.Errorf("forked conversation lost the PDF")
	}
}
