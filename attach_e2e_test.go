package main

// End-to-end test, in tmux, of attachments: @path with tab completion makes
// a chip, so does a dropped (pasted) path, the message sends the files, the transcript shows it on the user's
// turn, and resuming the session (runnel -c) shows it again and keeps the
// file's text in what the session can resend.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

func TestChatAttachmentChipSendResume(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "I read your notes.")},
		streamtest.Reply{SSE: streamtest.Text("resp_2", "still here")})
	home := t.TempDir()
	note := "the secret word is pamplemousse\n"
	if err := os.WriteFile(filepath.Join(home, "notes.txt"), []byte(note), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-e2e-attach", "HOME": home,
		"XDG_DATA_HOME": filepath.Join(home, "data"), "XDG_CONFIG_HOME": filepath.Join(home, "config")}
	p := startPane(t, 100, 30, env, binary(t))
	p.waitText("Ask anything")
	p.text("summarise @~/no")
	p.keys("Tab")
	chip := "[notes.txt · 32 B]"
	p.waitText(chip)
	if s := p.screen(); strings.Contains(s, "@~/no") {
		t.Errorf("the @path stayed in the text after tab made it a chip:\n%s", s)
	}
	// a file dropped on the terminal arrives as a bracketed paste of its
	// quoted path: it becomes a chip too
	png := filepath.Join(home, "my shot.png")
	if err := os.WriteFile(png, []byte("\x89PNG\r\n\x1a\n0123"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.tmux("set-buffer", "'"+png+"'")
	p.tmux("paste-buffer", "-p", "-t", "t")
	p.waitText(chip + " [my shot.png · 12 B]")
	p.keys("Enter")
	p.waitText("I read your notes.")
	s := p.waitText("attached: " + chip + " [my shot.png · 12 B]")
	if strings.Count(s, chip) != 1 {
		t.Errorf("the chip should leave the composer once sent and show once on the turn:\n%s", s)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	body := string(reqs[0].Body)
	if !strings.Contains(body, `"image_url":"data:image/png;base64,`) || !strings.Contains(body, `pamplemousse`) || !strings.Contains(body, `notes.txt\"\u003e`) && !strings.Contains(body, `notes.txt\">`) {
		t.Errorf("the request does not carry the file headed by its path:\n%s", body)
	}
	if strings.Contains(body, home) {
		t.Errorf("a local path went to the server (the files are outside the working directory: base names only):\n%s", body)
	}
	p.quit()
	p.waitText("[exited 0]")

	p2 := startPane(t, 100, 30, env, binary(t), "-c")
	s = p2.waitText("I read your notes.")
	if !strings.Contains(s, "attached: "+chip+" [my shot.png · 12 B]") || !strings.Contains(s, "summarise") {
		t.Errorf("resumed session does not show the attachment on the user's turn:\n%s", s)
	}
	t.Logf("resumed screen:\n%s", s)
}
