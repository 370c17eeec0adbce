package markdown

import (
	"testing"
)

// TestColouringEqualsView is Colouring's property, on every recorded
// answer and the edge document drafted whole: the blocks coloured off the
// Stream's goroutine and taken back make the View equal a whole render,
// and that View renders no settled block again (Colour has nothing left).
func TestColouringEqualsView(t *testing.T) {
	t.Parallel() // renderers of its own
	docs := colourDocs(t)
	full, quick := quickRenderer(t, 60)
	coloured := 0
	for name, doc := range docs {
		s := NewStream(full)
		for _, d := range chunks(doc) {
			s.Append(d)
			_ = s.Draft(quick)
		}
		c := s.Colour()
		if c == nil {
			continue // no code
		}
		done := make(chan struct{})
		go func() { c.Run(); close(done) }() // off the Stream's goroutine, as the chat does
		<-done
		if !s.SetColoured(c) {
			t.Fatalf("%s: the colours were not taken", name)
		}
		coloured++
		if s.Colour() != nil {
			t.Fatalf("%s: blocks still wait for colour after SetColoured", name)
		}
		want, err := full.Render(s.Source())
		if err != nil {
			t.Fatal(err)
		}
		if diff := diffVisible(s.View(), want); diff != "" {
			t.Fatalf("%s: the view after the colours: %s", name, diff)
		}
	}
	if coloured == 0 {
		t.Fatal("no document had code to colour")
	}
}

// TestColouringOfAnotherStream: colours made before the stream changed
// (more text, another renderer), or not yet made, are not taken; the View
// colours the blocks itself, as without them.
func TestColouringOfAnotherStream(t *testing.T) {
	full, quick := quickRenderer(t, 60)
	other, _ := quickRenderer(t, 50)
	src := "Some code:\n\n```go\nx := 1\n```\n\nThen more:\n\n```python\nprint(1)\n```\n\nThe end"
	for _, tc := range []struct {
		name   string
		change func(s *Stream, c *Colouring)
	}{
		{"not run", func(*Stream, *Colouring) {}},
		{"text came", func(s *Stream, c *Colouring) { c.Run(); s.Append(" and more") }},
		{"another renderer", func(s *Stream, c *Colouring) { c.Run(); s.SetRenderer(other) }},
		{"coloured by a View", func(s *Stream, c *Colouring) { c.Run(); _ = s.View() }},
	} {
		s := NewStream(full)
		s.Append(src)
		_ = s.Draft(quick)
		c := s.Colour()
		if c == nil {
			t.Fatal("a drafted stream with code has nothing to colour")
		}
		tc.change(s, c)
		if s.SetColoured(c) {
			t.Errorf("%s: the colours were taken", tc.name)
		}
		want, _ := s.Renderer().Render(s.Source())
		if diff := diffVisible(s.View(), want); diff != "" {
			t.Errorf("%s: the view: %s", tc.name, diff)
		}
	}
	s := NewStream(full)
	s.Append(src)
	_ = s.View()
	if s.Colour() != nil {
		t.Error("a stream never drafted has colours to make")
	}
}

// TestColouringRendersNoBlockTwice: the end of a drafted answer renders,
// with the colours made off the Stream's goroutine and the View after
// them, exactly the documents the View alone renders when it colours the
// drafts itself (counted, on every recorded answer and the edge
// document): each drafted block is coloured once, and the colouring adds
// no work. (The 400 KB answer's end colours every drafted block of both
// its pages, as its View did; it is not where its CPU went.)
func TestColouringRendersNoBlockTwice(t *testing.T) {
	t.Parallel() // renderers of its own
	docs := colourDocs(t)
	full, quick := quickRenderer(t, 60)
	drafted := func(doc string) *Stream {
		s := NewStream(full)
		for _, d := range chunks(doc) {
			s.Append(d)
			_ = s.Draft(quick)
		}
		return s
	}
	coloured := 0
	for name, doc := range docs {
		s := drafted(doc)
		before := full.docs.Load()
		_ = s.View()
		byView := full.docs.Load() - before

		s = drafted(doc)
		before = full.docs.Load()
		c := s.Colour()
		if c == nil {
			continue // no code
		}
		c.Run()
		if !s.SetColoured(c) {
			t.Fatalf("%s: the colours were not taken", name)
		}
		_ = s.View()
		byColouring := full.docs.Load() - before
		if byColouring != byView {
			t.Errorf("%s: the end rendered %d documents with the colouring, %d by the View alone", name, byColouring, byView)
		}
		coloured++
	}
	if coloured == 0 {
		t.Fatal("no document had code to colour")
	}
}

// colourDocs are the documents the colouring is checked on: the recorded
// answers (sweptAnswers: one in three under -short) and the edge documents.
func colourDocs(t *testing.T) map[string]string {
	docs := sweptAnswers(t)
	for name, doc := range testDocs(t) {
		docs[name] = doc
	}
	return docs
}
