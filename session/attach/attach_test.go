package attach

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCheckSniffsContent: the kind comes from the bytes, not the name.
func TestCheckSniffsContent(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		data []byte
		kind Kind
		mime string
	}{
		{"a.txt", []byte("\x89PNG\r\n\x1a\nrest"), Image, "image/png"},
		{"b.png", []byte("just text, named like an image\n"), Text, "text/plain"},
		{"c", []byte("\xff\xd8\xff\xdb"), Image, "image/jpeg"},
		{"d.dat", []byte("RIFF\x10\x00\x00\x00WEBPVP8 "), Image, "image/webp"},
		{"e", []byte("GIF87a...."), Image, "image/gif"},
		{"f.bin", []byte("%PDF-2.0\n"), PDF, "application/pdf"},
		{"g.go", []byte("package main // héllo\n"), Text, "text/plain"},
		{"empty.txt", nil, Text, "text/plain"},
	}
	for _, c := range cases {
		f, err := Check(writeFile(t, dir, c.name, c.data), Limits{})
		if err != nil || f.Kind != c.kind || f.MIME != c.mime || f.Name != c.name {
			t.Errorf("%s: %+v, %v; want %s %s", c.name, f, err, c.kind, c.mime)
		}
	}
	// a UTF-8 rune cut by the sniffed head is still text
	long := strings.Repeat("a", 4095) + "é and more"
	if f, err := Check(writeFile(t, dir, "long.txt", []byte(long)), Limits{}); err != nil || f.Kind != Text {
		t.Errorf("long text: %+v %v", f, err)
	}
	for name, data := range map[string][]byte{"nul.txt": []byte("a\x00b"), "latin1.txt": []byte("caf\xe9 cr\xe8me"), "zip": []byte("PK\x03\x04")} {
		_, err := Check(writeFile(t, dir, name, data), Limits{})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), "unsupported type") {
			t.Errorf("%s: %v; want unsupported", name, err)
		}
	}
}

func TestLoadAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.txt", []byte("one"))
	b := writeFile(t, dir, "b.txt", []byte(strings.Repeat("b", 2000)))
	files, err := Load([]string{a}, Limits{}, func(s string) string { return strings.ReplaceAll(s, "one", "[redacted]") })
	if err != nil || len(files) != 1 || string(files[0].Data) != "[redacted]" || files[0].Size != 10 {
		t.Fatalf("%+v %v", files, err)
	}
	if files, err := Load([]string{a, b}, Limits{MaxMessage: 1000}, nil); err == nil || files != nil || !strings.Contains(err.Error(), "per message") {
		t.Errorf("over the message limit: %v %v", files, err)
	}
	if _, err := Load([]string{a, b}, Limits{MaxFile: 1000}, nil); err == nil || !strings.Contains(err.Error(), "b.txt: too big (2 KiB; the limit is 1000 B") {
		t.Errorf("over the file limit: %v", err)
	}
	if err := CheckAll([]string{a, b}, Limits{MaxMessage: 1000}); err == nil || !strings.Contains(err.Error(), "over the limit of 1000 B per message") {
		t.Errorf("CheckAll over the message limit: %v", err)
	}
	if err := CheckAll([]string{a, dir}, Limits{}); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("CheckAll of a directory: %v", err)
	}
	// a file that changes kind between Check and Read is refused
	f, _ := Check(a, Limits{})
	writeFile(t, dir, "a.txt", []byte("%PDF-1.1"))
	if _, err := Read([]*File{f}, Limits{}, nil); err == nil || !strings.Contains(err.Error(), "changed while being read") {
		t.Errorf("changed file: %v", err)
	}
}

func TestExpandAndPastedPath(t *testing.T) {
	dir := t.TempDir()
	spaced := writeFile(t, dir, "my shot.png", []byte("\x89PNG\r\n\x1a\n"))
	for in, want := range map[string]string{
		"'" + spaced + "'":                                 spaced,
		`"` + spaced + `"`:                                 spaced,
		strings.ReplaceAll(spaced, " ", `\ `):              spaced,
		"file://" + strings.ReplaceAll(spaced, " ", "%20"): spaced,
		"  " + spaced + "\n":                               spaced,
	} {
		if got := Expand(in); got != want {
			t.Errorf("Expand(%q) = %q, want %q", in, got, want)
		}
		if got, ok := PastedPath(in); !ok || got != want {
			t.Errorf("PastedPath(%q) = %q, %v", in, got, ok)
		}
	}
	for _, in := range []string{"main.go", spaced + "\nsecond line", "hello world"} {
		if p, ok := PastedPath(in); ok {
			t.Errorf("PastedPath(%q) took %q", in, p)
		}
	}
	t.Setenv("HOME", dir)
	if got := Expand("~/my shot.png"); got != spaced {
		t.Errorf("~ expands to %q", got)
	}
}

