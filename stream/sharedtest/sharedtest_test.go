package sharedtest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a helper ended the test.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}
func (r *recorder) Skip(args ...any) {
	r.skipped, r.msg = true, toString(args)
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, format
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) {
	r.failed, r.msg = true, toString(args)
	runtime.Goexit()
}

func toString(args []any) string {
	var b strings.Builder
	for _, a := range args {
		if s, ok := a.(string); ok {
			b.WriteString(s)
		}
	}
	return b.String()
}

// run calls f with a recorder in its own goroutine, as the testing package
// runs a test, and returns how it ended.
func run(t *testing.T, f func(tb testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

// lonelyModule is a module root with no shared folder beside it.
func lonelyModule(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(dir, "sub"))
}

func TestMissingSkipsWithoutCI(t *testing.T) {
	lonelyModule(t)
	t.Setenv("CI", "")
	r := run(t, func(tb testing.TB) { RealFiles(tb) })
	if !r.skipped || r.failed {
		t.Fatalf("skipped %v, failed %v", r.skipped, r.failed)
	}
	if !strings.Contains(r.msg, "shared") {
		t.Errorf("skip message %q does not say what is missing", r.msg)
	}
}

func TestMissingFailsInCI(t *testing.T) {
	lonelyModule(t)
	for _, v := range []string{"true", "1", "yes"} {
		t.Setenv("CI", v)
		for name, f := range map[string]func(testing.TB){
			"Dir":       func(tb testing.TB) { Dir(tb) },
			"Real":      func(tb testing.TB) { Real(tb, "a/b.sse") },
			"RealFiles": func(tb testing.TB) { RealFiles(tb) },
		} {
			if r := run(t, f); !r.failed || r.skipped {
				t.Errorf("CI=%s %s: failed %v, skipped %v", v, name, r.failed, r.skipped)
			}
		}
	}
	t.Setenv("CI", "false")
	if r := run(t, func(tb testing.TB) { Dir(tb) }); !r.skipped {
		t.Error("CI=false does not skip")
	}
}

func TestFindsSharedBesideModuleRoot(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	for _, d := range []string{filepath.Join(repo, "a", "b"), filepath.Join(root, "shared", "fixtures", "real", "p")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module x\n"), 0o644)
	os.WriteFile(filepath.Join(root, "shared", "fixtures", "real", "p", "one.sse"), []byte("data: {}\n\n"), 0o644)
	t.Chdir(filepath.Join(repo, "a", "b"))
	t.Setenv("CI", "true")
	files := RealFiles(t)
	if len(files) != 1 || !filepath.IsAbs(files[0]) || filepath.Base(files[0]) != "one.sse" {
		t.Errorf("RealFiles = %v", files)
	}
	if got := string(ReadReal(t, "p/one.sse")); got != "data: {}\n\n" {
		t.Errorf("ReadReal = %q", got)
	}
}
