package markdown

import (
	"testing"
)

// TestOwnPipelineMatchesGlamour checks that the pipeline that skips the
// sanitizer for the Renderer's own comment gives glamour's bytes exactly:
// whole renders and streamed views, for every test style and document.
func TestOwnPipelineMatchesGlamour(t *testing.T) {
	docs := testDocs(t)
	for sname, style := range testStyles() {
		own, err := newRenderer(style, 72, true)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := newRenderer(style, 72, false)
		if err != nil {
			t.Fatal(err)
		}
		if !own.own || theirs.own {
			t.Fatalf("%s: own pipeline in use: %v and %v, want true and false", sname, own.own, theirs.own)
		}
		for dname, doc := range docs {
			a, errA := own.Render(doc)
			b, errB := theirs.Render(doc)
			if errA != nil || errB != nil || a != b {
				t.Fatalf("%s/%s: whole renders differ (errors %v, %v)", sname, dname, errA, errB)
			}
			step := 1
			if dname != "edge.md" {
				step = 5 // keep the run short
			}
			so, st := NewStream(own), NewStream(theirs)
			for i, d := range chunks(doc) {
				so.Append(d)
				st.Append(d)
				if i%step != 0 {
					continue
				}
				if got, want := so.View(), st.View(); got != want {
					t.Fatalf("%s/%s: after delta %d views differ:\n%s", sname, dname, i, diffVisible(got, want))
				}
			}
			if got, want := so.View(), st.View(); got != want {
				t.Fatalf("%s/%s: final views differ", sname, dname)
			}
		}
	}
}
