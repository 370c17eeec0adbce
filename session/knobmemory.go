package session

// This file remembers, per provider, the request knobs (knobs.go) its
// server refused, beside the model lists and StatelessMemory, so that a
// later run, or a new chat, does not send them and pay a refused request
// first.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"slices"
	"time"
)

// KnobMemory is one small file per provider: DIR/knobs/<first 16 hex of
// sha256(key)>.json, holding the knobs refused and since when. Entries
// older than StatelessTTL are forgotten (a server may be upgraded).
// Unreadable files are ignored: the knobs are then tried again.
type KnobMemory struct {
	Dir string // "": remember nothing
}

// knobFile is what one file holds (no secrets).
type knobFile struct {
	Key     string    `json:"key"`
	Since   time.Time `json:"since"`
	Refused []string  `json:"refused"`
}

func (m KnobMemory) path(key string) string {
	if m.Dir == "" || key == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(m.Dir, "knobs", hex.EncodeToString(sum[:8])+".json")
}

// Refused returns the knobs key's server refused, as remembered less than
// StatelessTTL before now; only names runnel knows.
func (m KnobMemory) Refused(key string, now time.Time) []string {
	path := m.path(key)
	if path == "" {
		return nil
	}
	var f knobFile
	if readJSONFile(path, &f) != nil || f.Key != key {
		return nil
	}
	if age := now.Sub(f.Since); age < 0 || age >= StatelessTTL {
		return nil
	}
	var out []string
	for _, k := range knobs {
		if slices.Contains(f.Refused, k.name) {
			out = append(out, k.name)
		}
	}
	return out
}

// Remember writes that key's server refuses these knobs, as of now.
func (m KnobMemory) Remember(key string, refused []string, now time.Time) error {
	path := m.path(key)
	if path == "" {
		return nil
	}
	data, err := json.Marshal(knobFile{Key: key, Since: now.UTC(), Refused: refused})
	if err != nil {
		return err
	}
	return writeMemoryFile(path, data)
}

// Refuse marks knobs (KnobServiceTier…) as refused by the server, as a
// KnobMemory remembers them: no request of the conversation sends them.
// Unknown names are ignored.
func (c *Conversation) Refuse(names ...string) {
	for _, k := range knobs {
		if slices.Contains(names, k.name) && !c.Refused(k.name) {
			c.refused = append(c.refused, k.name)
		}
	}
}
