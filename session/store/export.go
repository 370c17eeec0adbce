package store

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"runnel/stream"
)

// exportVersion is the "runnel_export" value Export writes and the newest
// Import reads.
const exportVersion = 1

// Import's bounds: past any of them the document is refused with one line
// naming the limit, before anything is written.
const (
	MaxImportField = 16 << 20 // one text field: a prompt, a title, an error
	MaxImportItem  = 64 << 20 // one input or output item (attachments travel as data URLs)
	MaxImportTurns = 10_000
)

// MaxImportBytes is the most one import holds in all: the table of
// bounds' import_bytes.
func MaxImportBytes() int { return stream.Limits().ImportBytes }

// ExportFile is a session as a versioned JSON document:
//
//	{"runnel_export": 1,
//	 "session": {"id", "title", "created", "updated", "settings": {…}},
//	 "turns": [{"seq", "prompt", "input": [items…], "previous_response_id",
//	            "response_ids": […], "status", "usage", "error", "started", "ended",
//	            "items": [{"response": 0, "output": 0, "done": true, "item": {…}}],
//	            "runs": {…}}]}
//
// "runs" (how runnel's own tool runs ended, Turn.Runs) is there only when
// the turn recorded some; a document without it imports as before. So are
// the branches (branch.go): a turn's "parent" (the seq of the turn it
// follows) only when that is not the turn before it, and the session's
// "tip" (the seq of the turn it continues from) only when that is not the
// last turn; a session that never branched exports as before.
// Input and output items appear byte for byte as stored; times are RFC 3339.
type ExportFile struct {
	Name     string  // a file name to suggest: runnel-<id>.json
	Data     []byte  // the document
	Warnings []error // rows that could not be read, and so are not in Data
}

// Export returns a session as an ExportFile.
func (db *DB) Export(id SessionID) (ExportFile, error) {
	s, warn, err := db.Load(id)
	if err != nil {
		return ExportFile{}, err
	}
	return ExportFile{Name: "runnel-" + string(s.Info.ID) + ".json", Data: encodeExport(s), Warnings: warn}, nil
}

// Import stores the session in an export document and returns its id: the
// exported id when it is free in this database, a new one otherwise (so
// importing the same file twice gives two sessions). Turns, items and
// timestamps are kept (an export of the import is the same document); the
// time of the import is kept beside them, and List sorts by it when it is
// later, so what was just imported lists first with its own dates. A turn
// exported while streaming comes back interrupted. A document of the wrong shape is refused with the JSON path of
// the first problem, and nothing is written.
func (db *DB) Import(data []byte) (SessionID, error) {
	doc, err := decodeExport(data)
	if err != nil {
		return "", db.fail("import", &Error{Kind: ErrBadInput, Detail: err.Error()})
	}
	doc.imported = db.now() // it sorts where the user will look for it
	return db.insertDoc(doc)
}

// Copy makes a new session from the first keep turns of session from, titled
// title (the fork of a conversation). The original is not touched.
func (db *DB) Copy(from SessionID, keep int, title string) (SessionID, error) {
	f, err := db.Export(from)
	if err != nil {
		return "", err
	}
	doc, err := decodeExport(f.Data)
	if err != nil {
		return "", db.fail("copy", &Error{Kind: ErrBadInput, Detail: err.Error()})
	}
	doc.turns = doc.path()
	doc.turns = doc.turns[:max(0, min(keep, len(doc.turns)))]
	for i := range doc.turns {
		doc.turns[i].parent = -1 // one branch: each follows the one before
	}
	doc.tip = -1
	doc.id, doc.title = "", title
	doc.created, doc.updated = time.Time{}, time.Time{}
	return db.insertDoc(doc)
}

