package session

// This file is how runnel learns that a server keeps no conversation state:
// it ignores previous_response_id (Ollama answers previous_response_id null
// and store false, llama.cpp echoes no previous_response_id at all), or
// refuses it (Groq, OpenRouter), or loses the responses it just gave (vLLM
// without its store). The turn is then sent again with the history
// (Conversation.Rebuild), and the provider is remembered on disk
// (StatelessMemory), so later turns, and later runs, send the history from
// the start (Conversation.Stateless).

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"runnel/session/regfile"
	"runnel/stream"
)

// ChainIgnored reports whether the server ignored the chain req asked for:
// req carried previous_response_id, and the response object the server sent
// (s, as of its first lifecycle event) says previous_response_id null, says
// nothing of it, or says store false when req asked to store. A request that
// did not chain, and a snapshot with no response object yet, say nothing.
func ChainIgnored(req stream.Request, s *stream.Snapshot) bool {
	if req.PreviousResponseID == "" || s == nil || !s.Echoed {
		return false
	}
	if !s.EchoedPrevious || s.PreviousResponseID == "" {
		return true
	}
	asked := req.Store == nil || *req.Store
	return asked && s.EchoedStore != nil && !*s.EchoedStore
}

// ChainLost reports whether err is the server's answer that it cannot
// continue the request's chain (stream.APIError.PreviousResponseNotFound):
// the turn is then sent again from local history.
func ChainLost(err error) bool {
	var apiErr *stream.APIError
	return errors.As(err, &apiErr) && apiErr.PreviousResponseNotFound()
}

// KeepsNoState reports whether a lost chain (ChainLost) shows that the
// provider keeps no state at all, rather than that one response expired:
// the server refused previous_response_id itself, or it lost a response it
// gave in this run (a server that stores responses keeps them for days; one
// loaded from the history may have expired). t is the turn that failed, as
// sent (before Rebuild).
func (c *Conversation) KeepsNoState(t *Turn, err error) bool {
	var apiErr *stream.APIError
	if !errors.As(err, &apiErr) || !apiErr.PreviousResponseNotFound() {
		return false
	}
	if apiErr.ChainUnsupported() {
		return true
	}
	id := t.Request.PreviousResponseID
	if id == "" {
		return false
	}
	for _, earlier := range c.Turns {
		if earlier == t {
			break
		}
		for _, s := range earlier.Responses {
			if s.ID == id {
				return earlier.Stored == ""
			}
		}
	}
	return false
}

// ResendStateless rebuilds t (the last turn) to carry the whole
// conversation, and marks the conversation stateless: its later turns send
// the history from the start.
func (c *Conversation) ResendStateless(t *Turn) stream.Request {
	c.Stateless = true
	return c.Rebuild(t)
}

// Why a provider is taken for one that keeps no state (StatelessNotice).
const (
	WhyIgnored = "it ignored previous_response_id"
	WhyRefused = "it refused previous_response_id"
	WhyLost    = "it lost the response it had just given"
)

// StatelessNotice is the one line that says a provider keeps no state, and
// why (WhyIgnored…).
func StatelessNotice(provider, why string) string {
	return stream.SanitizeLine(provider) + " keeps no conversation state (" + why + ") — sending the history with each turn from now on"
}

// StatelessWhy is why a lost chain (KeepsNoState) shows that a provider
// keeps no state.
func StatelessWhy(err error) string {
	var apiErr *stream.APIError
	if errors.As(err, &apiErr) && apiErr.ChainUnsupported() {
		return WhyRefused
	}
	return WhyLost
}

// ProviderKey is how a provider is known to StatelessMemory: its base URL
// ("" is OpenAI's), without credentials, query or trailing slash.
func ProviderKey(baseURL string) string {
	base := strings.TrimSpace(baseURL)
	if base == "" {
		base = stream.DefaultBaseURL()
	}
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		u.User, u.RawQuery, u.Fragment = nil, "", ""
		base = u.String()
	}
	return strings.TrimRight(base, "/")
}

// ProviderName is the host of a provider key, for notices ("localhost:11434").
func ProviderName(key string) string {
	if u, err := url.Parse(key); err == nil && u.Host != "" {
		return u.Host
	}
	return key
}

// StatelessTTL is how long a provider is remembered as keeping no state: a
// server may be restarted with a store (vLLM) and then chain again.
const StatelessTTL = 30 * 24 * time.Hour

// maxMemoryFile bounds what is read of one memory file.
const maxMemoryFile = 4 << 10

// StatelessMemory remembers the providers that keep no conversation state,
// one small file per provider beside the model lists:
// DIR/stateless/<first 16 hex of sha256(key)>.json. The key is a provider's
// ProviderKey (or, later, a profile name). Files that cannot be read, are not
// regular, are too big or do not parse are ignored: the provider is then
// tried with a chain again, and remembered anew.
type StatelessMemory struct {
	Dir string // "": remember nothing
}

// memoryFile is what one file holds (no secrets: the key has none).
type memoryFile struct {
	Key    string    `json:"key"`
	Since  time.Time `json:"since"`
	Reason string    `json:"reason,omitempty"`
}

func (m StatelessMemory) path(key string) string {
	if m.Dir == "" || key == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(m.Dir, "stateless", hex.EncodeToString(sum[:8])+".json")
}

// Known reports whether key was remembered as keeping no state, less than
// StatelessTTL before now.
func (m StatelessMemory) Known(key string, now time.Time) bool {
	path := m.path(key)
	if path == "" {
		return false
	}
	f, err := readMemory(path)
	if err != nil || f.Key != key {
		return false
	}
	age := now.Sub(f.Since)
	return age >= 0 && age < StatelessTTL
}

// Remember writes that key keeps no state, as of now, through a temporary
// file and a rename (a reader never sees half a file).
func (m StatelessMemory) Remember(key, reason string, now time.Time) error {
	path := m.path(key)
	if path == "" {
		return nil
	}
	data, err := json.Marshal(memoryFile{Key: key, Since: now.UTC(), Reason: reason})
	if err != nil {
		return err
	}
	return writeMemoryFile(path, data)
}

// writeMemoryFile writes one memory file through a temporary file and a
// rename (a reader never sees half a file).
func writeMemoryFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".memory-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil && cerr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return errors.Join(werr, cerr)
	}
	return nil
}

// readMemory reads one memory file: a regular file of at most
// maxMemoryFile bytes holding a memoryFile (regfile: a FIFO or a device in
// its place is refused at once).
func readMemory(path string) (memoryFile, error) {
	var f memoryFile
	if err := readJSONFile(path, &f); err != nil {
		return memoryFile{}, err
	}
	return f, nil
}

// readJSONFile reads one memory file into v: a regular file of at most
// maxMemoryFile bytes holding JSON.
func readJSONFile(path string, v any) error {
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path) // runnel writes no links here
	}
	data, err := regfile.ReadFile(path, maxMemoryFile)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
