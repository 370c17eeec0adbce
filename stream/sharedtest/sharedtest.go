// Package sharedtest finds the shared test data for tests: the folder
// "shared" beside the module root (../shared from the repository), which
// holds the recorded streams (fixtures/real, real2, real3), the API spec and
// the bench harness. Recorded streams are never copied into the repository.
//
// Every test that needs ../shared finds it here. When the folder is absent a
// test skips with a message saying where it looked, except when the
// environment variable CI is set (to anything but "", "0" or "false"): then
// it fails, so a CI run can't pass by skipping everything.
//
// It is imported only by tests; it imports nothing of runnel.
package sharedtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Find returns the absolute path of the shared folder beside the module
// root (the nearest directory above the working directory that holds
// go.mod), without skipping or failing. Tests use Dir; Find is for code that
// works without the data, such as fuzz seeds.
func Find() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
	shared := filepath.Join(filepath.Dir(dir), "shared")
	if _, err := os.Stat(shared); err != nil {
		return "", fmt.Errorf("%s not found (the shared test data lives beside the repository)", shared)
	}
	return shared, nil
}

// InCI reports whether the environment variable CI asks for a CI run.
func InCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "0" && v != "false"
}

// Missing skips t with the message, or fails it when CI is set.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		t.Fatalf("%s (CI is set: shared test data must be present)", msg)
	}
	t.Skip(msg)
}

// Dir returns the shared folder, or skips (fails in CI) when it is absent.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := Find()
	if err != nil {
		Missing(t, "shared test data: %v", err)
	}
	return dir
}

// Path returns the path of elem inside the shared folder, or skips (fails
// in CI) when it does not exist.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{Dir(t)}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		Missing(t, "shared test data: %v", err)
	}
	return p
}

// RealDir is the folder of the recorded streams, fixtures/real.
func RealDir(t testing.TB) string {
	t.Helper()
	return Path(t, "fixtures", "real")
}

// Real returns the path of one recorded stream, named by its path under
// fixtures/real ("vercel__ai/openai-mcp-tool-two-calls.sse").
func Real(t testing.TB, name string) string {
	t.Helper()
	return Path(t, "fixtures", "real", filepath.FromSlash(name))
}

// ReadReal returns the bytes of one recorded stream.
func ReadReal(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(Real(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// RealFiles lists every recorded stream under fixtures/real (the .sse files
// one folder down), sorted; it skips (fails in CI) when there are none.
func RealFiles(t testing.TB) []string {
	t.Helper()
	dir := RealDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.sse"))
	if len(files) == 0 {
		Missing(t, "no recorded streams under %s", dir)
	}
	sort.Strings(files)
	return files
}

// AllRealFiles lists every recorded stream of the three OpenAI-shaped sets
// (fixtures/real, real2 and real3), sorted; it fails when there are fewer
// than 100 (skips when the fixtures are absent, fails in CI).
func AllRealFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, set := range []string{"real", "real2", "real3"} {
		f, _ := filepath.Glob(filepath.Join(Dir(t), "fixtures", set, "*", "*.sse"))
		files = append(files, f...)
	}
	if len(files) < 100 {
		t.Fatalf("found %d recorded streams, want the three sets", len(files))
	}
	sort.Strings(files)
	return files
}
