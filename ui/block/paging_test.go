package block

import (
	"fmt"
	"strings"
	"testing"

	"runnel/stream"
)

// TestLongMessageDrawsItsLastPages: a message that grows far past pageBytes
// is drawn from its last pages, with one line counting what is above, so a
// frame's output stays bounded however long the answer gets; the text stays
// whole in the item.
func TestLongMessageDrawsItsLastPages(t *testing.T) {
	it := &stream.Item{Type: "message", Content: []stream.Part{{Type: "output_text"}}}
	b := ForItem(it, epoch)
	ctx := testCtx(80, epoch)
	var text strings.Builder
	maxOut := 0
	for i := 0; text.Len() < 8*pageBytes; i++ {
		for k := 0; k < 200; k++ {
			fmt.Fprintf(&text, "Paragraph %d.%d says *something* of note.\n\n", i, k)
		}
		it.Content[0].Text = text.String()
		b.Update(epoch)
		maxOut = max(maxOut, len(b.Render(ctx)))
	}
	vis := visible(b.Render(ctx))
	if !strings.Contains(vis, "of this answer above are not drawn") {
		t.Errorf("no line counting the text above:\n%s", vis[:min(len(vis), 400)])
	}
	last := strings.TrimSpace(text.String()[strings.LastIndex(strings.TrimSpace(text.String()), "\n")+1:])
	if !strings.Contains(vis, strings.ReplaceAll(last, "*", "")) {
		t.Errorf("the last paragraph %q is not drawn", last)
	}
	if strings.Contains(vis, "Paragraph 0.0 ") {
		t.Error("the start of the answer is still drawn")
	}
	if maxOut > 6*maxPageBytes {
		t.Errorf("a frame drew %d bytes for pages of %d", maxOut, pageBytes)
	}
	if render := b.(Finisher).FinalRender(ctx); render() != "" {
		t.Error("a paged message asked for a whole render")
	}
}

// TestPagesNeverCutACodeFence: a page ends only at a paragraph break outside
// a fence.
func TestPagesNeverCutACodeFence(t *testing.T) {
	var f fenceScan
	text := "intro\n\n```go\nx := 1\n\n~~~\ny := 2\n"
	f.scan(text)
	if !f.open {
		t.Fatal("inside the fence, the scan says it is closed")
	}
	text += "```\n\nafter\n\n"
	f.scan(text)
	if f.open {
		t.Fatal("after the fence, the scan says it is open")
	}
	var p pager
	p.update(strings.Repeat("word ", pageBytes/5)+"\n\n```\n"+strings.Repeat("code line\n\n", 1000), &mdDoc{})
	if p.start != 0 {
		t.Errorf("the page was cut at %d, inside the fence", p.start)
	}
}

// TestLongPanelTextIsDrawnFromItsEnd: arguments, code and diffs that stream
// on and on are drawn from their end, with one line saying how much is not
// drawn, so a panel's frame stays bounded.
func TestLongPanelTextIsDrawnFromItsEnd(t *testing.T) {
	long := strings.Repeat("0123456789 abcdefghij klmnopqrst\n", 32<<10) // 1 MiB
	for _, it := range []*stream.Item{
		{Type: "function_call", Name: "f", Arguments: long},
		{Type: "code_interpreter_call", Code: long},
		{Type: "apply_patch_call", Diff: long},
	} {
		b := ForItem(it, epoch)
		b.Update(epoch)
		out := b.Render(testCtx(80, epoch))
		if !strings.Contains(visible(out), "above not drawn") || len(out) > 4*maxPanelText {
			t.Errorf("%s: %d bytes drawn for %d, without the line saying what is not drawn:\n%s", it.Type, len(out), len(long), visible(out))
		}
	}
}

// TestPagingKeepsTheStream: when a message grows past pageBytes, its first
// page is the document it was drawn from, stream and all: it is not parsed
// and rendered again from the start in one frame (a long table took half a
// second), and it draws the same.
func TestPagingKeepsTheStream(t *testing.T) {
	it := &stream.Item{Type: "message", Content: []stream.Part{{Type: "output_text"}}}
	b := ForItem(it, epoch)
	m := b.(*message)
	ctx := Context{Width: 80, Styles: testStyles, Now: epoch, Markdown: NewRenderers()}
	var text strings.Builder
	text.WriteString("| a | b |\n|---|---|\n")
	for text.Len() < pageBytes-1000 {
		text.WriteString("| cell one | cell two |\n")
	}
	it.Content[0].Text = text.String()
	b.Update(epoch)
	b.Render(ctx)
	st := m.doc.st
	if st == nil {
		t.Fatal("no stream before paging")
	}
	for text.Len() <= pageBytes+1000 {
		text.WriteString("| cell one | cell two |\n")
	}
	it.Content[0].Text = text.String()
	b.Update(epoch)
	out := visible(b.Render(ctx))
	if !m.pages.on || m.pages.cur.st != st {
		t.Fatalf("paging on %v: the first page has another stream", m.pages.on)
	}
	if !strings.Contains(out, "cell two") {
		t.Errorf("the page draws no rows:\n%s", out[:min(len(out), 300)])
	}
}

// TestLongMessageComingWholeDrawsItsLastPages: a message far longer than
// a page that comes at once (a resumed answer cut at the response limit,
// a burst of deltas) is drawn from its last pages as a streamed one is,
// with the line counting what is above: it is not parsed whole as its
// first page (a 32 MiB answer took over a minute and a GiB to resume).
// What it draws is bounded by pages, not by its length; a code fence open
// where it would skip to is not cut.
func TestLongMessageComingWholeDrawsItsLastPages(t *testing.T) {
	var text strings.Builder
	for i := 0; text.Len() < 64*pageBytes; i++ {
		fmt.Fprintf(&text, "Paragraph %d says *something* of note.\n\n", i)
	}
	text.WriteString("```\nfenced one\n\nfenced two\n")
	for text.Len() < 64*pageBytes+2*pageBytes {
		text.WriteString("code line in the fence\n\n")
	}
	text.WriteString("```\n\nThe last words.\n")
	it := &stream.Item{Type: "message", Done: true, Content: []stream.Part{{Type: "output_text", Text: text.String()}}}
	b := ForItem(it, epoch)
	ctx := testCtx(80, epoch)
	b.Update(epoch)
	out := b.Render(ctx)
	vis := visible(out)
	if !strings.Contains(vis, "of this answer above are not drawn") || !strings.Contains(vis, "The last words.") {
		t.Errorf("not drawn from its last pages:\n%s", vis[:min(len(vis), 400)])
	}
	if strings.Contains(vis, "Paragraph 0 ") {
		t.Error("the start of the answer is drawn")
	}
	if !strings.Contains(vis, "fenced one") {
		t.Error("the pages start inside the code fence, not at the break before it")
	}
	if len(out) > 6*maxPageBytes {
		t.Errorf("drew %d bytes for pages of %d", len(out), pageBytes)
	}
}
