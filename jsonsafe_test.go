package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"runnel/stream/streamtest"
	"runnel/ui/output"
)

// jsonHostile holds DEL, C1 controls (raw and as the 8-bit CSI and OSC),
// bidi overrides and isolates, zero-width characters, the joiners in and out
// of a word that needs them, a BOM, a soft hyphen, the line separators and
// tag characters above U+FFFF.
const jsonHostile = "a\x7fb\u0080c\u0085d\u009b31m\u009d0;t\u009c e\u202ef\u2066g\u2069\u200bh\u200c\u200d\u200e\u200f" +
	"\u061c\ufeff\u00ad\u2028\u2029\u2060 می\u200cخواهم 👨\u200d👩 \U000E0041\U000E007F end"

// checkJSONSafe fails if out holds a raw DEL, C1 control or format character.
func checkJSONSafe(t *testing.T, out []byte) {
	t.Helper()
	if !utf8.Valid(out) {
		t.Fatal("output is not valid UTF-8")
	}
	for i, r := range string(out) {
		if r == 0x7F || (r >= 0x80 && r <= 0x9F) || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r) {
			t.Fatalf("raw %U at byte %d of the JSON output: %.80q", r, i, out[max(0, i-30):])
		}
	}
}

func TestJSONSafeWriter(t *testing.T) {
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]string{"text": jsonHostile}); err != nil {
		t.Fatal(err)
	}
	var safe bytes.Buffer
	n, err := output.JSONSafe(&safe).Write(raw.Bytes())
	if err != nil || n != raw.Len() {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, raw.Len())
	}
	checkJSONSafe(t, safe.Bytes())
	var back map[string]string
	if err := json.Unmarshal(safe.Bytes(), &back); err != nil || back["text"] != jsonHostile {
		t.Fatalf("the escaped JSON reads back as %+q, %v", back["text"], err)
	}
	for _, want := range []string{`a\u007fb\u0080c`, `e\u202ef`, `\u200bh\u200c\u200d`, `\udb40\udc41\udb40\udc7f`, `می\u200cخواهم`} {
		if !strings.Contains(safe.String(), want) {
			t.Errorf("escaped JSON lacks %s: %s", want, safe.String())
		}
	}
	// Clean text, ASCII or not, goes through as it is.
	clean := []byte(`{"text":"héllo — 世界 🎉 שלום"}` + "\n")
	var out bytes.Buffer
	output.JSONSafe(&out).Write(clean)
	if !bytes.Equal(out.Bytes(), clean) {
		t.Errorf("clean JSON changed: %s", out.Bytes())
	}
}

// TestReplayJSONEscapesControls: `replay --format json` and `--format
// events` of a stream holding DEL, C1 and format characters write none of
// them raw, and the JSON still holds the model's exact text.
func TestReplayJSONEscapesControls(t *testing.T) {
	f := filepath.Join(t.TempDir(), "hostile.sse")
	if err := os.WriteFile(f, streamtest.Text("resp_1", jsonHostile[:strings.Index(jsonHostile, " e")], jsonHostile[strings.Index(jsonHostile, " e"):]), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runnel(t, "", "replay", f, "--format", "json")
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, stderr)
	}
	checkJSONSafe(t, []byte(out))
	if !strings.Contains(out, `\u007f`) || !strings.Contains(out, `\u202e`) {
		t.Errorf("json: escapes missing: %.300s", out)
	}
	var snap struct {
		Output []struct {
			Content []struct{ Text string }
		}
	}
	if err := json.Unmarshal([]byte(out), &snap); err != nil || len(snap.Output) != 1 || snap.Output[0].Content[0].Text != jsonHostile {
		t.Errorf("json: text reads back as %+v, %v", snap, err)
	}

	out, stderr, code = runnel(t, "", "replay", f, "--format", "events")
	if code != 0 {
		t.Fatalf("events: exit %d: %s", code, stderr)
	}
	checkJSONSafe(t, []byte(out))
	var deltas strings.Builder
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var ev struct{ Type, Delta string }
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("events: line %q: %v", sc.Text(), err)
		}
		if ev.Type == "response.output_text.delta" {
			deltas.WriteString(ev.Delta)
		}
	}
	if deltas.String() != jsonHostile {
		t.Errorf("events: deltas read back as %+q", deltas.String())
	}
}