// insertDoc writes a decoded export as a session.
func (db *DB) insertDoc(doc *exportDoc) (SessionID, error) {
	settings, err := redactSettings(doc.settings)
	if err != nil {
		return "", db.fail("import", err)
	}
	now := db.now()
	if doc.created.IsZero() {
		doc.created = now
	}
	if doc.updated.IsZero() {
		doc.updated = doc.created
	}
	if doc.title == "" && len(doc.turns) > 0 {
		doc.title = doc.turns[0].prompt
	}
	var id SessionID
	err = db.write("import", func(tx *sql.Tx) error {
		var err error
		if id, err = freeID(tx, doc.id, doc.created); err != nil {
			return err
		}
		var imported int64
		if !doc.imported.IsZero() {
			imported = ms(doc.imported)
		}
		if _, err := tx.Exec(`INSERT INTO sessions (id, title, created, updated, imported, settings, model, provider) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			string(id), title(doc.title), ms(doc.created), ms(doc.updated), imported, string(settings), modelOf(settings), providerOf(settings)); err != nil {
			return err
		}
		seqs := map[int]int{} // the document's seq → the stored one
		for i, t := range doc.turns {
			seqs[t.seq] = i + 1
			parent, ok := seqs[t.parent]
			if t.parent == 0 {
				parent, ok = 0, true
			}
			if !ok || parent == i { // the turn before it
				parent = -1
			}
			if err := importTurn(tx, id, i+1, parent, t); err != nil {
				return err
			}
		}
		if tip, ok := seqs[doc.tip]; doc.tip == 0 || ok && tip != len(doc.turns) {
			_, err := tx.Exec(`UPDATE sessions SET tip = ? WHERE id = ?`, tip, string(id))
			return err
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return id, nil
}

func importTurn(tx *sql.Tx, sid SessionID, seq, parent int, t exportTurn) error {
	packed, blobs := packInput(t.input)
	input, err := joinObjects("input", packed)
	if err != nil {
		return err
	}
	ids, _ := json.Marshal(t.responseIDs)
	var usage, ended, runs any
	if !isNull(t.usage) {
		usage = []byte(t.usage)
	}
	if !t.ended.IsZero() {
		ended = ms(t.ended)
	}
	if !isNull(t.runs) {
		runs = []byte(t.runs)
	}
	var par any
	if parent >= 0 {
		par = parent
	}
	res, err := tx.Exec(`INSERT INTO turns (session_id, seq, prompt, input, previous_response_id, response_ids,
			status, usage, error, started, ended, owner, runs, parent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?)`,
		string(sid), seq, t.prompt, input, t.previous, string(ids), string(t.status), usage, t.err, ms(t.started), ended, runs, par)
	if err != nil {
		return err
	}
	n, err := res.LastInsertId()
	if err != nil {
		return err
	}
	if err := saveBlobs(tx, TurnID(n), blobs); err != nil {
		return err
	}
	for _, it := range t.items {
		if _, _, err := upsertItem(tx, TurnID(n), it, ms(t.started)); err != nil {
			return err
		}
	}
	return foldTurn(tx, TurnID(n), nil)
}

// freeID returns want when it is a well-formed id not in use, else a new id.
func freeID(tx *sql.Tx, want string, created time.Time) (SessionID, error) {
	taken := func(id string) (bool, error) {
		var one int
		err := tx.QueryRow(`SELECT 1 FROM sessions WHERE id = ?`, id).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return err == nil, err
	}
	if validID(want) {
		t, err := taken(want)
		if err != nil || !t {
			return SessionID(want), err
		}
	}
	for try := 0; try < 32; try++ {
		id := newSessionID(created)
		t, err := taken(string(id))
		if err != nil || !t {
			return id, err
		}
	}
	return "", errors.New("no free session id")
}

// exportDoc is a decoded, shape-checked export document.
type exportDoc struct {
	id, title        string
	created, updated time.Time
	imported         time.Time // when Import stored it (zero: a copy)
	settings         json.RawMessage
	turns            []exportTurn
	tip              int // the seq of the turn the session continues from; -1: the last
}

// path is the turns from the first to the tip (branch.go), in order.
func (d *exportDoc) path() []exportTurn {
	at := map[int]int{}
	for i, t := range d.turns {
		at[t.seq] = i
	}
	tip := d.tip
	if _, ok := at[tip]; !ok {
		if tip == 0 || len(d.turns) == 0 {
			return nil
		}
		tip = d.turns[len(d.turns)-1].seq
	}
	var rev []exportTurn
	seen := map[int]bool{}
	for s := tip; !seen[s]; {
		i, ok := at[s]
		if !ok {
			break
		}
		seen[s] = true
		rev = append(rev, d.turns[i])
		s = d.turns[i].parent
		if s < 0 && i > 0 {
			s = d.turns[i-1].seq
		}
	}
	slices.Reverse(rev)
	return rev
}

type exportTurn struct {
	seq                   int // as exported ("seq"; its place from 1 when absent)
	parent                int // the seq of the turn it follows; -1: the turn before it
	prompt, previous, err string
	input                 []json.RawMessage
	responseIDs           []string
	status                Status
	usage                 json.RawMessage
	started, ended        time.Time
	items                 []ItemWrite
	runs                  json.RawMessage // nil when none
}

func decodeExport(data []byte) (*exportDoc, error) {
	if limit := MaxImportBytes(); len(data) > limit {
		return nil, fmt.Errorf("the document is %.1f MiB; an import holds at most %s ([limits] import_bytes)", float64(len(data))/(1<<20), stream.FormatBytes(limit))
	}
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("not JSON: %v at byte %d", se, se.Offset)
		}
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	top, err := object("(document)", data)
	if err != nil {
		return nil, err
	}
	ver, ok := top["runnel_export"]
	if !ok {
		return nil, errors.New(`runnel_export: missing; this is not a runnel export file`)
	}
	v, err := count("runnel_export", ver)
	if err != nil {
		return nil, err
	}
	if v == 0 || v > exportVersion {
		return nil, fmt.Errorf("runnel_export: version %d is not one this runnel reads (1 to %d)", v, exportVersion)
	}
	sess, err := object("session", top["session"])
	if err != nil {
		return nil, err
	}
	doc := &exportDoc{}
	if doc.id, err = text("session.id", sess["id"]); err != nil {
		return nil, err
	}
	if doc.title, err = text("session.title", sess["title"]); err != nil {
		return nil, err
	}
	if doc.created, err = stamp("session.created", sess["created"]); err != nil {
		return nil, err
	}
	if doc.updated, err = stamp("session.updated", sess["updated"]); err != nil {
		return nil, err
	}
	if s := sess["settings"]; !isNull(s) {
		if _, err := object("session.settings", s); err != nil {
			return nil, err
		}
		doc.settings = s
	}
	if err := bounded("session.title", doc.title, MaxImportField); err != nil {
		return nil, err
	}
	turns, err := array("turns", top["turns"])
	if err != nil {
		return nil, err
	}
	if len(turns) > MaxImportTurns {
		return nil, fmt.Errorf("turns: %d turns; an import holds at most %d", len(turns), MaxImportTurns)
	}
	doc.tip = -1
	if v, ok := sess["tip"]; ok && !isNull(v) {
		if doc.tip, err = count("session.tip", v); err != nil {
			return nil, err
		}
	}
	for i, raw := range turns {
		t, err := decodeTurn(fmt.Sprintf("turns[%d]", i), raw)
		if err != nil {
			return nil, err
		}
		if t.seq < 0 {
			t.seq = i + 1
		}
		doc.turns = append(doc.turns, t)
	}
	return doc, nil
}

func decodeTurn(path string, raw json.RawMessage) (exportTurn, error) {
	var t exportTurn
	m, err := object(path, raw)
	if err != nil {
		return t, err
	}
	at := func(k string) string { return path + "." + k }
	t.seq, t.parent = -1, -1
	if v, ok := m["seq"]; ok && !isNull(v) {
		if t.seq, err = count(at("seq"), v); err != nil {
			return t, err
		}
	}
	if v, ok := m["parent"]; ok && !isNull(v) {
		if t.parent, err = count(at("parent"), v); err != nil {
			return t, err
		}
	}
	if t.prompt, err = text(at("prompt"), m["prompt"]); err != nil {
		return t, err
	}
	if t.previous, err = text(at("previous_response_id"), m["previous_response_id"]); err != nil {
		return t, err
	}
	if t.err, err = text(at("error"), m["error"]); err != nil {
		return t, err
	}
	if t.responseIDs, err = stringList(at("response_ids"), m["response_ids"]); err != nil {
		return t, err
	}
	for k, v := range map[string]string{"prompt": t.prompt, "error": t.err} {
		if err := bounded(at(k), v, MaxImportField); err != nil {
			return t, err
		}
	}
	status, err := text(at("status"), m["status"])
	if err != nil {
		return t, err
	}
	t.status = Status(status)
	switch {
	case t.status == StatusStreaming:
		t.status = StatusInterrupted
	case !t.status.known():
		return t, &shapeError{at("status"), fmt.Sprintf("want completed, incomplete, failed, stopped, interrupted or streaming, got %q", cut(status, 40))}
	}
	if u := m["usage"]; !isNull(u) {
		if _, err := object(at("usage"), u); err != nil {
			return t, err
		}
		t.usage = u
	}
	if r := m["runs"]; !isNull(r) {
		if _, err := object(at("runs"), r); err != nil {
			return t, err
		}
		if err := bounded(at("runs"), string(r), MaxImportField); err != nil {
			return t, err
		}
		t.runs = r
	}
	if t.started, err = stamp(at("started"), m["started"]); err != nil {
		return t, err
	}
	if t.ended, err = stamp(at("ended"), m["ended"]); err != nil {
		return t, err
	}
	input, err := array(at("input"), m["input"])
	if err != nil {
		return t, err
	}
	for j, in := range input {
		p := fmt.Sprintf("%s[%d]", at("input"), j)
		if _, err := object(p, in); err != nil {
			return t, err
		}
		if err := bounded(p, string(in), MaxImportItem); err != nil {
			return t, err
		}
	}
	t.input = input
	items, err := array(at("items"), m["items"])
	if err != nil {
		return t, err
	}
	seen := map[itemKey]bool{}
	for j, raw := range items {
		p := fmt.Sprintf("%s[%d]", at("items"), j)
		it, err := object(p, raw)
		if err != nil {
			return t, err
		}
		var w ItemWrite
		if w.Response, err = count(p+".response", it["response"]); err != nil {
			return t, err
		}
		if w.Output, err = count(p+".output", it["output"]); err != nil {
			return t, err
		}
		if w.Done, err = flag(p+".done", it["done"]); err != nil {
			return t, err
		}
		if _, err := object(p+".item", it["item"]); err != nil {
			return t, err
		}
		w.Raw = it["item"]
		if err := bounded(p+".item", string(w.Raw), MaxImportItem); err != nil {
			return t, err
		}
		k := itemKey{w.Response, w.Output}
		if seen[k] {
			return t, &shapeError{p, fmt.Sprintf("a second item at response %d, output %d", w.Response, w.Output)}
		}
		seen[k] = true
		t.items = append(t.items, w)
	}
	return t, nil
}

// bounded refuses a value longer than limit bytes.
func bounded(path, v string, limit int) error {
	if len(v) > limit {
		return &shapeError{path, fmt.Sprintf("%.1f MiB; an import holds at most %d MiB here", float64(len(v))/(1<<20), limit>>20)}
	}
	return nil
}

// encodeExport writes the document by hand so that stored JSON goes in
// byte for byte (encoding/json would compact and re-escape it).
func encodeExport(s *Session) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"runnel_export\": %d,\n  \"session\": {", exportVersion)
	all := s.All()
	tip := ""
	if len(s.Off) > 0 && (len(s.Turns) == 0 || s.Tip() != all[len(all)-1].Seq) {
		tip = fmt.Sprintf(",\n    \"tip\": %d", s.Tip())
	}
	fmt.Fprintf(&b, "\n    \"id\": %s,\n    \"title\": %s,\n    \"created\": %s,\n    \"updated\": %s,\n    \"settings\": %s%s\n  },\n  \"turns\": [",
		enc(string(s.Info.ID)), enc(s.Info.Title), encTime(s.Info.Created), encTime(s.Info.Updated), orEmpty(s.Settings, "{}"), tip)
	for i, t := range all {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n    {\n      \"seq\": %d,", t.Seq)
		if prev := 0; i == 0 && t.Parent != prev || i > 0 && t.Parent != all[i-1].Seq {
			fmt.Fprintf(&b, "\n      \"parent\": %d,", t.Parent)
		}
		fmt.Fprintf(&b, "\n      \"prompt\": %s,\n      \"input\": [", enc(t.Prompt))
		for j, in := range t.Input {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n        ")
			b.Write(in)
		}
		if len(t.Input) > 0 {
			b.WriteString("\n      ")
		}
		ids := t.ResponseIDs
		if ids == nil {
			ids = []string{}
		}
		fmt.Fprintf(&b, "],\n      \"previous_response_id\": %s,\n      \"response_ids\": %s,\n      \"status\": %s,\n      \"usage\": %s,\n      \"error\": %s,\n      \"started\": %s,\n      \"ended\": %s,\n      \"items\": [",
			enc(t.PreviousResponseID), enc(ids), enc(string(t.Status)), orEmpty(t.Usage, "null"), enc(t.Error), encTime(t.Started), encTime(t.Ended))
		n := 0
		for _, r := range t.Responses {
			for _, it := range r.Items {
				if n > 0 {
					b.WriteByte(',')
				}
				n++
				fmt.Fprintf(&b, "\n        {\"response\": %d, \"output\": %d, \"done\": %t, \"item\": ", r.Index, it.OutputIndex, it.Done)
				b.Write(it.Raw)
				b.WriteByte('}')
			}
		}
		if n > 0 {
			b.WriteString("\n      ")
		}
		b.WriteString("]")
		if len(t.Runs) > 0 {
			b.WriteString(",\n      \"runs\": ")
			b.Write(t.Runs)
		}
		b.WriteString("\n    }")
	}
	if len(all) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Bytes()
}

// enc is json.Marshal without HTML escaping.
func enc(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}

func encTime(t time.Time) []byte {
	if t.IsZero() {
		return []byte(`""`)
	}
	return enc(t.UTC().Format(time.RFC3339Nano))
}

func orEmpty(raw json.RawMessage, empty string) []byte {
	if len(bytes.TrimSpace(raw)) == 0 {
		return []byte(empty)
	}
	return raw
}
