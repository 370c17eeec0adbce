// Package export renders a stored session as a readable markdown transcript:
// a title, the session's metadata, then per user turn (a prompt, with the
// tool rounds that followed it folded in: store.UserTurn) a "You" section
// with the prompt as a block quote and an "Assistant" section with reasoning summaries in collapsed <details>, the answer's
// markdown as it was written, every tool and MCP call as a one-line header
// with fenced arguments and output, and a note on turns that did not finish.
// Headers are titled in the export's own words (headings, keyed by the
// types of stream's kind table; a test holds the two together): the chat's
// titles and icons belong to the UI (ui/itemlook), which session code does
// not import.
//
// It does not read the database, print to a terminal, or write a lossless
// copy: the store's JSON export is the one that round-trips. Every piece of
// stored text is sanitized (no control characters besides newline and tab),
// and stored text cannot break the document's structure (fences are longer
// than any backtick run inside them, an unclosed code block is closed).
//
// HTML (html.go) walks the same way and writes a self-contained page: each
// piece of markdown rendered by goldmark (raw HTML escaped, images as
// links, only http(s) and mailto links, code highlighted by chroma with
// inline styles), every item but a message in a collapsible <details>, in
// the look (Style) the caller takes from theme/.
//
// Main flow: Markdown(w, session) → header → for each user turn: prompt,
// input items, then per stored turn (the prompt's, then its rounds') output
// items (calls paired with their outputs) and status note.
package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"runnel/session/attach"
	"runnel/session/store"
	"runnel/stream"
)

// turns writes s's turns, each user turn with the tool rounds after it.
func (d *doc) turns(s *store.Session) {
	n := 0
	for i := 0; i < len(s.Turns); {
		j := i + 1
		for j < len(s.Turns) && !s.Turns[j].UserTurn() {
			j++
		}
		n++
		d.turn(n, s.Turns[i:j])
		i = j
	}
}

// Markdown writes session s to w as a markdown transcript.
func Markdown(w io.Writer, s *store.Session) error {
	d := newDoc(s)
	d.header(s)
	d.turns(s)
	_, err := w.Write(append(bytes.TrimRight(d.b.Bytes(), "\n"), '\n'))
	return err
}

// doc is one document being written.
//
// Invariants: outputs and approvals hold every tool output and approval
// response of the session, by the call or request they answer; called and
// asked hold the ids of the calls and requests present, so an answer is
// rendered under its call and skipped where it was stored (a later turn's
// input), and an answer with no call is rendered where it was stored.
type doc struct {
	b         bytes.Buffer
	outputs   map[string]*stream.Item // call_id → its output item
	approvals map[string]*stream.Item // approval_request_id → the approval response
	called    map[string]bool         // call_ids of the calls in the session
	asked     map[string]bool         // ids of the approval requests in the session
	html      *page                   // nil: markdown; else the HTML page (html.go) b is rendered into
	searches  []*stream.Item          // hosted searches not yet written: they are written as one line (cite.go)
}

func newDoc(s *store.Session) *doc {
	d := &doc{outputs: map[string]*stream.Item{}, approvals: map[string]*stream.Item{}, called: map[string]bool{}, asked: map[string]bool{}}
	note := func(raw []byte) {
		it := stream.StoredItem(raw)
		if it == nil {
			return
		}
		switch {
		case it.Type == "mcp_approval_response":
			d.approvals[it.ApprovalRequestID] = it
		case it.Type == "mcp_approval_request":
			d.asked[it.ID] = true
		case stream.KindFor(it.Type).Class == stream.ClassOutput:
			d.outputs[it.CallID] = it
		case it.CallID != "":
			d.called[it.CallID] = true
		}
	}
	for _, t := range s.Turns {
		for _, in := range t.Input {
			note(in)
		}
		for _, r := range t.Responses {
			for _, it := range r.Items {
				note(it.Raw)
			}
		}
	}
	delete(d.outputs, "")
	delete(d.approvals, "")
	delete(d.called, "")
	delete(d.asked, "")
	return d
}

// block writes one markdown block followed by a blank line.
func (d *doc) block(s string) {
	d.b.WriteString(strings.TrimRight(s, "\n"))
	d.b.WriteString("\n\n")
}

