package session

// This file is what runnel remembers of a provider's server: whether it
// keeps conversation state, which optional parameters (optional.go) it
// refuses, and what `runnel providers check` last found. One small file
// per provider beside the model lists, so that a later run, a new chat or
// another front end does not pay a refused request first. Every entry is
// forgotten after StatelessTTL (a server may be upgraded), or at once with
// `runnel providers forget`.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"runnel/session/regfile"
)

// ProviderRecord is what is known of one provider's server.
//
// Invariants: Refused holds only names of the optional table, each once;
// a zero time means "not known".
type ProviderRecord struct {
	Key string `json:"key"` // ProviderKey: the base URL, without credentials
	// Stateless is when the server was found to keep no state, Why how
	// (WhyIgnored…).
	Stateless time.Time `json:"stateless,omitzero"`
	Why       string    `json:"why,omitempty"`
	// Refused are the optional parameters it refused, and when.
	Refused map[string]time.Time `json:"refused,omitempty"`
	// Checked is when `runnel providers check` last ran, Check what it
	// found (one line).
	Checked time.Time `json:"checked,omitzero"`
	Check   string    `json:"check,omitempty"`
}

// Keeps reports whether the record says the server keeps no state.
func (r ProviderRecord) KeepsNoState() bool { return !r.Stateless.IsZero() }

// RefusedNames are the optional parameters refused, in the table's order.
func (r ProviderRecord) RefusedNames() []string {
	var out []string
	for _, o := range optionals {
		if _, ok := r.Refused[o.name]; ok {
			out = append(out, o.name)
		}
	}
	return out
}

// Empty reports whether nothing is known.
func (r ProviderRecord) Empty() bool {
	return r.Stateless.IsZero() && len(r.Refused) == 0 && r.Checked.IsZero()
}

// Summary is the record as one line, for /status and `runnel providers`:
// "keeps no state (learned 29 Nov); refuses include"; "" when nothing is
// known.
func (r ProviderRecord) Summary() string {
	var parts []string
	if !r.Stateless.IsZero() {
		parts = append(parts, "keeps no state (learned "+r.Stateless.Local().Format("2 Jan")+")")
	}
	if names := r.RefusedNames(); len(names) > 0 {
		parts = append(parts, "refuses "+strings.Join(names, ", "))
	}
	return strings.Join(parts, "; ")
}

// MarkStateless records that the server keeps no state, as of now.
func (r *ProviderRecord) MarkStateless(why string, now time.Time) {
	if r.Stateless.IsZero() {
		r.Stateless, r.Why = now.UTC(), why
	}
}

// MarkRefused records that the server refused the optional parameter
// name, as of now.
func (r *ProviderRecord) MarkRefused(name string, now time.Time) {
	o := optionalNamed(name)
	if o == nil {
		return
	}
	if r.Refused == nil {
		r.Refused = map[string]time.Time{}
	}
	if _, ok := r.Refused[o.name]; !ok {
		r.Refused[o.name] = now.UTC()
	}
}

// ProviderMemory keeps the records: DIR/providers/<first 16 hex of
// sha256(key)>.json. It reads the files of older runnels too
// (DIR/stateless/… and DIR/knobs/…, the same names) until a record is
// written. Files that cannot be read, are not regular, are too big or do
// not parse are ignored: the server is then tried afresh.
type ProviderMemory struct {
	Dir string // "": remember nothing
}

// maxMemoryFile bounds what is read of one memory file.
const maxMemoryFile = 16 << 10

func (m ProviderMemory) path(sub, key string) string {
	if m.Dir == "" || key == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(m.Dir, sub, hex.EncodeToString(sum[:8])+".json")
}

// Load returns key's record as of now: entries older than StatelessTTL
// (or from the future) are left out.
func (m ProviderMemory) Load(key string, now time.Time) ProviderRecord {
	r := ProviderRecord{Key: key}
	path := m.path("providers", key)
	if path == "" {
		return r
	}
	var f ProviderRecord
	if err := readJSONFile(path, &f); err == nil && f.Key == key {
		r = f
	} else if errors.Is(err, fs.ErrNotExist) {
		r = m.legacy(key)
	}
	fresh := func(t time.Time) bool { age := now.Sub(t); return age >= 0 && age < StatelessTTL }
	if !fresh(r.Stateless) {
		r.Stateless, r.Why = time.Time{}, ""
	}
	for name, since := range r.Refused {
		if o := optionalNamed(name); o == nil || !fresh(since) || o.name != name {
			delete(r.Refused, name)
			if o != nil && fresh(since) {
				r.MarkRefused(o.name, since) // an older name (verbosity)
			}
		}
	}
	return r
}

// legacy reads the two files of older runnels.
func (m ProviderMemory) legacy(key string) ProviderRecord {
	r := ProviderRecord{Key: key}
	var st struct {
		Key    string    `json:"key"`
		Since  time.Time `json:"since"`
		Reason string    `json:"reason"`
	}
	if readJSONFile(m.path("stateless", key), &st) == nil && st.Key == key {
		r.Stateless, r.Why = st.Since, st.Reason
	}
	var kn struct {
		Key     string    `json:"key"`
		Since   time.Time `json:"since"`
		Refused []string  `json:"refused"`
	}
	if readJSONFile(m.path("knobs", key), &kn) == nil && kn.Key == key {
		for _, n := range kn.Refused {
			r.MarkRefused(n, kn.Since)
		}
	}
	return r
}

// Save writes r (its Key names the file), through a temporary file and a
// rename (a reader never sees half a file).
func (m ProviderMemory) Save(r ProviderRecord) error {
	path := m.path("providers", r.Key)
	if path == "" {
		return nil
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return writeMemoryFile(path, data)
}

// maxRecords bounds how many records All reads.
const maxRecords = 256

// All returns every record with something fresh in it as of now (for
// `runnel providers`: servers used with --base-url that no provider
// names), at most maxRecords, in no particular order.
func (m ProviderMemory) All(now time.Time) []ProviderRecord {
	if m.Dir == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(m.Dir, "providers", "*.json"))
	var out []ProviderRecord
	for _, f := range files[:min(len(files), maxRecords)] {
		var r ProviderRecord
		if readJSONFile(f, &r) != nil || r.Key == "" || m.path("providers", r.Key) != f {
			continue
		}
		if r = m.Load(r.Key, now); !r.Empty() {
			out = append(out, r)
		}
	}
	return out
}

// Forget removes everything remembered of key (the older files too).
func (m ProviderMemory) Forget(key string) error {
	var errs []error
	for _, sub := range []string{"providers", "stateless", "knobs"} {
		if p := m.path(sub, key); p != "" {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// Recall makes conv send what key's record allows: the history from the
// start when the server keeps no state, and none of what it refused.
func (r ProviderRecord) Recall(conv *Conversation) {
	if r.KeepsNoState() {
		conv.Stateless = true
	}
	conv.Refuse(r.RefusedNames()...)
}

// sameRecall reports whether conv already sends what r allows.
func (r ProviderRecord) sameRecall(conv *Conversation) bool {
	if r.KeepsNoState() && !conv.Stateless {
		return false
	}
	return !slices.ContainsFunc(r.RefusedNames(), func(n string) bool { return !conv.Refused(n) })
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

// readJSONFile reads one memory file into v: a regular file of at most
// maxMemoryFile bytes holding JSON (regfile: a FIFO or a device in its
// place is refused at once).
func readJSONFile(path string, v any) error {
	st, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path) // runnel writes no links here
	}
	data, err := regfile.ReadFile(path, maxMemoryFile)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
