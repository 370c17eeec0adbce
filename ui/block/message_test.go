package block

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"runnel/stream"
	"runnel/theme"
)

// TestCitationsWebSearch: url_citation annotations become [n] markers in the
// text and a Sources list with OSC 8 hyperlinks and the plain URLs.
func TestCitationsWebSearch(t *testing.T) {
	for _, name := range []string{
		"vercel__ai/openai-web-search-6-calls.sse",
		"pydantic__pydantic-ai/openai-web-search-annotation.sse",
	} {
		t.Run(name, func(t *testing.T) {
			r := newReplayer(t, fixture(t, name)).run()
			msgs := r.byType("message")
			if len(msgs) == 0 {
				t.Fatal("no message")
			}
			m := msgs[len(msgs)-1].(*message)
			if len(m.refs.Sources) == 0 {
				t.Fatal("no sources read from the annotations")
			}
			out := m.Render(r.ctx(100))
			checkFits(t, name, out, 100)
			checkSafe(t, name, out)
			vis := visible(out)
			if !strings.Contains(vis, "Sources") {
				t.Errorf("no Sources heading:\n%s", vis)
			}
			body, _, _ := strings.Cut(vis, "Sources")
			for _, s := range m.refs.Sources {
				if !strings.Contains(body, "["+fmtN(s.N)+"]") {
					t.Errorf("marker [%d] missing from the text", s.N)
				}
				if !strings.Contains(out, "\x1b]8;;"+s.URL+"\x1b\\") && !strings.Contains(out, "\x1b]8;;"+s.URL+"\a") {
					t.Errorf("no OSC 8 hyperlink to %s", s.URL)
				}
				if !strings.Contains(strings.Join(strings.Fields(vis), ""), s.URL) {
					t.Errorf("plain URL %s not shown", s.URL)
				}
			}
		})
	}
}

