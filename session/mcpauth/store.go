package mcpauth

// This file keeps logins on disk: one 0600 JSON file per server URL.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/oauth2"

	"runnel/session/regfile"
	"runnel/stream"
	"runnel/stream/httppolicy"
)

// Login is what a login leaves on disk for one server.
type Login struct {
	ServerURL    string    `json:"server_url"`
	ClientID     string    `json:"client_id"`
	ClientSecret string    `json:"client_secret,omitempty"`
	AuthURL      string    `json:"auth_url,omitempty"`
	TokenURL     string    `json:"token_url"`
	AuthStyle    int       `json:"auth_style,omitempty"`
	Scopes       []string  `json:"scopes,omitempty"`
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	TokenType    string    `json:"token_type,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
}

// Secrets are the login's secret values, for a stream.Redactor.
func (l *Login) Secrets() []string {
	return []string{l.AccessToken, l.RefreshToken, l.ClientSecret}
}

func (l *Login) token() *oauth2.Token {
	return &oauth2.Token{AccessToken: l.AccessToken, RefreshToken: l.RefreshToken, TokenType: l.TokenType, Expiry: l.Expiry}
}

func (l *Login) setToken(t *oauth2.Token) {
	l.AccessToken, l.TokenType, l.Expiry = t.AccessToken, t.TokenType, t.Expiry
	if t.RefreshToken != "" {
		l.RefreshToken = t.RefreshToken
	}
}

func (l *Login) config() *oauth2.Config {
	return &oauth2.Config{
		ClientID: l.ClientID, ClientSecret: l.ClientSecret, Scopes: l.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: l.AuthURL, TokenURL: l.TokenURL, AuthStyle: oauth2.AuthStyle(l.AuthStyle)},
	}
}

// Store is the directory of saved logins. The zero Store ("") saves
// nothing and finds nothing.
type Store string

// StoreIn is the store under a data directory.
func StoreIn(dataDir string) Store {
	if dataDir == "" {
		return ""
	}
	return Store(filepath.Join(dataDir, "mcp-auth"))
}

// Path is the file of the login to serverURL.
func (s Store) Path(serverURL string) string {
	sum := sha256.Sum256([]byte(serverURL))
	return filepath.Join(string(s), hex.EncodeToString(sum[:12])+".json")
}

// unwrapPath drops the path an *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Load reads the login to serverURL; nil, nil when there is none.
func (s Store) Load(serverURL string) (*Login, error) {
	if s == "" {
		return nil, nil
	}
	limit := stream.Limits().LoginFile                          // the table's login_file_bytes: tokens are a few KiB
	b, err := regfile.ReadFile(s.Path(serverURL), int64(limit)) // no wait on a FIFO, no unbounded read
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if errors.As(err, new(*regfile.TooLargeError)) {
		err = &stream.BoundError{What: "the saved login", Key: "login_file_bytes", Limit: limit}
		return nil, fmt.Errorf("%s: %w; remove it and log in again", s.Path(serverURL), err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w; remove it and log in again", s.Path(serverURL), unwrapPath(err))
	}
	var l Login
	if err := json.Unmarshal(b, &l); err != nil || l.ServerURL != serverURL {
		return nil, fmt.Errorf("%s: not a saved login to %s; remove it and log in again", s.Path(serverURL), serverURL)
	}
	if len(l.AccessToken) > httppolicy.MaxToken || len(l.RefreshToken) > httppolicy.MaxToken {
		return nil, fmt.Errorf("%s: a saved token is over %d KiB, which runnel refuses; remove it and log in again", s.Path(serverURL), httppolicy.MaxToken>>10)
	}
	return &l, nil
}

// Save writes l (mode 0600, in a 0700 directory), replacing the file
// whole.
func (s Store) Save(l *Login) error {
	if s == "" {
		return errors.New("no data directory to save the login in")
	}
	if err := os.MkdirAll(string(s), 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(string(s), ".login-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), s.Path(l.ServerURL))
}

// Remove deletes the login to serverURL; false when there was none.
func (s Store) Remove(serverURL string) (bool, error) {
	if s == "" {
		return false, nil
	}
	err := os.Remove(s.Path(serverURL))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
