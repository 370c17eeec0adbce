package block

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"runnel/session/images"
	"runnel/stream"
)

var (
	spinnerRE  = regexp.MustCompile(`[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]`)
	durationRE = regexp.MustCompile(`\d+\.\ds|\d+m\d\ds`)
)

// TestPanelsOverFixtures replays every real fixture (one in three under
// -short), renders every block at 100 and 60 columns after every 10th
// event and at the end, and checks what each state shows.
func TestPanelsOverFixtures(t *testing.T) {
	for i, name := range allFixtures(t) {
		if testing.Short() && i%3 != 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			r := newReplayer(t, fixture(t, name))
			for r.next() && !t.Failed() {
				if r.events%10 == 0 {
					renderAll(t, r, false)
				}
			}
			renderAll(t, r, true)
		})
	}
}

// renderAll renders blocks at 100 and 60 columns, one second after the last
// event, collapsed and expanded, and checks the rows: at the end every
// block, mid-stream those a frame would draw anew (replayer.changed), as a
// settled block nothing touched renders as before.
func renderAll(t *testing.T, r *replayer, end bool) {
	t.Helper()
	blocks := r.changed()
	if end {
		blocks = r.order
	}
	for _, b := range blocks {
		for _, width := range []int{100, 60} {
			ctx := r.ctx(width)
			ctx.Now = ctx.Now.Add(time.Second)
			where := b.Item().Type + "@" + strconv.Itoa(width)
			out := b.Render(ctx)
			checkFits(t, where, out, width)
			checkSafe(t, where, out)
			if x, ok := b.(Expander); ok {
				x.SetExpanded(true)
				full := b.Render(ctx)
				checkFits(t, where+" expanded", full, width)
				checkSafe(t, where+" expanded", full)
				x.SetExpanded(false)
			}
			if p, ok := b.(*panel); ok {
				checkPanel(t, where, p, visible(out), end)
			}
		}
	}
}

// checkPanel checks a panel's header and the facts its type must show.
func checkPanel(t *testing.T, where string, p *panel, vis string, end bool) {
	t.Helper()
	header, _, _ := strings.Cut(vis, "\n")
	it := p.it
	st := p.status()
	switch {
	case st.live:
		if !spinnerRE.MatchString(header) || !durationRE.MatchString(header) {
			t.Errorf("%s: a running panel's header has no spinner or elapsed time: %q", where, header)
		}
	case p.spec.state != nil: // approval requests say where the decision stands
		if !strings.Contains(header, st.text) {
			t.Errorf("%s: header %q lacks %q", where, header, st.text)
		}
	default:
		if !strings.Contains(header, st.text) {
			t.Errorf("%s: header %q lacks its state %q", where, header, st.text)
		}
		if p.clock.elapsed(time.Time{}) > 0 && !durationRE.MatchString(header) {
			t.Errorf("%s: a finished panel's header has no duration: %q", where, header)
		}
		if spinnerRE.MatchString(header) {
			t.Errorf("%s: a finished panel still spins: %q", where, header)
		}
	}
	if !end {
		return
	}
	flat := strings.Join(strings.Fields(unframe(vis)), " ")
	want := func(what, s string) {
		t.Helper()
		s = strings.Join(strings.Fields(s), " ")
		if s != "" && !strings.Contains(flat, s) {
			t.Errorf("%s: %s %q not shown in:\n%s", where, what, s, vis)
		}
	}
	switch it.Type {
	case "function_call", "custom_tool_call":
		want("name", it.Name)
		args := it.Arguments + it.Input
		if pretty, ok := prettyJSON(args); ok {
			args = pretty
		}
		first, _, _ := strings.Cut(strings.TrimSpace(args), "\n")
		want("arguments", first)
	case "mcp_call", "mcp_approval_request":
		want("tool", it.Name)
		want("server", it.ServerLabel)
		if it.Type == "mcp_approval_request" {
			args := it.Arguments
			if pretty, ok := prettyJSON(args); ok {
				args = pretty
			}
			for l := range strings.Lines(args) { // whole while it waits: the dialog points here
				want("argument line", l)
			}
		}
		if e := it.ErrorText(); e != "" {
			want("error", e)
		}
	case "web_search_call":
		for _, q := range it.Details().Action.Queries {
			want("query", q[:min(len(q), 40)])
		}
	case "code_interpreter_call":
		first, _, _ := strings.Cut(strings.TrimSpace(stream.Sanitize(it.Code)), "\n")
		want("code", first)
	case "apply_patch_call":
		first, _, _ := strings.Cut(it.Diff+it.Details().Operation.Diff, "\n")
		want("diff line", first)
	case "shell_call":
		for _, c := range it.Commands {
			want("command", c)
		}
	case "mcp_list_tools":
		want("server", it.ServerLabel)
	}
}