func fmtN(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestCitationsFiles: file citations (index only) and container file
// citations show markers and file names.
func TestCitationsFiles(t *testing.T) {
	r := newReplayer(t, fixture(t, "vercel__ai/openai-file-search-citations.sse")).run()
	m := r.byType("message")[0].(*message)
	vis := visible(m.Render(r.ctx(80)))
	flat := strings.Join(strings.Fields(vis), " ")
	if !strings.Contains(flat, "embedding [1]") || !strings.Contains(flat, "tasks [1].") || !strings.Contains(flat, "[1] ai.pdf (file)") {
		t.Errorf("file citation not shown:\n%s", vis)
	}
}

func TestMarkerPlacement(t *testing.T) {
	ann := func(js string) json.RawMessage { return json.RawMessage(js) }
	a := markerText(1, "https://a.example/")
	cases := []struct {
		text string
		ann  string
		want string
	}{
		{"Paris is the capital.", `{"type":"url_citation","start_index":0,"end_index":20,"url":"https://a.example/","title":"A"}`, "Paris is the capital" + a + "."},
		{"héllo wörld. Next", `{"type":"url_citation","start_index":0,"end_index":12,"url":"https://a.example/"}`, "héllo wörld." + a + " Next"},
		{"short", `{"type":"url_citation","start_index":0,"end_index":999,"url":"https://a.example/"}`, "short" + a},
		{"in the middle of a word.\n\nNext para", `{"type":"url_citation","start_index":0,"end_index":10,"url":"https://a.example/"}`, "in the middle of a word." + a + "\n\nNext para"},
		{"```\ncode here\n```\n\nAfter", `{"type":"file_citation","index":8,"file_id":"f1","filename":"x.txt"}`, "```\ncode here\n```\n\nAfter\\[1\\]"},
		{"see [site](https://x.example/page) ok", `{"type":"url_citation","start_index":0,"end_index":20,"url":"https://x.example/page"}`, "see [site](https://x.example/page) ok" + markerText(1, "https://x.example/page")},
		{"no position", `{"type":"url_citation","url":"https://a.example/"}`, `no position`},
		// the span is a link to the cited URL: the marker replaces it, and
		// the tracking parameters go
		{"Done. ([a.example](https://a.example/?utm_source=openai))  \n- next", `{"type":"url_citation","start_index":6,"end_index":57,"url":"https://a.example/?utm_source=openai"}`, "Done. " + a + "  \n- next"},
		{"Done [a.example](https://a.example/?x=1&utm_medium=m). Next", `{"type":"url_citation","start_index":5,"end_index":53,"url":"https://a.example/?utm_source=s&x=1"}`, "Done " + markerText(1, "https://a.example/?x=1") + ". Next"},
		// a link to another URL, or prose, is kept and the marker follows it
		{"See ([b](https://b.example/)) now", `{"type":"url_citation","start_index":4,"end_index":29,"url":"https://a.example/"}`, "See ([b](https://b.example/))" + a + " now"},
		{"Plain words here. More", `{"type":"url_citation","start_index":0,"end_index":17,"url":"https://a.example/"}`, "Plain words here." + a + " More"},
	}
	for _, c := range cases {
		parts := []stream.Part{{Type: "output_text", Text: c.text, Annotations: []json.RawMessage{ann(c.ann)}}}
		r := citations(parts)
		if got := r.Marked(c.text, markerText); got != c.want {
			t.Errorf("marked(%q)\n got %q\nwant %q", c.text, got, c.want)
		}
		if len(r.Sources) != 1 {
			t.Errorf("%q: %d sources, want 1", c.text, len(r.Sources))
		}
	}
	// Equal URLs share a number; unsafe URLs give no link.
	parts := []stream.Part{{Type: "output_text", Text: "a. b. c.", Annotations: []json.RawMessage{
		ann(`{"type":"url_citation","start_index":0,"end_index":2,"url":"https://same.example/"}`),
		ann(`{"type":"url_citation","start_index":3,"end_index":5,"url":"javascript:alert(1)","title":"bad"}`),
		ann(`{"type":"url_citation","start_index":6,"end_index":8,"url":"https://same.example/"}`),
	}}}
	r := citations(parts)
	same := markerText(1, "https://same.example/")
	if got, want := r.Marked("a. b. c.", markerText), "a."+same+" b.\\[2\\] c."+same; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if r.Sources[1].URL != "" {
		t.Errorf("javascript: URL kept: %q", r.Sources[1].URL)
	}
}

// TestFinalMatchesStreamed: for the long markdown fixtures, the final whole
// render has the same visible text as the streamed, pieced one, at two
// widths, and the swap is ignored once the text changed.
func TestFinalMatchesStreamed(t *testing.T) {
	for _, name := range []string{
		"vercel__ai/lmstudio-basic-markdown.sse",
		"vercel__ai/openai-mcp-tool-two-calls.sse",
		"vercel__ai/xai-text-reasoning-markdown.sse",
		"vercel__ai/openai-code-interpreter-3-calls.sse",
		"vercel__ai/openai-web-search-6-calls.sse",
	} {
		t.Run(name, func(t *testing.T) {
			r := newReplayer(t, fixture(t, name))
			for r.next() {
				if r.events%25 == 0 {
					for _, b := range r.byType("message") {
						b.Render(r.ctx(100))
					}
				}
			}
			for _, b := range r.byType("message") {
				m := b.(*message)
				for _, width := range []int{100, 60} {
					ctx := r.ctx(width)
					pieced := m.Render(ctx)
					f := Finisher(m)
					render := f.FinalRender(ctx)
					f.SetFinal(width, render())
					whole := m.Render(ctx)
					if m.final.out == "" {
						t.Fatalf("final render not taken")
					}
					if visible(pieced) != visible(whole) {
						t.Errorf("width %d: final differs from streamed\n--- streamed\n%s\n--- final\n%s", width, visible(pieced), visible(whole))
					}
					checkFits(t, name, whole, width)
				}
			}
		})
	}
}

func TestSetFinalIgnoresStale(t *testing.T) {
	it := item(t, `{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"one","annotations":[]}]}`)
	b := ForItem(it, epoch)
	f := b.(Finisher)
	ctx := testCtx(60, epoch)
	render := f.FinalRender(ctx)
	f.SetFinal(80, render()) // another width
	if b.(*message).final.out != "" {
		t.Error("a final render for another width was taken")
	}
	render = f.FinalRender(ctx)
	it.Content[0].Text = "one two"
	b.Update(epoch)
	f.SetFinal(60, render())
	if b.(*message).final.out != "" {
		t.Error("a final render of older text was taken")
	}
	if vis := visible(b.Render(ctx)); !strings.Contains(vis, "one two") {
		t.Errorf("render after update: %q", vis)
	}
}

func TestRefusalAndCommentary(t *testing.T) {
	it := item(t, `{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"refusal","refusal":"I can't help with that."}]}`)
	vis := visible(ForItem(it, epoch).Render(testCtx(60, epoch)))
	if !strings.Contains(vis, "⊘ I can't help with that.") {
		t.Errorf("refusal: %q", vis)
	}
	r := newReplayer(t, fixture(t, "vercel__ai/openai-phase-commentary-final.sse")).run()
	var phases []string
	for _, b := range r.byType("message") {
		m := b.(*message)
		phases = append(phases, m.it.Phase)
		out := m.Render(r.ctx(80))
		checkSafe(t, "commentary", out)
		if m.commentary() && visible(out) == "" {
			t.Error("commentary rendered empty")
		}
	}
	if !strings.Contains(strings.Join(phases, ","), "commentary") {
		t.Errorf("fixture phases: %v", phases)
	}
}

// TestDraftIsColouredWhenTheFinalComes: a live message drawn in a hurry
// (Context.Draft) shows the rows it shows when drawn at leisure, with its
// code not yet coloured; once done, it stays a draft until FinalRender's
// answer comes (so the end of a fast stream is drawn first), also when
// FinalRender was asked again meanwhile, and is then drawn in colour, with
// the colours made by FinalRender's function (off the UI goroutine), not
// left to the View. A message long enough to be drawn from its pages too.
func TestDraftIsColouredWhenTheFinalComes(t *testing.T) {
	short := "Some code:\n\n```go\nfunc main() { fmt.Println(\"hi\") }\n```\n\nAnd the end."
	var long strings.Builder
	for long.Len() < pageBytes+pageBytes/2 {
		long.WriteString("A paragraph of prose before the code.\n\n```go\nfunc f() int { return 42 }\n```\n\n")
	}
	long.WriteString(short)
	for _, text := range []string{short, long.String()} {
		ctx := Context{Width: 60, Styles: testStyles, Now: epoch, Markdown: NewRenderers()}
		hurry := ctx
		hurry.Draft = true
		it := item(t, `{"type":"message","id":"m","role":"assistant","status":"in_progress","content":[{"type":"output_text","text":"","annotations":[]}]}`)
		it.Done = false // streaming
		b := ForItem(it, epoch)
		step := max(1, len(text)/200)
		for i := 0; i < len(text); i += step {
			it.Content[0].Text = text[:min(i+step, len(text))]
			b.Update(epoch)
			b.Render(hurry)
		}
		it.Done = true
		leisure := ForItem(it, epoch) // the same message drawn without drafts
		leisure.Update(epoch)
		want := leisure.Render(ctx)
		check := func(when string, got string, coloured bool) {
			t.Helper()
			if visible(got) != visible(want) {
				t.Fatalf("%d bytes, %s: the rows differ from a render at leisure:\n%s\nwant\n%s", len(text), when, visible(got), visible(want))
			}
			if (got == want) != coloured {
				t.Fatalf("%d bytes, %s: coloured %v, want %v", len(text), when, got == want, coloured)
			}
		}
		it.Done = false
		check("drafted", b.Render(hurry), false)
		it.Done = true
		b.Update(epoch)
		f := b.(Finisher)
		render := f.FinalRender(ctx)
		again := f.FinalRender(ctx) // asked again (a later frame) before the first answer came
		check("done, before the final", b.Render(ctx), false)
		check("asked again", b.Render(ctx), false)
		f.SetFinal(60, again()) // it colours (once: the first one's function waits for it)
		if b.(*message).colouring(ctx.markdown(60)) != nil {
			t.Fatalf("%d bytes: the answer asked again did not colour", len(text))
		}
		f.SetFinal(60, render())
		if b.(*message).colouring(ctx.markdown(60)) != nil {
			t.Fatalf("%d bytes: code is left for the View after the final to colour on the UI goroutine", len(text))
		}
		check("after the final", b.Render(ctx), true)
		check("a later frame in a hurry", b.Render(hurry), true)
	}
}

// TestQuickRendererIsATwin: the quick renderer of a style with code
// highlighting is another renderer, kept like the full one; for a style
// without highlighting (NO_COLOR) it is the full one itself.
func TestQuickRendererIsATwin(t *testing.T) {
	rs := NewRenderers()
	full, quick := rs.get(testStyles, 60, false), rs.get(testStyles, 60, true)
	if full == nil || quick == nil || full == quick || rs.get(testStyles, 60, true) != quick {
		t.Fatalf("full %p, quick %p: want two kept renderers", full, quick)
	}
	plain := theme.New(theme.NoColor())
	if a, b := rs.get(&plain, 60, true), rs.get(&plain, 60, false); a == nil || a != b {
		t.Fatalf("NO_COLOR: quick %p, full %p: want the same renderer", a, b)
	}
}

// TestCitationsReplaceInlineLinks: on the six-search fixture, in the chat's
// block and in --format ansi, the "([site](url?utm_source=openai))" each
// citation covers draws as a marker [n] that is a hyperlink (OSC 8) to the
// source, with no URL and no tracking parameter left in the answer; the
// Sources list shows each URL once, without utm_*, its rows broken only
// after a separator.
func TestCitationsReplaceInlineLinks(t *testing.T) {
	name := "vercel__ai/openai-web-search-6-calls.sse"
	data := fixture(t, name)
	r := newReplayer(t, data).run()
	m := r.byType("message")[0].(*message)
	if len(m.refs.Sources) != 7 {
		t.Fatalf("%d sources, want 7", len(m.refs.Sources))
	}
	for where, out := range map[string]string{"chat": m.Render(r.ctx(80)), "ansi": printFixture(t, data, 80)} {
		checkSafe(t, where, out)
		vis := visible(out)
		i := strings.LastIndex(vis, "\nSources\n")
		if i < 0 {
			t.Fatalf("%s: no Sources list:\n%s", where, vis)
		}
		body, list := vis[strings.Index(vis, "I checked today"):i], vis[i:] // the answer (ansi prints the panels first)
		if strings.Contains(body, "http") || strings.Contains(vis, "utm_") {
			t.Errorf("%s: a URL or a tracking parameter is left in the answer:\n%s", where, vis)
		}
		for _, s := range m.refs.Sources {
			if strings.Contains(s.URL, "utm_") {
				t.Errorf("source %d keeps its tracking parameter: %s", s.N, s.URL)
			}
			marker := regexp.MustCompile(`\x1b\]8;;` + regexp.QuoteMeta(s.URL) + `(\x07|\x1b\\)(\x1b\[[0-9;]*m)*\[` + fmtN(s.N) + `\]`)
			if !marker.MatchString(out) {
				t.Errorf("%s: marker [%d] is not a hyperlink to %s", where, s.N, s.URL)
			}
			if !strings.Contains(body, "["+fmtN(s.N)+"]") {
				t.Errorf("%s: marker [%d] missing from the answer", where, s.N)
			}
			// the URL's rows, joined, are the URL; each row but the last
			// ends with a separator
			rows := urlRows(s.URL, 76)
			if strings.Join(rows, "") != s.URL {
				t.Errorf("urlRows(%s) = %q", s.URL, rows)
			}
			for _, row := range rows[:len(rows)-1] {
				if !strings.ContainsAny(row[len(row)-1:], "/-?&=._#+,;:") {
					t.Errorf("%s broken inside a word: %q", s.URL, rows)
				}
				if !strings.Contains(list, "    "+row+"\n") {
					t.Errorf("%s: row %q of %s not in the Sources list:\n%s", where, row, s.URL, list)
				}
			}
		}
	}
}

func TestURLRows(t *testing.T) {
	cases := []struct {
		url   string
		width int
		want  []string
	}{
		{"https://a.example/short", 40, []string{"https://a.example/short"}},
		{"https://a.example/one-two-three", 20, []string{"https://a.example/", "one-two-three"}},
		{"https://a.example/abcdefghijklmnopqrstuvwxyz", 20, []string{"https://a.example/", "abcdefghijklmnopqrst", "uvwxyz"}},
		{"https://x", 1, []string{"h", "t", "t", "p", "s", ":", "/", "/", "x"}},
	}
	for _, c := range cases {
		if got := urlRows(c.url, c.width); !slices.Equal(got, c.want) {
			t.Errorf("urlRows(%q, %d) = %q, want %q", c.url, c.width, got, c.want)
		}
	}
}

// TestCitationURLUntrusted: a cited URL carrying controls, escapes, angle
// brackets, quotes or backslashes never reaches the terminal as anything but
// a percent-encoded OSC 8 target; one that cannot be made safe gives a plain
// [n] and no hyperlink.
func TestCitationURLUntrusted(t *testing.T) {
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	for _, c := range []struct{ url, want string }{
		{"https://a.example/p?q=<x>\"\\&utm_source=z", "https://a.example/p?q=%3Cx%3E%22%5C"},
		{"https://a.example/p\x1b]8;;https://evil.example/\x07", "https://a.example/p"}, // the sequence is stripped whole
		{"https://a.example/ p", ""},
		{"javascript:alert(1)", ""},
	} {
		text := "Done. ([a](" + c.url + ")) next"
		it := item(t, `{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":`+js(text)+
			`,"annotations":[{"type":"url_citation","start_index":6,"end_index":`+fmtN(6+len([]rune("([a]("+c.url+"))")))+`,"url":`+js(c.url)+`,"title":"T"}]}]}`)
		b := ForItem(it, epoch)
		b.Update(epoch)
		b.End(epoch)
		out := b.Render(Context{Width: 80, Styles: testStyles, Now: epoch})
		checkSafe(t, c.url, out)
		m := b.(*message)
		if got := m.refs.Sources[0].URL; got != c.want {
			t.Errorf("%q: source URL %q, want %q", c.url, got, c.want)
		}
		linked := regexp.MustCompile(`\x1b\]8;;[^\x07\x1b]+(\x07|\x1b\\)(\x1b\[[0-9;]*m)*\[1\]`)
		if c.want == "" && linked.MatchString(out) {
			t.Errorf("%q: unsafe URL hyperlinked:\n%q", c.url, out)
		}
		if c.want != "" && !strings.Contains(out, "\x1b]8;;"+c.want) {
			t.Errorf("%q: marker not linked to %q:\n%q", c.url, c.want, out)
		}
		if !strings.Contains(visible(out), "[1]") {
			t.Errorf("%q: no marker:\n%s", c.url, visible(out))
		}
	}
}

// TestFinalAskedAgainIsTheSame: the turn's end asks every item for its
// final render again; a message whose final render is in use answers with
// it (no render, no fitting) and taking it back draws nothing again.
func TestFinalAskedAgainIsTheSame(t *testing.T) {
	it := item(t, `{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Some *text*.\n\n`+"```go\\nx := 1\\n```"+`","annotations":[]}]}`)
	b := ForItem(it, epoch)
	b.Update(epoch)
	ctx := testCtx(60, epoch)
	f := b.(Finisher)
	_ = b.Render(ctx)
	render := f.FinalRender(ctx)
	f.SetFinal(60, render())
	m := b.(*message)
	out, rev := m.final.out, m.rev
	if out == "" {
		t.Fatal("the final render was not taken")
	}
	again := f.FinalRender(ctx)()
	if again != out {
		t.Fatalf("asked again: %q, want the render in use %q", again, out)
	}
	f.SetFinal(60, again)
	if m.rev != rev {
		t.Error("the same final render taken again changed the block: it is drawn again")
	}
}
