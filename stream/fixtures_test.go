package stream

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
)

// fixtures lists the real recorded streams.
func fixtures(t testing.TB) []string {
	files := sharedtest.RealFiles(t)
	if len(files) != 39 {
		t.Fatalf("found %d real fixtures, want 39", len(files))
	}
	return files
}

// replay decodes and accumulates a whole stream, returning the accumulator and
// every problem reported.
func replay(t testing.TB, data []byte) (*Accumulator, []error) {
	t.Helper()
	var acc Accumulator
	var probs []error
	d := NewDecoder(strings.NewReader(string(data)))
	for d.Next() {
		if _, err := acc.Apply(d.Event()); err != nil {
			probs = append(probs, err)
		}
	}
	if err := d.Err(); err != nil {
		probs = append(probs, err)
	}
	acc.Finish()
	return &acc, probs
}

type expectedItem struct {
	Type      string    `json:"type"`
	Status    *string   `json:"status"`
	Text      *string   `json:"text"`
	Name      *string   `json:"name"`
	Arguments *string   `json:"arguments"`
	Summary   *[]string `json:"summary"`
	// In the servers' summaries taken from a terminal object (ref
	// "snapshot"): a reasoning item's content texts, and a call's fields
	// other than id and status.
	Content *[]string                  `json:"content"`
	Item    map[string]json.RawMessage `json:"item"`
}

type expectedResponse struct {
	Status string         `json:"status"`
	Output []expectedItem `json:"output"`
	// Ref says where a servers/ summary came from (oracle, snapshot,
	// streamed items); those summaries carry no usage to check.
	Ref   string `json:"ref"`
	Usage *struct {
		InputTokens  *int64 `json:"input_tokens"`
		OutputTokens *int64 `json:"output_tokens"`
	} `json:"usage"`
}

func readExpected(t *testing.T, path string) []expectedResponse {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []expectedResponse
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e expectedResponse
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, e)
	}
	return out
}

// TestRealFixturesMatchSDK replays every real fixture the openai-node SDK
// accepts and compares text, calls, reasoning summaries, statuses and usage.
func TestRealFixturesMatchSDK(t *testing.T) {
	checked := 0
	for _, path := range fixtures(t) {
		rel, _ := filepath.Rel(sharedtest.RealDir(t), path)
		exp := readExpected(t, filepath.Join(filepath.Dir(path), "..", "expected", strings.TrimSuffix(rel, ".sse")+".jsonl"))
		if exp == nil {
			continue
		}
		checked++
		t.Run(rel, func(t *testing.T) {
			data, _ := os.ReadFile(path)
			acc, probs := replay(t, data)
			if len(probs) > 0 {
				t.Errorf("problems: %v", probs)
			}
			CompareExpected(t, acc.Responses(), exp)
		})
	}
	if checked != 34 {
		t.Errorf("compared %d fixtures with expected results, want 34", checked)
	}
}

// CompareExpected checks snapshots against the SDK's summaries.
func CompareExpected(t *testing.T, got []*Snapshot, exp []expectedResponse) {
	t.Helper()
	if len(got) != len(exp) {
		t.Fatalf("got %d responses, want %d", len(got), len(exp))
	}
	for ri, e := range exp {
		s := got[ri]
		if s.Status != e.Status {
			t.Errorf("response %d: status %q, want %q", ri, s.Status, e.Status)
		}
		if len(s.Items) != len(e.Output) {
			t.Fatalf("response %d: %d items, want %d", ri, len(s.Items), len(e.Output))
		}
		for i, ei := range e.Output {
			it := s.Items[i]
			where := func(f string) string {
				return strings.Join([]string{"response", itoa(ri), "item", itoa(i), it.Type, f}, " ")
			}
			if it.Type != ei.Type {
				t.Errorf("%s: want type %q", where("type"), ei.Type)
			}
			if ei.Status != nil && it.Status != *ei.Status {
				t.Errorf("%s: %q, want %q", where("status"), it.Status, *ei.Status)
			}
			if ei.Text != nil && it.Text() != *ei.Text {
				t.Errorf("%s:\n got %q\nwant %q", where("text"), it.Text(), *ei.Text)
			}
			if ei.Name != nil && it.Name != *ei.Name {
				t.Errorf("%s: %q, want %q", where("name"), it.Name, *ei.Name)
			}
			if ei.Arguments != nil && it.Arguments != *ei.Arguments {
				t.Errorf("%s: %q, want %q", where("arguments"), it.Arguments, *ei.Arguments)
			}
			if ei.Summary != nil {
				got := it.SummaryText()
				if strings.Join(got, "\x00") != strings.Join(*ei.Summary, "\x00") || len(got) != len(*ei.Summary) {
					t.Errorf("%s: %q, want %q", where("summary"), got, *ei.Summary)
				}
			}
		}
		if e.Usage == nil {
			if s.Usage != nil && e.Ref == "" {
				t.Errorf("response %d: usage %+v, want none", ri, s.Usage)
			}
		} else if s.Usage == nil || (e.Usage.InputTokens != nil && s.Usage.InputTokens != *e.Usage.InputTokens) ||
			(e.Usage.OutputTokens != nil && s.Usage.OutputTokens != *e.Usage.OutputTokens) {
			t.Errorf("response %d: usage %+v, want %+v", ri, s.Usage, e.Usage)
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// eachRealItem calls f with every item of every recorded stream
// (sharedtest.AllRealFiles) and the stream's path.
func eachRealItem(t *testing.T, f func(path string, it *Item)) {
	t.Helper()
	for _, path := range sharedtest.AllRealFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		acc, _ := replay(t, data)
		for _, s := range acc.Responses() {
			for _, it := range s.Items {
				f(path, it)
			}
		}
	}
}
