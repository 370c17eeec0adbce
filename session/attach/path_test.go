package attach

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuotedMentions: a path with a space is written @"…": an open one is
// the mention being completed, a closed one is read back when the message is
// sent, and an @"…" that never closes, or runs into a word, is text.
func TestQuotedMentions(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "my dir"), 0o700)
	spaced := writeFile(t, filepath.Join(dir, "my dir"), "file one.txt", []byte("x"))
	plain := writeFile(t, dir, "plain.txt", []byte("x"))

	text := `see @"my dir/fi`
	if m, ok := MentionAt(text, len(text)); !ok || !m.Quoted || m.Path != "my dir/fi" || m.Start != 4 {
		t.Errorf("MentionAt(open quote) = %+v %v", m, ok)
	}
	text = `@"a b" and @x`
	if m, ok := MentionAt(text, len(text)); !ok || m.Quoted || m.Path != "x" {
		t.Errorf("MentionAt after a closed quote = %+v %v", m, ok)
	}
	if _, ok := MentionAt(`mail@"x`, 7); ok {
		t.Error(`an @" inside a word is no mention`)
	}

	text = `compare @"` + spaced + `", and @` + plain + ` with @"` + spaced + `"x and @"` + spaced
	ms := Mentions(text)
	if len(ms) != 2 || ms[0].Path != spaced || !ms[0].Quoted || ms[1].Path != plain {
		t.Fatalf("Mentions = %+v", ms)
	}
	if got := text[ms[0].Start:ms[0].End]; got != `@"`+spaced+`"` {
		t.Errorf("the quoted mention spans %q", got)
	}

	for _, c := range []struct {
		path, want string
		open, ok   bool
	}{
		{"src/main.go", "src/main.go", false, true},
		{"my dir/", `"my dir/`, true, true},
		{"my dir/file one.txt", `"my dir/file one.txt"`, false, true},
		{`say "hi".txt`, "", false, false},
	} {
		if got, ok := QuoteMention(c.path, c.open); got != c.want || ok != c.ok {
			t.Errorf("QuoteMention(%q, %v) = %q %v, want %q %v", c.path, c.open, got, ok, c.want, c.ok)
		}
	}
}

// TestSentName: the model gets a path relative to the working directory,
// or the base name of a file outside it: never a local absolute path.
func TestSentName(t *testing.T) {
	for _, c := range []struct{ path, dir, want string }{
		{"/work/proj/src/a.go", "/work/proj", "src/a.go"},
		{"src/a.go", "/work/proj", "src/a.go"},
		{"./src/../a.go", "/work/proj", "a.go"},
		{"/home/me/Pictures/shot 1.png", "/work/proj", "shot 1.png"},
		{"../other/b.go", "/work/proj", "b.go"},
		{"/work/project2/c.go", "/work/proj", "c.go"},
		{"/tmp/d.png", "", "d.png"},
		{"notes/e.md", "", "notes/e.md"},
		{"../f.md", "", "f.md"},
	} {
		if got := SentName(c.path, c.dir); got != c.want {
			t.Errorf("SentName(%q, %q) = %q, want %q", c.path, c.dir, got, c.want)
		}
	}
}

// TestMessageNamesNoLocalPath: files checked by absolute path (a drop), by
// a path relative to the working directory (an @path) and from outside it
// go to the model as "sub/a.txt", "sub/a.txt" and "shot.png": the request
// holds neither directory.
func TestMessageNamesNoLocalPath(t *testing.T) {
	work, elsewhere := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(work, "sub"), 0o700)
	text := writeFile(t, filepath.Join(work, "sub"), "a.txt", []byte("hello"))
	shot := writeFile(t, elsewhere, "shot.png", []byte("\x89PNG\r\n\x1a\nxxxx"))
	t.Chdir(work)
	var files []*File
	for _, p := range []string{text, "sub/a.txt", shot} {
		f, err := Check(p, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if files[0].Sent != "sub/a.txt" || files[1].Sent != "sub/a.txt" || files[2].Sent != "shot.png" {
		t.Errorf("sent names %q %q %q", files[0].Sent, files[1].Sent, files[2].Sent)
	}
	read, err := Read(files[1:], Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	msg := string(Message("look", read, Limits{}))
	if strings.Contains(msg, work) || strings.Contains(msg, elsewhere) || !strings.Contains(msg, `\u003cimage path=\"shot.png\"\u003e`) ||
		!strings.Contains(msg, `\u003cfile path=\"sub/a.txt\"\u003e`) {
		t.Errorf("message: %s", msg)
	}
}

// TestPastedPath: a pasted path to something that exists but cannot be
// attached (a directory, a binary) is still found, so the chat can say why
// it stays text; a bare word or a path to nothing is plain text.
func TestPastedPath(t *testing.T) {
	dir := t.TempDir()
	bin := writeFile(t, dir, "prog", []byte("\x7fELF\x00\x00"))
	for _, in := range []string{dir, "'" + bin + "'"} {
		p, ok := PastedPath(in)
		if !ok {
			t.Errorf("PastedPath(%q) is not a path", in)
			continue
		}
		if _, err := Check(p, Limits{}); err == nil {
			t.Errorf("Check(%q) attached it", p)
		}
	}
	for _, in := range []string{"main.go", filepath.Join(dir, "missing.png"), bin + "/below", "hello world", dir + "\n" + dir} {
		if p, ok := PastedPath(in); ok {
			t.Errorf("PastedPath(%q) took %q", in, p)
		}
	}
}