// unframe removes a panel's border from its visible rows.
func unframe(vis string) string {
	rows := strings.Split(vis, "\n")
	for i, r := range rows {
		r = strings.TrimPrefix(r, "│ ")
		r = strings.TrimSuffix(strings.TrimRight(r, " "), "│")
		rows[i] = strings.TrimRight(r, " ")
	}
	return strings.Join(rows, "\n")
}

// item builds an item from its JSON, as output_item.done would deliver it.
func item(t *testing.T, js string) *stream.Item {
	t.Helper()
	var ev stream.Event
	if err := stream.DecodeEvent("", []byte(`{"type":"response.output_item.done","output_index":0,"item":`+js+`}`), &ev); err != nil {
		t.Fatalf("decode item: %v", err)
	}
	var acc stream.Accumulator
	it, err := acc.Apply(&ev)
	if err != nil || it == nil {
		t.Fatalf("apply item: %v", err)
	}
	return it
}

func TestMCPCallFailedShowsError(t *testing.T) {
	it := item(t, `{"type":"mcp_call","id":"mcp_1","status":"failed","server_label":"deepwiki","name":"ask_question",
		"arguments":"{\"q\":\"x\"}","error":{"type":"mcp_protocol_error","message":"Session terminated"}}`)
	b := ForItem(it, epoch)
	vis := visible(b.Render(testCtx(60, epoch)))
	for _, want := range []string{"deepwiki.ask_question", "failed", "Session terminated"} {
		if !strings.Contains(vis, want) {
			t.Errorf("missing %q in:\n%s", want, vis)
		}
	}
	it2 := item(t, `{"type":"mcp_call","id":"mcp_2","server_label":"s","name":"t","error":"plain failure text"}`)
	vis = visible(ForItem(it2, epoch).Render(testCtx(60, epoch)))
	if !strings.Contains(vis, "plain failure text") || !strings.Contains(vis, "failed") {
		t.Errorf("string error not shown as a failure:\n%s", vis)
	}
}

func TestApprovalDecision(t *testing.T) {
	it := item(t, `{"type":"mcp_approval_request","id":"mcpr_9","server_label":"zip1","name":"create_short_url","arguments":"{\"url\":\"https://ai-sdk.dev/\"}"}`)
	b := ForItem(it, epoch)
	a := b.(Approver)
	ctx := testCtx(60, epoch)
	if id, pending := a.Approval(); id != "mcpr_9" || !pending {
		t.Fatalf("Approval() = %q, %v", id, pending)
	}
	vis := visible(b.Render(ctx))
	for _, want := range []string{"zip1.create_short_url", "awaiting approval", `"url": "https://ai-sdk.dev/"`} {
		if !strings.Contains(vis, want) {
			t.Errorf("missing %q in:\n%s", want, vis)
		}
	}
	for _, never := range []string{"approve:", "deny"} { // the keys are the dialog's and the status line's
		if strings.Contains(vis, never) {
			t.Errorf("a pending request names keys (%q):\n%s", never, vis)
		}
	}
	if b.Live() {
		t.Error("a pending approval is not live: it waits, nothing moves")
	}
	a.SetDecision(false, "not on a \x1b[31mfriday\x07")
	if _, pending := a.Approval(); pending {
		t.Error("still pending after SetDecision")
	}
	vis = visible(b.Render(ctx))
	if !strings.Contains(vis, "denied: not on a friday") || strings.Contains(vis, "\x1b[31m") {
		t.Errorf("the denial and its reason (cleaned) not shown:\n%s", vis)
	}
	a.SetDecision(false, "")
	if vis = visible(b.Render(ctx)); !strings.Contains(vis, "denied") || strings.Contains(vis, "denied:") {
		t.Errorf("a denial without a reason:\n%s", vis)
	}
	a.SetDecision(true, "ignored")
	if vis = visible(b.Render(ctx)); !strings.Contains(vis, "approved") || strings.Contains(vis, "ignored") {
		t.Errorf("approval not shown:\n%s", vis)
	}
}

