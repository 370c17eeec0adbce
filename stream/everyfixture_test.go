package stream

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
)

// fixtureSets are the folders of recorded streams under fixtures/, each with
// an expected/ folder of the items a client should end with.
var fixtureSets = []string{"real", "real2", "real3", "servers", "live"}

// TestEveryFixture replays every stream under fixtures (real, real2, real3
// and servers) that has an expected summary and checks the invariant the
// Snapshot promises: one item per item the server produced, in order, each
// text once. Where the summary came from the server's own terminal object
// (ref "snapshot"), a reasoning item's content texts and a call's other
// fields (its call_id above all: vLLM answers to the snapshot's) are checked
// too.
func TestEveryFixture(t *testing.T) {
	t.Parallel() // a sweep of every recorded stream; it shares nothing
	dir := sharedtest.Dir(t)
	checked := map[string]int{}
	for _, set := range fixtureSets {
		files, _ := filepath.Glob(filepath.Join(dir, "fixtures", set, "*", "*.sse"))
		for _, path := range files {
			rel, _ := filepath.Rel(filepath.Join(dir, "fixtures", set), path)
			exp := readExpected(t, filepath.Join(dir, "fixtures", set, "expected", strings.TrimSuffix(rel, ".sse")+".jsonl"))
			if exp == nil {
				continue
			}
			checked[set]++
			t.Run(set+"/"+rel, func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				acc, _ := replay(t, data)
				CompareExpected(t, acc.Responses(), exp)
				compareExtra(t, acc.Responses(), exp)
			})
		}
	}
	// real holds 39 streams, 5 of which the SDK rejects (special_test.go)
	want := map[string]int{"real": 34, "real2": 58, "real3": 73, "servers": 18, "live": 22}
	for set, n := range want {
		if checked[set] != n {
			t.Errorf("fixtures/%s: compared %d streams, want %d", set, checked[set], n)
		}
	}
}

// compareExtra checks what the servers' summaries add: reasoning content
// texts, and a call's fields other than id and status (null meaning absent).
func compareExtra(t *testing.T, got []*Snapshot, exp []expectedResponse) {
	t.Helper()
	for ri, e := range exp {
		if ri >= len(got) {
			return
		}
		for i, ei := range e.Output {
			if i >= len(got[ri].Items) {
				return
			}
			it := got[ri].Items[i]
			if ei.Content != nil {
				var texts []string
				for _, p := range it.Content {
					texts = append(texts, p.Text)
				}
				if strings.Join(texts, "\x00") != strings.Join(*ei.Content, "\x00") || len(texts) != len(*ei.Content) {
					t.Errorf("response %d item %d %s: content %q, want %q", ri, i, it.Type, texts, *ei.Content)
				}
			}
			if ei.Item != nil {
				var have map[string]json.RawMessage
				if err := json.Unmarshal(it.JSON(), &have); err != nil {
					t.Errorf("response %d item %d: JSON: %v", ri, i, err)
					continue
				}
				for k, v := range ei.Item {
					h, ok := have[k]
					if isJSONNull(v) {
						if ok && !isJSONNull(h) {
							t.Errorf("response %d item %d %s: %s = %s, want none", ri, i, it.Type, k, h)
						}
						continue
					}
					if !ok || !jsonEqual(h, v) {
						t.Errorf("response %d item %d %s: %s = %s, want %s", ri, i, it.Type, k, h, v)
					}
				}
			}
		}
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
