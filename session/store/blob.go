package store

// Attachments are stored once however often they are sent: a turn's input is
// kept with each attachment payload (an image's data URL, a PDF's file_data,
// a text file's input_text) moved to the blobs table under its sha256, and
// the part keeps the hash in a field named "blob:" + the field it came from:
//
//	{"type":"input_image","detail":"auto","blob:image_url":"9f86d0…"}
//
// turn_blobs says which turns use which blob, so that deleting a session
// deletes the blobs no other turn uses. Loading puts the payloads back, so
// Session.Turns[i].Input is what was sent (its parts' keys sorted). Exports
// carry the payloads inline, and importing stores them as blobs again.

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"runnel/session/attach"
)

const blobPrefix = "blob:"

// blobField is which string of a content part holds an attachment payload,
// "" when the part has none.
func blobField(typ string, part map[string]json.RawMessage) string {
	str := func(k string) (string, bool) {
		var s string
		if json.Unmarshal(part[k], &s) != nil {
			return "", false
		}
		return s, true
	}
	switch typ {
	case "input_image":
		if s, ok := str("image_url"); ok && strings.HasPrefix(s, "data:") {
			return "image_url"
		}
	case "input_file":
		if s, ok := str("file_data"); ok && s != "" {
			return "file_data"
		}
	case "input_text":
		if s, ok := str("text"); ok {
			if _, _, isFile := attach.ParseTextPart(s); isFile {
				return "text"
			}
		}
	}
	return ""
}

// userParts decodes a user message's content parts; ok is false for any
// other item (which is kept byte for byte).
func userParts(raw json.RawMessage) (map[string]json.RawMessage, []map[string]json.RawMessage, bool) {
	if !bytes.Contains(raw, []byte(`"input_`)) && !bytes.Contains(raw, []byte(`"blob:`)) {
		return nil, nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil, nil, false
	}
	var role, typ string
	_ = json.Unmarshal(m["role"], &role)
	_ = json.Unmarshal(m["type"], &typ)
	if role != "user" || typ != "" && typ != "message" {
		return nil, nil, false
	}
	var parts []map[string]json.RawMessage
	if json.Unmarshal(m["content"], &parts) != nil {
		return nil, nil, false
	}
	return m, parts, true
}

func partType(p map[string]json.RawMessage) string {
	var t string
	_ = json.Unmarshal(p["type"], &t)
	return t
}

// packInput returns input with every attachment payload replaced by its
// hash, and the payloads by hash. Items without attachments are kept byte
// for byte.
func packInput(input []json.RawMessage) ([]json.RawMessage, map[string][]byte) {
	var blobs map[string][]byte
	out, copied := input, false
	for i, raw := range input {
		m, parts, ok := userParts(raw)
		if !ok {
			continue
		}
		changed := false
		for _, p := range parts {
			f := blobField(partType(p), p)
			if f == "" {
				continue
			}
			var s string
			_ = json.Unmarshal(p[f], &s)
			sum := sha256.Sum256([]byte(s))
			h := hex.EncodeToString(sum[:])
			if blobs == nil {
				blobs = map[string][]byte{}
			}
			blobs[h] = []byte(s)
			delete(p, f)
			p[blobPrefix+f], _ = json.Marshal(h)
			changed = true
		}
		if !changed {
			continue
		}
		m["content"], _ = json.Marshal(parts)
		b, err := json.Marshal(m)
		if err != nil {
			continue
		}
		if !copied {
			out, copied = append([]json.RawMessage(nil), input...), true
		}
		out[i] = b
	}
	return out, blobs
}

// saveBlobs stores the payloads and records that turn tid uses them (after
// forgetting what it used before).
func saveBlobs(tx *sql.Tx, tid TurnID, blobs map[string][]byte) error {
	if _, err := tx.Exec(`DELETE FROM turn_blobs WHERE turn_id = ?`, int64(tid)); err != nil {
		return err
	}
	for h, data := range blobs {
		if _, err := tx.Exec(`INSERT OR IGNORE INTO blobs (sha256, data) VALUES (?, ?)`, h, data); err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT OR IGNORE INTO turn_blobs (turn_id, sha256) VALUES (?, ?)`, int64(tid), h); err != nil {
			return err
		}
	}
	return nil
}

// dropUnusedBlobs deletes the blobs no turn uses any more.
func dropUnusedBlobs(tx *sql.Tx) error {
	_, err := tx.Exec(`DELETE FROM blobs WHERE sha256 NOT IN (SELECT sha256 FROM turn_blobs)`)
	return err
}

// unpackInput puts the payloads back into stored input. A payload missing
// from the store becomes a text part saying so (and a warning), so the rest
// of the turn still loads and can be sent.
func unpackInput(tx *sql.Tx, input []json.RawMessage) ([]json.RawMessage, []error) {
	var warn []error
	for i, raw := range input {
		if !bytes.Contains(raw, []byte(`"blob:`)) {
			continue
		}
		m, parts, ok := userParts(raw)
		if !ok {
			continue
		}
		changed := false
		for j, p := range parts {
			for k, v := range p {
				if !strings.HasPrefix(k, blobPrefix) {
					continue
				}
				var h string
				_ = json.Unmarshal(v, &h)
				var data []byte
				err := tx.QueryRow(`SELECT data FROM blobs WHERE sha256 = ?`, h).Scan(&data)
				if err != nil {
					warn = append(warn, fmt.Errorf("attachment %.12s… is missing from the store; its turn is shown without it", h))
					note, _ := json.Marshal("[an attachment is missing from the store]")
					parts[j] = map[string]json.RawMessage{"type": json.RawMessage(`"input_text"`), "text": note}
					changed = true
					break
				}
				delete(p, k)
				p[strings.TrimPrefix(k, blobPrefix)], _ = json.Marshal(string(data))
				changed = true
			}
		}
		if !changed {
			continue
		}
		m["content"], _ = json.Marshal(parts)
		if b, err := json.Marshal(m); err == nil {
			input[i] = b
		}
	}
	return input, warn
}

// userTexts is the text of every input_text part of the user messages among
// input, in order.
func userTexts(input []json.RawMessage) []string {
	var out []string
	for _, raw := range input {
		_, parts, ok := userParts(raw)
		if !ok {
			continue
		}
		for _, p := range parts {
			if partType(p) != "input_text" {
				continue
			}
			var s string
			_ = json.Unmarshal(p["text"], &s)
			out = append(out, s)
		}
	}
	return out
}

// attachmentText is the text of the text files among input, for the search
// index.
func attachmentText(input []json.RawMessage) string {
	var texts []string
	for _, s := range userTexts(input) {
		if path, text, ok := attach.ParseTextPart(s); ok {
			texts = append(texts, path+"\n"+text)
		}
	}
	return strings.Join(texts, "\n")
}

// attachmentNames names the files of a message of files only, for a title:
// "notes.md, shot.png". It is "" when the message has text of its own.
func attachmentNames(input []json.RawMessage) string {
	files := attach.FromInput(input)
	if len(files) == 0 {
		return ""
	}
	for _, s := range userTexts(input) {
		if _, _, isFile := attach.ParseTextPart(s); !isFile && !strings.HasPrefix(s, "<image path=") && strings.TrimSpace(s) != "" {
			return ""
		}
	}
	names := make([]string, 0, len(files))
	for _, f := range files {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}
