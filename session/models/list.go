package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"runnel/session/regfile"
	"runnel/stream"
)

// TTL is how long a fetched model list is used before it is asked for
// again: a day (TTLText says so in messages). `runnel models --refresh` and the picker's ctrl+r ask at once.
const TTL = 24 * time.Hour

// TTLText is TTL for messages.
const TTLText = "24h"

// List is a provider's models as GET {base}/models gave them.
type List struct {
	Provider string              `json:"provider,omitempty"` // the provider's name; "" when not named
	BaseURL  string              `json:"base_url"`
	Fetched  time.Time           `json:"fetched"`
	Models   []stream.ModelEntry `json:"models"` // sorted by id
	Cached   bool                `json:"-"`      // read from the cache, not the network
}

// IDs are the models' ids, sorted.
func (l List) IDs() []string {
	out := make([]string, len(l.Models))
	for i, m := range l.Models {
		out[i] = m.ID
	}
	return out
}

// Lister fetches a provider's model list and caches it on disk, one file
// per provider and base URL: DIR/models/<first 16 hex of sha256(provider
// NUL base URL)>.json, so two providers on one server (one local port, two
// keys) keep their own lists. The file holds the ids only (no key, no
// headers). A cache that cannot be read or written is skipped silently:
// the list is then fetched each time.
type Lister struct {
	Client   *stream.Client   // nil: there is no provider to ask (the demo)
	Provider string           // the provider's name ("" : none, as before providers were named)
	CacheDir string           // "" : no cache
	Now      func() time.Time // nil: time.Now
}

// ErrNoProvider is the demo's answer: it has no model list.
var ErrNoProvider = errors.New("the demo has no model list")

// List returns the provider's models, from the cache while it is younger
// than TTL unless refresh is set.
func (l Lister) List(ctx context.Context, refresh bool) (List, error) {
	if l.Client == nil {
		return List{}, ErrNoProvider
	}
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	base := l.Client.BaseURL
	if base == "" {
		base = stream.DefaultBaseURL()
	}
	path := l.cachePath(base)
	if !refresh && path != "" {
		if c, err := readCache(path); err == nil && c.BaseURL == base && c.Provider == l.Provider && now().Sub(c.Fetched) < TTL && now().Sub(c.Fetched) >= 0 {
			c.Cached = true
			return c, nil
		}
	}
	entries, err := l.Client.Models(ctx)
	if err != nil {
		return List{}, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].ID < entries[j].ID })
	out := List{Provider: l.Provider, BaseURL: base, Fetched: now().UTC(), Models: entries}
	if path != "" {
		writeCache(path, out)
	}
	return out, nil
}

func (l Lister) cachePath(base string) string {
	if l.CacheDir == "" {
		return ""
	}
	key := base
	if l.Provider != "" {
		key = l.Provider + "\x00" + base
	}
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(l.CacheDir, "models", hex.EncodeToString(sum[:8])+".json")
}

// maxCacheFile bounds what is read back.
const maxCacheFile = 8 << 20

// readCache reads a cache file: a regular file only, bounded, so a FIFO or
// a link to /dev/zero put in its place is skipped at once (regfile).
func readCache(path string) (List, error) {
	data, err := regfile.ReadFile(path, maxCacheFile)
	if err != nil {
		return List{}, err
	}
	var c List
	if err := json.Unmarshal(data, &c); err != nil {
		return List{}, err
	}
	for i := range c.Models { // the file is not trusted more than the server
		c.Models[i].ID = stream.SanitizeLine(c.Models[i].ID)
		c.Models[i].OwnedBy = stream.SanitizeLine(c.Models[i].OwnedBy)
	}
	return c, nil
}

// writeCache writes the list through a temporary file and a rename, so a
// reader never sees half a file.
func writeCache(path string, l List) {
	data, err := json.Marshal(l)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".models-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// Why is the one line that says why there is no list, for the picker, the
// completion and `runnel models`: what failed, then that a name can still
// be typed and which model is configured.
func Why(err error, configured string) string {
	var cause string
	var api *stream.APIError
	switch {
	case errors.Is(err, ErrNoProvider):
		cause = err.Error()
	case errors.As(err, &api):
		cause = "GET /models answered " + strconv.Itoa(api.Status)
		if t := http.StatusText(api.Status); t != "" {
			cause += " " + t
		}
		if said := api.Message; said != "" {
			cause += ": " + stream.SanitizeLine(said)
		} else if api.BodySummary != "" {
			cause += ": " + stream.SanitizeLine(api.BodySummary)
		}
	default:
		cause = stream.SanitizeLine(err.Error())
	}
	return fmt.Sprintf("no model list (%s) — type a model name; configured: %s", cause, stream.SanitizeLine(configured))
}

// Cached returns the ids of every model cached in dir for the provider
// named provider ("" : the one before providers were named), whatever
// their age and base URL, sorted and each once, without asking any
// server: what shell completion offers. A file that cannot be read is
// skipped.
func Cached(dir, provider string) []string {
	if dir == "" {
		return nil
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "models", "*.json"))
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		c, err := readCache(p)
		if err != nil || c.Provider != provider {
			continue
		}
		for _, id := range c.IDs() {
			if id != "" && !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	sort.Strings(out)
	return out
}
