//go:build unix

package mcpauth

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestLoadRefusesAFIFO: a FIFO where a saved login should be is refused
// in one line at once, not waited on for a writer that never comes.
func TestLoadRefusesAFIFO(t *testing.T) {
	store := StoreIn(t.TempDir())
	if err := os.MkdirAll(string(store), 0o700); err != nil {
		t.Fatal(err)
	}
	path := store.Path("https://a.example/mcp")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := store.Load("https://a.example/mcp")
	if err == nil || !strings.Contains(err.Error(), "not a regular file") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a FIFO: %v", err)
	}
}
