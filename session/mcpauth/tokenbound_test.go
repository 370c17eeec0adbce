package mcpauth

import (
	"os"
	"strings"
	"testing"

	"runnel/stream"
	"runnel/stream/httppolicy"
)

// A token endpoint that gives a token over the bound (or a body far over
// the OAuth body bound: a 20 MB token) gets one line; the login is not
// saved, and no second authorization is asked for or awaited.
func TestLoginRefusesAnOversizedToken(t *testing.T) {
	for _, tt := range []struct {
		size int
		want string
	}{
		{2 * httppolicy.MaxToken, "its access token is 128 KiB, over the 64 KiB runnel accepts"},
		{20 << 20, "sent more than 512 KiB"},
	} {
		a := newAuthServer(t)
		a.bigToken = tt.size
		store := StoreIn(t.TempDir())
		_, err := LogIn(t.Context(), LoginOptions{Name: "secure", URL: a.url(), Store: store, Open: follow, Out: &strings.Builder{}})
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") || len(err.Error()) > 400 {
			t.Fatalf("a %d-byte token: %v", tt.size, err)
		}
		a.mu.Lock()
		n := a.authorized
		a.mu.Unlock()
		if n != 1 {
			t.Fatalf("a %d-byte token: %d authorizations (%v)", tt.size, n, err)
		}
		if _, err := os.Stat(store.Path(a.url())); !os.IsNotExist(err) {
			t.Fatalf("a %d-byte token was saved: %v", tt.size, err)
		}
	}
}

// A saved login whose token is over the bound, or whose file is ten times
// the file bound, is refused with one line saying what to do.
func TestLoadRefusesAnOversizedLogin(t *testing.T) {
	store := StoreIn(t.TempDir())
	const u = "https://a.example/mcp"
	l := &Login{ServerURL: u, ClientID: "c", TokenURL: "https://a.example/token", AccessToken: strings.Repeat("t", 2*httppolicy.MaxToken)}
	if err := store.Save(l); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Load(u); err == nil || !strings.Contains(err.Error(), "over 64 KiB") || !strings.Contains(err.Error(), "log in again") {
		t.Fatalf("an oversized token: %v", err)
	}
	big := make([]byte, 10*stream.Limits().LoginFile)
	if err := os.WriteFile(store.Path(u), big, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Load(u); err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "log in again") {
		t.Fatalf("an oversized file: %v", err)
	}
}