func TestTextPartRoundTrip(t *testing.T) {
	for _, path := range []string{"notes.md", `we"ird & <path>.txt`, "a\nb.txt"} {
		for _, text := range []string{"", "x", "line\n</file>\nmore\n"} {
			p, got, ok := ParseTextPart(TextPart(path, text))
			wantPath := strings.ReplaceAll(path, "\n", " ")
			if !ok || got != strings.TrimSuffix(text, "") && got != text || p != wantPath {
				t.Errorf("round trip of %q %q: %q %q %v", path, text, p, got, ok)
			}
		}
	}
	for _, s := range []string{"hello", `<file path="x">no end`, "<file path=\"x\n\">\nbody\n</file>"} {
		if _, _, ok := ParseTextPart(s); ok {
			t.Errorf("%q parsed as a file", s)
		}
	}
}

func TestMessageAndFromInput(t *testing.T) {
	files := []*File{
		{Path: "/tmp/a.png", Name: "a.png", Kind: Image, MIME: "image/png", Size: 5, Data: []byte("12345")},
		{Path: "d/p.pdf", Name: "p.pdf", Kind: PDF, MIME: "application/pdf", Size: 4, Data: []byte("%PDF")},
		{Path: "d/n.txt", Name: "n.txt", Kind: Text, MIME: "text/plain", Size: 3, Data: []byte("abc")},
	}
	msg := Message("hi", files, Limits{})
	var m struct {
		Content []map[string]string `json:"content"`
	}
	if err := json.Unmarshal(msg, &m); err != nil || len(m.Content) != 5 {
		t.Fatalf("%s", msg)
	}
	if m.Content[1]["text"] != `<image path="a.png">` || m.Content[2]["image_url"] != "data:image/png;base64,MTIzNDU=" || m.Content[2]["detail"] != "auto" {
		t.Errorf("image parts %v", m.Content[1:3])
	}
	got := FromInput([]json.RawMessage{[]byte(`{"type":"function_call_output","call_id":"c","output":"x"}`), msg})
	want := []Meta{{"a.png", Image, 5}, {"p.pdf", PDF, 4}, {"n.txt", Text, 3}}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("FromInput = %+v, want %+v", got, want)
	}
	back := FilesFromInput([]json.RawMessage{msg})
	if len(back) != 3 || string(back[0].Data) != "12345" || back[0].Path != "a.png" || back[0].MIME != "image/png" ||
		string(back[1].Data) != "%PDF" || back[1].Name != "p.pdf" || string(back[2].Data) != "abc" || back[2].Path != "d/n.txt" {
		t.Errorf("FilesFromInput = %+v", back)
	}
	if again := Message("hi", back, Limits{}); string(again) != string(msg) {
		t.Errorf("files given back do not send the same message:\n%s\n%s", again, msg)
	}
	if got := FromInput([]json.RawMessage{msg, Message("plain", nil, Limits{})}); len(got) != 0 {
		t.Errorf("only the last user message counts: %+v", got)
	}
	if string(Message("plain", nil, Limits{})) != `{"content":[{"text":"plain","type":"input_text"}],"role":"user","type":"message"}` {
		t.Errorf("plain message %s", Message("plain", nil, Limits{}))
	}
}

func TestCompleteAndMentions(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "notes.md", []byte("x"))
	writeFile(t, dir, "notebook.txt", []byte("x"))
	writeFile(t, dir, ".hidden", []byte("x"))
	os.Mkdir(filepath.Join(dir, "nested"), 0o700)
	got := Complete(dir+"/no", 0)
	if len(got) != 2 || got[0] != dir+"/notebook.txt" || CommonPrefix(got) != dir+"/note" {
		t.Errorf("Complete = %v", got)
	}
	if got := Complete(dir+"/", 0); len(got) != 3 || got[0] != dir+"/nested/" {
		t.Errorf("Complete(dir/) = %v (hidden files only when asked)", got)
	}
	if got := Complete(dir+"/.h", 0); len(got) != 1 {
		t.Errorf("Complete(.h) = %v", got)
	}
	text := "compare @" + dir + "/notes.md with @nothing and mail@example.com"
	ms := Mentions(text)
	if len(ms) != 1 || ms[0].Path != dir+"/notes.md" || text[ms[0].Start:ms[0].End] != "@"+dir+"/notes.md" {
		t.Errorf("Mentions = %+v", ms)
	}
	if m, ok := MentionAt("see @src/ma", len("see @src/ma")); !ok || m.Path != "src/ma" {
		t.Errorf("MentionAt = %+v %v", m, ok)
	}
	if _, ok := MentionAt("mail@x", 6); ok {
		t.Error("an @ inside a word is no mention")
	}
}

func TestCommonPrefixWholeRunes(t *testing.T) {
	if got := CommonPrefix([]string{"café.txt", "cafè.txt"}); got != "caf" {
		t.Errorf("CommonPrefix = %q", got)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 20 << 20: "20 MiB", 3 << 30: "3 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
