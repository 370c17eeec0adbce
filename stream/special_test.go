package stream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
)

// doneValues collects, from the raw stream, the last text of every
// output_text.done per output_index: the oracle for streams the SDK rejects.
func streamOracle(t *testing.T, data []byte) (texts map[int]string, deltas map[int]string) {
	texts, deltas = map[int]string{}, map[int]string{}
	d := NewDecoder(strings.NewReader(string(data)))
	for d.Next() {
		ev := d.Event()
		switch ev.Kind {
		case KindTextDone, KindCustomInputDone, KindPatchDiffDone:
			texts[ev.OutputIndex] = ev.Text
		case KindTextDelta, KindCustomInputDelta, KindPatchDiffDelta:
			deltas[ev.OutputIndex] += ev.Delta
		}
	}
	return texts, deltas
}

// TestRealFixturesTheSDKRejects decides the right result for the five streams
// the official SDK throws on, from the streams themselves.
func TestRealFixturesTheSDKRejects(t *testing.T) {
	dir := sharedtest.RealDir(t)
	load := func(name string) ([]byte, *Accumulator) {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		acc, probs := replay(t, data)
		if len(probs) > 0 {
			t.Errorf("%s: problems: %v", name, probs)
		}
		if n := len(acc.Responses()); n != 1 {
			t.Fatalf("%s: %d responses, want 1", name, n)
		}
		if s := acc.Current(); s.Status != "completed" || !s.Terminal || s.CutOff {
			t.Errorf("%s: status %q terminal %v cut off %v", name, s.Status, s.Terminal, s.CutOff)
		}
		return data, acc
	}
	types := func(s *Snapshot) string {
		var ts []string
		for _, it := range s.Items {
			ts = append(ts, it.Type)
		}
		return strings.Join(ts, ",")
	}

	t.Run("resume starting at response.queued", func(t *testing.T) {
		data, acc := load("pydantic__pydantic-ai/openai-background-resume-starting-after.sse")
		texts, deltas := streamOracle(t, data)
		s := acc.Current()
		if types(s) != "message" || s.Items[0].Text() != texts[0] || texts[0] == "" || deltas[0] != texts[0] {
			t.Errorf("items %s text %q, want one message %q", types(s), s.Items[0].Text(), texts[0])
		}
		if s.ID == "" || s.Usage == nil {
			t.Errorf("id %q usage %v", s.ID, s.Usage)
		}
	})
	t.Run("copilot rotates item ids", func(t *testing.T) {
		data, acc := load("vercel__ai/github-copilot-id-rotation.sse")
		texts, deltas := streamOracle(t, data)
		s := acc.Current()
		if types(s) != "reasoning,message" {
			t.Fatalf("items %s, want reasoning,message", types(s))
		}
		if got := s.Items[1].Text(); got != texts[1] || got != deltas[1] || len(got) < 100 {
			t.Errorf("message %q, want %q", got, texts[1])
		}
		if sum := s.Items[0].SummaryText(); len(sum) != 1 || sum[0] != "**Counting character occurrences**" {
			t.Errorf("summary %q", sum)
		}
	})
	t.Run("apply_patch diff events", func(t *testing.T) {
		data, acc := load("vercel__ai/openai-apply-patch-diff.sse")
		texts, deltas := streamOracle(t, data)
		it := acc.Current().Items[0]
		if it.Type != "apply_patch_call" || it.Diff != texts[0] || it.Diff != deltas[0] || !strings.Contains(it.Diff, "Shopping Checklist") {
			t.Errorf("item %s diff %q, want %q", it.Type, it.Diff, texts[0])
		}
		if it.Status != "completed" {
			t.Errorf("status %q", it.Status)
		}
	})
	t.Run("custom tool at output_index 1 without output_index 0", func(t *testing.T) {
		data, acc := load("vercel__ai/openai-custom-tool-input.sse")
		_, deltas := streamOracle(t, data)
		s := acc.Current()
		if types(s) != "custom_tool_call" {
			t.Fatalf("items %s", types(s))
		}
		it := s.Items[0]
		if it.Input != deltas[1] || it.Name != "setHtml" || !strings.HasPrefix(it.Input, "<main>") || !strings.HasSuffix(it.Input, "</main>") {
			t.Errorf("input %q name %q", it.Input, it.Name)
		}
	})
	t.Run("commentary then final answer with a gap in output_index", func(t *testing.T) {
		data, acc := load("vercel__ai/openai-phase-commentary-final.sse")
		texts, _ := streamOracle(t, data)
		s := acc.Current()
		if types(s) != "message,message" {
			t.Fatalf("items %s", types(s))
		}
		if s.Items[0].Phase != "commentary" || s.Items[1].Phase != "final_answer" {
			t.Errorf("phases %q %q", s.Items[0].Phase, s.Items[1].Phase)
		}
		if s.Items[0].Text() != texts[0] || s.Items[1].Text() != texts[2] {
			t.Errorf("texts %q / %q", s.Items[0].Text(), s.Items[1].Text())
		}
	})
}

// TestRealFixturesStreamedEqualsDone checks, on every fixture, that what the
// deltas built equals each .done value, and that items keep raw JSON.
func TestRealFixturesStreamedEqualsDone(t *testing.T) {
	for _, path := range fixtures(t) {
		data, _ := os.ReadFile(path)
		acc, _ := replay(t, data)
		for _, s := range acc.Responses() {
			for _, it := range s.Items {
				if len(it.Raw) == 0 {
					t.Errorf("%s: item %d (%s) has no raw JSON", filepath.Base(path), it.Index, it.Type)
				}
				if !it.Done {
					t.Errorf("%s: item %d (%s) not done", filepath.Base(path), it.Index, it.Type)
				}
			}
		}
	}
}