func (d *doc) header(s *store.Session) {
	title := stream.SanitizeLine(s.Info.Title)
	if title == "" {
		title = "Untitled session"
	}
	d.block("# " + title)
	id := string(s.Info.ID)
	meta := []string{fmt.Sprintf("- **Session:** %s (resume with %s)", code(id), code("runnel -r "+id))}
	if m := stream.SanitizeLine(s.Info.Model); m != "" {
		meta = append(meta, "- **Model:** "+code(m))
	}
	if !s.Info.Created.IsZero() {
		meta = append(meta, "- **Created:** "+stamp(s.Info.Created))
	}
	if !s.Info.Updated.IsZero() {
		meta = append(meta, "- **Updated:** "+stamp(s.Info.Updated))
	}
	meta = append(meta, fmt.Sprintf("- **Turns:** %d", s.UserTurns()))
	d.block(strings.Join(meta, "\n"))
}

// stamp formats a time the same wherever the file is read.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// turn writes user turn n: group[0] is the turn that sent the prompt (or,
// at the start of a session that has none, a round), the rest the tool
// rounds that continued it. Outputs sent back in a round are written under
// their calls, so a round adds its answer and whatever else it sent.
func (d *doc) turn(n int, group []store.Turn) {
	t := &group[0]
	d.block("---")
	d.block(fmt.Sprintf("## Turn %d", n))
	d.block("### You")
	you := d.b.Len()
	prompt := t.Prompt
	if strings.TrimSpace(prompt) == "" {
		prompt = userText(t.Input)
	}
	if strings.TrimSpace(prompt) != "" {
		d.block(quote(prompt))
	}
	if files := attach.FromInput(t.Input); len(files) > 0 { // the files sent, by name and size
		names := make([]string, 0, len(files))
		for _, f := range files {
			names = append(names, code(stream.SanitizeLine(f.Name))+" ("+attach.Size(f.Size)+")")
		}
		d.block("*Attached:* " + strings.Join(names, ", "))
	}
	d.inputs(t)
	if d.b.Len() == you {
		d.block("*(no message: only tool outputs went to the model)*")
	}
	d.block("### Assistant")
	n0 := d.b.Len()
	noted := false
	for i := range group {
		r := &group[i]
		if i > 0 {
			d.inputs(r)
		}
		for _, resp := range r.Responses {
			for _, it := range resp.Items {
				if si := stream.StoredItem(it.Raw); si != nil {
					d.item(si, it.Done)
				} else {
					d.block("*(an item that is not a JSON object was left out)*")
				}
			}
		}
		d.endSearches()
		if note := statusNote(r); note != "" {
			d.block(note)
			noted = true
		}
	}
	if !noted && d.b.Len() == n0 {
		d.block("*No output.*")
	}
}

// inputs writes what a stored turn sent besides messages (an output whose
// call is in the session is written under the call instead).
func (d *doc) inputs(t *store.Turn) {
	for _, in := range t.Input {
		if it := stream.StoredItem(in); it != nil && !isMessage(it) {
			d.item(it, true)
		}
	}
}

// userText is the text of the user messages in input, for a turn stored
// without its prompt.
func userText(input []json.RawMessage) string {
	var out []string
	for _, in := range input {
		it := stream.StoredItem(in)
		if it == nil || !isMessage(it) || it.Role != "user" {
			continue
		}
		out = append(out, it.PartsText())
	}
	return strings.Join(out, "\n\n")
}

// isMessage reports whether it is a message (input messages may leave out
// their type; StoredItem then calls them messages).
func isMessage(it *stream.Item) bool {
	return stream.KindFor(it.Type).Class == stream.ClassMessage
}

// statusNote says how a turn that did not complete ended, "" when it did.
func statusNote(t *store.Turn) string {
	why := stream.SanitizeLine(t.Error)
	switch t.Status {
	case store.StatusCompleted, "":
		return ""
	case store.StatusIncomplete:
		if why == "" {
			why = "the response ended early (for example at the output token limit)"
		}
		return "**Incomplete:** " + why + "."
	case store.StatusFailed:
		switch why {
		case stream.CutOffNote:
			return "**Cut off:** " + why + " — the partial answer is kept above."
		case "":
			why = "no reason was recorded"
		}
		return "**Failed:** " + why
	case store.StatusStopped:
		if len(t.Responses) == 0 && !t.UserTurn() {
			return "**Stopped** by the user before the tool outputs were sent back."
		}
		return "**Stopped** by the user; the answer above is partial."
	case store.StatusInterrupted:
		return "**Interrupted:** runnel exited before the answer finished; the answer above is partial."
	case store.StatusStreaming:
		return "**Still streaming** when exported; the answer above is partial."
	}
	return "**Status:** " + stream.SanitizeLine(string(t.Status))
}
