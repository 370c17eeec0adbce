//go:build unix

package models_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"runnel/session/models"
	"runnel/stream"
)

// TestCacheReplacedByAFIFO: a models cache file replaced by a FIFO, or by a
// symlink to /dev/zero, is skipped at once (the list comes from the server
// again); nothing waits for a writer or reads without end.
func TestCacheReplacedByAFIFO(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"list","data":[{"id":"gpt-5"}]}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	l := models.Lister{Client: &stream.Client{BaseURL: srv.URL}, CacheDir: dir}
	for name, replace := range map[string]func(string) error{
		"fifo": func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"zero": func(p string) error { return os.Symlink("/dev/zero", p) },
	} {
		if _, err := l.List(context.Background(), true); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "models", "*.json"))
		if len(files) != 1 {
			t.Fatalf("cache files %v", files)
		}
		os.Remove(files[0])
		if err := replace(files[0]); err != nil {
			t.Skipf("%s: %v", name, err)
		}
		before := hits
		done := make(chan error, 1)
		go func() { _, err := l.List(context.Background(), false); done <- err }()
		select {
		case err := <-done:
			if err != nil || hits != before+1 {
				t.Errorf("%s: %v, %d requests", name, err, hits-before)
			}
		case <-time.After(10 * time.Second): // a guard against hanging
			t.Fatalf("%s: listing models hung on the cache file", name)
		}
	}
}