// TestApprovalArgumentsWhileAsked: a request's arguments are drawn whole
// while it waits (the dialog points at the panel and no longer repeats
// them), and shortened like any panel's once it is answered.
func TestApprovalArgumentsWhileAsked(t *testing.T) {
	var fields []string
	for i := range 30 {
		fields = append(fields, fmt.Sprintf(`\"k%02d\":%d`, i, i))
	}
	it := item(t, `{"type":"mcp_approval_request","id":"mcpr_9","server_label":"deploy","name":"deploy_preview","arguments":"{`+strings.Join(fields, ",")+`}"}`)
	b := ForItem(it, epoch)
	ctx := Context{Width: 60, Styles: testStyles, Now: epoch}
	vis := visible(b.Render(ctx))
	if !strings.Contains(vis, `"k00": 0`) || !strings.Contains(vis, `"k29": 29`) || strings.Contains(vis, "more lines") {
		t.Errorf("the asked arguments are not whole:\n%s", vis)
	}
	b.(Approver).SetDecision(true, "")
	if vis = visible(b.Render(ctx)); strings.Contains(vis, `"k29": 29`) || !strings.Contains(vis, "more lines") {
		t.Errorf("answered, the arguments should be a preview again:\n%s", vis)
	}
}

func TestUnknownItemType(t *testing.T) {
	it := item(t, `{"type":"hologram_projection","id":"hp_1","status":"completed"}`)
	b := ForItem(it, epoch)
	vis := visible(b.Render(testCtx(60, epoch)))
	for _, want := range []string{"hologram_projection", "completed", "hp_1"} {
		if !strings.Contains(vis, want) {
			t.Errorf("missing %q in:\n%s", want, vis)
		}
	}
	call := item(t, `{"type":"teleport_call","id":"tp_1","status":"in_progress","arguments":"{\"to\":\"mars\"}"}`)
	vis = visible(ForItem(call, epoch).Render(testCtx(60, epoch)))
	for _, want := range []string{"teleport_call", `"to": "mars"`} {
		if !strings.Contains(vis, want) {
			t.Errorf("missing %q in:\n%s", want, vis)
		}
	}
}

func TestPanelPreviewAndExpand(t *testing.T) {
	var lines []string
	for i := range 30 {
		lines = append(lines, "line "+strconv.Itoa(i))
	}
	out, _ := json.Marshal(strings.Join(lines, "\n"))
	it := item(t, `{"type":"mcp_call","id":"m","status":"completed","server_label":"s","name":"t","output":`+string(out)+`}`)
	b := ForItem(it, epoch)
	ctx := testCtx(60, epoch)
	vis := visible(b.Render(ctx))
	if !strings.Contains(vis, "line 9") || strings.Contains(vis, "line 10") || !strings.Contains(vis, "20 more lines") {
		t.Errorf("collapsed panel should preview 10 lines:\n%s", vis)
	}
	b.(Expander).SetExpanded(true)
	vis = visible(b.Render(ctx))
	if !strings.Contains(vis, "line 29") || strings.Contains(vis, "more lines") {
		t.Errorf("expanded panel should show everything:\n%s", vis)
	}
}

