package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// TestOneShotAttachments: -f, repeated, sends an image as input_image with a
// data URL and the configured detail, and a PDF as input_file with
// file_data and its filename, after the prompt's text.
func TestOneShotAttachments(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_1", "a cat and a paper")})
	t.Setenv("OPENAI_API_KEY", "sk-test")
	dir := t.TempDir()
	jpeg := append([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), make([]byte, 100)...)
	pdf := []byte("%PDF-1.4\n%âãÏÓ\n")
	write(t, filepath.Join(dir, "cat.bin"), jpeg) // the content says jpeg, whatever the name
	write(t, filepath.Join(dir, "paper.pdf"), pdf)
	cfg := filepath.Join(dir, "config.toml")
	write(t, cfg, []byte("[attachments]\nimage_detail = \"high\"\n"))
	out, errOut, code := runnel(t, "", "--config", cfg, "--base-url", srv.URL, "--data-dir", t.TempDir(), "--format", "text",
		"-p", "what is this?", "-f", filepath.Join(dir, "cat.bin"), "--file", filepath.Join(dir, "paper.pdf"))
	if code != exitOK || !strings.Contains(out, "a cat and a paper") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	input := reqs[0].JSON()["input"].([]any)
	content := input[len(input)-1].(map[string]any)["content"].([]any)
	if len(content) != 4 {
		t.Fatalf("content %v", content)
	}
	text, label, img, file := content[0].(map[string]any), content[1].(map[string]any), content[2].(map[string]any), content[3].(map[string]any)
	if label["type"] != "input_text" || label["text"] != `<image path="cat.bin">` { // outside the working directory: its base name
		t.Errorf("the image is not named before it: %v", label)
	}
	if strings.Contains(string(reqs[0].Body), dir) {
		t.Errorf("a local path went to the server: %s", reqs[0].Body)
	}
	if text["type"] != "input_text" || text["text"] != "what is this?" {
		t.Errorf("first part %v", text)
	}
	if img["type"] != "input_image" || img["detail"] != "high" || img["image_url"] != "data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString(jpeg) {
		t.Errorf("image part %v", img)
	}
	if file["type"] != "input_file" || file["filename"] != "paper.pdf" || file["file_data"] != "data:application/pdf;base64,"+base64.StdEncoding.EncodeToString(pdf) {
		t.Errorf("file part %v", file)
	}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestOneShotAttachmentLimits: a file that is too big, of an unsupported
// type, unreadable, missing or a directory, or files over the per-message
// limit, stop -p with one line before anything is sent, even when other
// files were fine.
func TestOneShotAttachmentLimits(t *testing.T) {
	srv := streamtest.New(t)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.txt")
	write(t, ok, []byte("fine\n"))
	big := filepath.Join(dir, "big.txt")
	write(t, big, []byte(strings.Repeat("x", 1<<20+1)))
	half := filepath.Join(dir, "half.txt")
	write(t, half, []byte(strings.Repeat("y", 700<<10)))
	bin := filepath.Join(dir, "prog.bin")
	write(t, bin, []byte("\x7fELF\x02\x01\x01\x00\x00\x00"))
	locked := filepath.Join(dir, "locked.txt")
	write(t, locked, []byte("secret"))
	os.Chmod(locked, 0)
	cfg := filepath.Join(dir, "config.toml")
	write(t, cfg, []byte("[attachments]\nmax_file_mib = 1\nmax_message_mib = 1\n"))
	cases := []struct {
		files []string
		want  string
	}{
		{[]string{ok, big}, "big.txt: too big (1048577 bytes; the limit is 1 MiB per file"},
		{[]string{ok, bin}, "prog.bin: unsupported type (application/octet-stream)"},
		{[]string{ok, filepath.Join(dir, "nope.png")}, "nope.png: no such file"},
		{[]string{dir}, "is a directory"},
		{[]string{half, half + ""}, "over the limit of 1 MiB per message"},
	}
	if os.Geteuid() != 0 { // root reads anything
		cases = append(cases, struct {
			files []string
			want  string
		}{[]string{ok, locked}, "locked.txt: unreadable (permission denied)"})
	}
	for _, c := range cases {
		args := []string{"--config", cfg, "--base-url", srv.URL, "--data-dir", t.TempDir(), "-p", "look"}
		for _, f := range c.files {
			args = append(args, "-f", f)
		}
		_, errOut, code := runnel(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want one line with %q", c.files, code, errOut, c.want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent; nothing should be sent half-attached", n)
	}
}