// TestRenderCached checks that rendering a settled block again at the same
// width and styles is a cache hit.
func TestRenderCached(t *testing.T) {
	r := newReplayer(t, fixture(t, "vercel__ai/openai-mcp-tool-two-calls.sse")).run()
	for _, b := range r.order {
		ctx := r.ctx(80)
		first := b.Render(ctx)
		if h, ok := b.(Hider); ok && h.Hidden() {
			continue // draws nothing, with nothing to cache
		}
		before := renders(b)
		ctx.Now = ctx.Now.Add(time.Hour)
		if again := b.Render(ctx); again != first {
			t.Errorf("%s: a settled block rendered differently later", b.Item().Type)
		}
		if n := renders(b); n != before {
			t.Errorf("%s: second Render re-rendered (%d → %d)", b.Item().Type, before, n)
		}
		b.Render(r.ctx(70))
		if n := renders(b); n == before {
			t.Errorf("%s: a new width did not re-render", b.Item().Type)
		}
	}
}

func renders(b Block) int {
	switch b := b.(type) {
	case *panel:
		return b.cache.renders
	case *message:
		return b.renders
	case *reasoning:
		return b.renders
	case *notice:
		return b.renders
	case *user:
		return b.renders
	}
	return -1
}

// TestImageSave writes the fixture's partial and final images through the
// functions the caller runs as Cmds, into the sink given, and the panel
// shows where each went.
func TestImageSave(t *testing.T) {
	dir := images.NewDir(filepath.Join(t.TempDir(), "images"))
	r := newReplayer(t, fixture(t, "vercel__ai/azure-image-generation-with-text.sse"))
	var saved []ImageFile
	for r.next() {
		for _, b := range r.byType("image_generation_call") {
			if save := b.(ImageSaver).SaveImage(dir); save != nil {
				f := save()
				b.(ImageSaver).ImageSaved(f)
				saved = append(saved, f)
			}
		}
	}
	if len(saved) == 0 {
		t.Fatal("no image handed out")
	}
	for _, b := range r.byType("image_generation_call") {
		if b.(ImageSaver).SaveImage(dir) != nil {
			t.Error("an image was handed out twice")
		}
		vis := strings.ReplaceAll(visible(b.Render(r.ctx(100))), "│", "") // a long path wraps inside the borders
		for _, f := range saved {
			if f.Err != nil || filepath.Dir(f.Path) != dir.Path() {
				t.Errorf("image %s: %s, %v", f.Key, f.Path, f.Err)
			}
			if !strings.Contains(strings.Join(strings.Fields(vis), ""), f.Path) {
				t.Errorf("saved path %s not shown:\n%s", f.Path, vis)
			}
		}
	}
}

// TestImageNotSaved: with an Off sink (replay and -p without
// --save-images) no image is written and the panel says why, once.
func TestImageNotSaved(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	r := newReplayer(t, fixture(t, "vercel__ai/openai-image-generation.sse"))
	off := images.Off("pass --save-images to keep it")
	for r.next() {
		for _, b := range r.byType("image_generation_call") {
			if save := b.(ImageSaver).SaveImage(off); save != nil {
				f := save()
				if f.Path != "" {
					t.Errorf("wrote %s", f.Path)
				}
				b.(ImageSaver).ImageSaved(f)
			}
		}
	}
	for _, b := range r.byType("image_generation_call") {
		vis := visible(b.Render(r.ctx(100)))
		if n := strings.Count(vis, "image not saved: pass --save-images to keep it"); n != 1 {
			t.Errorf("the panel says %d times that the image was not saved:\n%s", n, vis)
		}
	}
	if entries, _ := os.ReadDir(os.TempDir()); len(entries) > 0 {
		t.Errorf("something was written to TMPDIR: %v", entries)
	}
}

// TestNarrowWidths renders every block of a busy stream at widths down to
// zero: nothing panics and every row fits (width 0 is treated as 1).
func TestNarrowWidths(t *testing.T) {
	for _, name := range []string{
		"vercel__ai/openai-mcp-tool-two-calls.sse",
		"vercel__ai/openai-code-interpreter-3-calls.sse",
		"vercel__ai/openai-web-search-6-calls.sse",
	} {
		r := newReplayer(t, fixture(t, name)).run()
		for _, b := range r.order {
			for _, w := range []int{0, 1, 5, 15, 16, 20, 33} {
				out := b.Render(r.ctx(w))
				checkFits(t, name+" "+b.Item().Type+"@"+strconv.Itoa(w), out, max(w, 1))
			}
		}
	}
}
