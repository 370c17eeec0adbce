package sessions

// This file holds the commands: list, rm, search, export and import.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"
	"golang.org/x/term"

	"runnel/session/export"
	"runnel/session/knob"
	"runnel/session/models"
	"runnel/session/regfile"
	"runnel/session/store"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/output"
)

// Env is what the commands read and write.
//
// Invariants: Terminal and Now are set (isTerminal and time.Now outside
// tests); DB names the database unless DBErr says why it cannot.
type Env struct {
	Ctx            context.Context // cancels a wait on stdin (a prompt, import -)
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Terminal       func(any) bool
	Now            func() time.Time
	Width          int          // table width; 0: the terminal's, else 100
	DB             string       // the history database
	DBErr          error        // why there is none
	DataDirFlag    string       // the flag that names its directory, for messages
	Prices         models.Table // prices the COST column; the zero Table is the built-in one
	// Remote is the configured provider's client and a new session's
	// settings (import --conversation); nil where the command has none.
	Remote func() (*stream.Client, knob.Settings, error)
}

// UsageError is a mistake of the caller's: a bad flag value, an unknown or
// ambiguous id, input that is not an export.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// NoMatchError is a search that found nothing: like grep, the command
// exits 1 with this one line (on stderr), and prints nothing on stdout.
type NoMatchError struct{ Query string }

func (e *NoMatchError) Error() string {
	return fmt.Sprintf("no session matches %q", stream.SanitizeLine(e.Query))
}

func usagef(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}

// open opens the history, or says why it cannot.
func (h Env) open() (*store.DB, error) {
	if h.DBErr != nil {
		return nil, fmt.Errorf("cannot locate the session history: %s; pass --%s DIR", line(h.DBErr), h.DataDirFlag)
	}
	return store.Open(h.DB)
}

// openLimited checks --limit, then opens the history.
func (h Env) openLimited(limit int) (*store.DB, error) {
	if limit < 0 {
		return nil, badLimit(limit)
	}
	return h.open()
}

// openSession opens the history and resolves arg (an id or its prefix) in
// it. The caller closes db when err is nil.
func (h Env) openSession(arg string) (*store.DB, store.SessionID, error) {
	db, err := h.open()
	if err != nil {
		return nil, "", err
	}
	id, err := db.Resolve(arg)
	if err != nil {
		db.Close()
		return nil, "", fail(err)
	}
	return db, id, nil
}

// jsonLines encodes JSON Lines on stdout, leaving <, > and & as they are.
func (h Env) jsonLines() *json.Encoder {
	enc := json.NewEncoder(h.Stdout)
	enc.SetEscapeHTML(false)
	return enc
}

// fail is a store error as returned: a missing or ambiguous id and bad
// input are the caller's, anything else the store's.
func fail(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return &UsageError{fmt.Errorf("%s; list sessions with: runnel sessions", line(err))}
	}
	if errors.Is(err, store.ErrAmbiguous) || errors.Is(err, store.ErrBadInput) {
		return &UsageError{err}
	}
	return err
}

func (h Env) warn(warnings []error) {
	for _, w := range warnings {
		fmt.Fprintf(h.Stderr, "runnel: warning: %s\n", line(w))
	}
}

// line is an error as one sanitized line.
func line(err error) string { return stream.SanitizeLine(err.Error()) }

func badLimit(n int) error { return usagef("--limit %d: want 0 or more", n) }

// SessionLine is one session in `sessions --json`.
type SessionLine struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	Turns      int    `json:"turns"`
	Model      string `json:"model"`
	Created    string `json:"created"`
	Updated    string `json:"updated"`
	UpdatedAgo string `json:"updated_ago"`
	Preview    string `json:"preview"`
	// Cost is the session's cost in US dollars, each turn priced as the
	// model that answered it; null when any turn's model has no price.
	Cost *float64 `json:"cost"`
}

// List lists the saved sessions, most recently updated first: a table, or
// JSON Lines.
func (h Env) List(asJSON bool, limit int) error {
	db, err := h.openLimited(limit)
	if err != nil {
		return err
	}
	defer db.Close()
	infos, err := db.List(limit)
	if err != nil {
		return fail(err)
	}
	now := h.Now()
	if asJSON {
		enc := h.jsonLines()
		for _, s := range infos {
			line := SessionLine{
				ID: string(s.ID), Title: stream.SanitizeLine(s.Title), Turns: s.Turns,
				Model: stream.SanitizeLine(s.Model), Created: rfc3339(s.Created), Updated: rfc3339(s.Updated),
				UpdatedAgo: ago(s.Updated, now), Preview: stream.SanitizeLine(s.Preview),
			}
			if d, ok := sessionCost(db, h.Prices, s); ok {
				line.Cost = &d
			}
			enc.Encode(line)
		}
		return nil
	}
	if len(infos) == 0 {
		fmt.Fprintf(h.Stdout, "no sessions yet in %s\n", db.Path())
		return nil
	}
	rows := [][]string{{"ID", "UPDATED", "TURNS", "MODEL", "COST", "TITLE"}}
	for _, s := range infos {
		rows = append(rows, []string{string(s.ID), ago(s.Updated, now), fmt.Sprint(s.Turns),
			stream.SanitizeLine(s.Model), costCell(sessionCost(db, h.Prices, s)), stream.SanitizeLine(s.Title)})
	}
	writeTable(h.Stdout, rows, h.width())
	return nil
}

// width is the table width: Width when set, the terminal's, else 100.
func (h Env) width() int {
	if h.Width > 0 {
		return h.Width
	}
	if f, ok := h.Stdout.(*os.File); ok && h.Terminal(f) {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return 100
}

// writeTable writes rows as aligned columns two spaces apart, the third
// column right-aligned, the fourth at most 24 columns wide and the last cut
// to what is left of width.
func writeTable(w io.Writer, rows [][]string, width int) {
	const gap, maxModel, minLast = 2, 24, 12
	cols := len(rows[0])
	widths := make([]int, cols)
	for _, r := range rows {
		for i, c := range r[:cols-1] {
			widths[i] = max(widths[i], runewidth.StringWidth(c))
		}
	}
	widths[3] = min(widths[3], maxModel)
	used := 0
	for _, n := range widths[:cols-1] {
		used += n + gap
	}
	last := max(width-used, minLast)
	var b strings.Builder
	for _, r := range rows {
		b.Reset()
		for i, c := range r[:cols-1] {
			c = runewidth.Truncate(c, widths[i], "…")
			if i == 2 {
				b.WriteString(runewidth.FillLeft(c, widths[i]))
			} else {
				b.WriteString(runewidth.FillRight(c, widths[i]))
			}
			b.WriteString(strings.Repeat(" ", gap))
		}
		b.WriteString(runewidth.Truncate(r[cols-1], last, "…"))
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// ago says how long before now t was: "just now", "3m ago", "5h ago",
// "2d ago", then the date.
func ago(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case t.IsZero():
		return "never"
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", d/time.Minute)
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", d/time.Hour)
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", d/(24*time.Hour))
	}
	return t.Local().Format("2006-01-02")
}

// Remove deletes a session, after asking on a terminal unless yes.
func (h Env) Remove(arg string, yes bool) error {
	db, id, err := h.openSession(arg)
	if err != nil {
		return err
	}
	defer db.Close()
	s, _, err := db.Load(id)
	if err != nil {
		return fail(err)
	}
	title := stream.SanitizeLine(s.Info.Title)
	if !yes {
		if !h.Terminal(h.Stdin) {
			return usagef("not deleting %s without confirmation: stdin is not a terminal; pass --yes to delete it", id)
		}
		fmt.Fprintf(h.Stderr, "delete %q (%d turns)? [y/N] ", title, s.Info.Turns)
		answer, err := h.readLine()
		if err != nil {
			fmt.Fprintln(h.Stderr)
			if errors.Is(err, context.Canceled) {
				return err
			}
			return fmt.Errorf("kept %s: no answer (%s)", id, line(err))
		}
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintf(h.Stderr, "kept %s\n", id)
			return nil
		}
	}
	if err := db.Delete(id); err != nil {
		return fail(err)
	}
	fmt.Fprintf(h.Stdout, "deleted %s (%s)\n", id, title)
	return nil
}

// readLine reads one line of stdin, giving up when the context ends (an
// interrupt must not leave the process waiting on the terminal).
func (h Env) readLine() (string, error) {
	return waitRead(h.Ctx, func() (string, error) {
		line, err := bufio.NewReader(h.Stdin).ReadString('\n')
		if err == io.EOF && line != "" {
			err = nil
		}
		return line, err
	})
}

// waitRead runs read on its own goroutine and returns its result, or the
// context's error when that comes first (read is then left to finish alone).
func waitRead[T any](ctx context.Context, read func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := read()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// HitLine is one hit in `search --json`.
type HitLine struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Turn    int      `json:"turn"` // the user turn, numbered as lists count them (tool rounds are part of theirs)
	Snippet string   `json:"snippet"`
	Marks   [][2]int `json:"marks"`
}

// Search prints the saved turns that match query, best first.
func (h Env) Search(query string, asJSON bool, limit int) error {
	db, err := h.openLimited(limit)
	if err != nil {
		return err
	}
	defer db.Close()
	hits, err := db.Search(query, limit)
	if err != nil {
		return fail(err)
	}
	if asJSON {
		enc := h.jsonLines()
		for _, hit := range hits {
			snippet, marks := cleanSnippet(hit.Snippet, hit.Marks)
			line := HitLine{ID: string(hit.Session), Title: stream.SanitizeLine(hit.Title), Turn: hit.UserTurn, Snippet: snippet, Marks: [][2]int{}}
			for _, m := range marks {
				line.Marks = append(line.Marks, [2]int{m.Start, m.End})
			}
			enc.Encode(line)
		}
		if len(hits) == 0 {
			return &NoMatchError{query}
		}
		return nil
	}
	if len(hits) == 0 {
		return &NoMatchError{query}
	}
	mark := h.highlighter()
	for _, hit := range hits {
		snippet, marks := cleanSnippet(hit.Snippet, hit.Marks)
		fmt.Fprintf(h.Stdout, "%s  turn %d  %s\n", hit.Session, hit.UserTurn, stream.SanitizeLine(hit.Title))
		fmt.Fprintf(h.Stdout, "    %s\n", markSpans(snippet, marks, mark))
	}
	fmt.Fprintf(h.Stdout, "resume a session with: runnel -r %s\n", hits[0].Session)
	return nil
}

// cleanSnippet returns the snippet safe to print and the marks that fit it:
// in range, in order, not overlapping, on UTF-8 boundaries. A snippet that
// needed sanitizing loses its marks (their offsets no longer hold).
func cleanSnippet(s string, marks []store.Span) (string, []store.Span) {
	if clean := stream.SanitizeLine(s); clean != s {
		return clean, nil
	}
	var out []store.Span
	at := 0
	for _, m := range marks {
		if m.Start < at || m.End <= m.Start || m.End > len(s) || !runeStart(s, m.Start) || !runeStart(s, m.End) {
			continue
		}
		out = append(out, m)
		at = m.End
	}
	return s, out
}

func runeStart(s string, i int) bool { return i == len(s) || i == 0 || s[i]&0xC0 != 0x80 }

// highlighter returns how matches are shown: the theme's highlight style on
// a terminal, [brackets] elsewhere.
func (h Env) highlighter() func(string) string {
	f, ok := h.Stdout.(*os.File)
	if !ok || !h.Terminal(f) {
		return func(s string) string { return "[" + s + "]" }
	}
	noColor := os.Getenv("NO_COLOR") != ""
	dark := noColor || theme.DetectDark(os.Stdin, f)
	st := theme.New(theme.Pick(dark, noColor, ""))
	return func(s string) string { return st.Highlight.Render(s) }
}

func markSpans(s string, marks []store.Span, mark func(string) string) string {
	var b strings.Builder
	at := 0
	for _, m := range marks {
		b.WriteString(s[at:m.Start])
		b.WriteString(mark(s[m.Start:m.End]))
		at = m.End
	}
	b.WriteString(s[at:])
	return b.String()
}

// Export writes a session as markdown, JSON or an HTML page, to stdout or
// (0600) to out.
func (h Env) Export(arg, format, out string) error {
	if format == "" {
		format = "markdown"
		switch strings.ToLower(filepath.Ext(out)) {
		case ".json":
			format = "json"
		case ".html", ".htm":
			format = "html"
		}
	}
	if format == "md" {
		format = "markdown"
	}
	if format != "markdown" && format != "json" && format != "html" {
		return usagef("unknown --format %q for export: use markdown, json or html", stream.SanitizeLine(format))
	}
	db, id, err := h.openSession(arg)
	if err != nil {
		return err
	}
	defer db.Close()
	var data []byte
	if format == "json" {
		f, err := db.Export(id)
		if err != nil {
			return fail(err)
		}
		h.warn(f.Warnings)
		data = f.Data
	} else {
		s, warnings, err := db.Load(id)
		if err != nil {
			return fail(err)
		}
		h.warn(warnings)
		var b strings.Builder
		if format == "html" {
			export.HTML(&b, s, export.Style(theme.HTML(theme.Light()))) // a strings.Builder does not fail; a page is read in a browser: the light look
		} else {
			export.Markdown(&b, s)
		}
		data = []byte(b.String())
	}
	if out == "" || out == "-" {
		w := h.Stdout
		if format == "json" {
			w = output.JSONSafe(w) // stored items may hold raw C1 controls; a file keeps them byte for byte
		}
		if _, err := w.Write(data); err != nil {
			return fmt.Errorf("cannot write the export: %s", line(err))
		}
		return nil
	}
	if err := regfile.WritePrivate(out, data); err != nil {
		return fmt.Errorf("cannot write %s: %s; choose another -o path", out, line(bareErr(err)))
	}
	fmt.Fprintf(h.Stdout, "exported %s to %s (%s)\n", id, out, format)
	return nil
}

// bareErr drops the operation and path an *fs.PathError or *os.LinkError adds
// (the caller names the file itself).
func bareErr(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// Import adds a session from a JSON export: a file, or - for stdin.
func (h Env) Import(name string) error {
	var data []byte
	var err error
	limit := store.MaxImportBytes()
	if name == "-" {
		name = "stdin"
		data, err = waitRead(h.Ctx, func() ([]byte, error) { return io.ReadAll(io.LimitReader(h.Stdin, int64(limit)+1)) })
	} else {
		data, err = regfile.ReadFile(name, int64(limit)) // a FIFO or a device is refused, not waited on
	}
	var tooLarge *regfile.TooLargeError
	if errors.As(err, &tooLarge) || len(data) > limit {
		return usagef("cannot import %s: larger than %s, the most one import holds ([limits] import_bytes)", name, stream.FormatBytes(limit))
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	if err != nil {
		return usagef("cannot read %s: %s", name, line(bareErr(err)))
	}
	db, err := h.open()
	if err != nil {
		return err
	}
	defer db.Close()
	id, err := db.Import(data)
	if errors.Is(err, store.ErrBadInput) {
		return usagef("cannot import %s: %s", name, strings.TrimPrefix(line(err), "import: "))
	}
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(h.Stdout, "imported %s\nresume with: runnel -r %s\n", id, id)
	return nil
}

// ImportConversation pulls server-side conversation conv (every item, page
// by page) from the configured provider into a new session, which
// continues that conversation when resumed.
func (h Env) ImportConversation(conv string) error {
	if h.Remote == nil {
		return usagef("no provider to import conversation %s from", stream.SanitizeLine(conv))
	}
	client, settings, err := h.Remote()
	if err != nil {
		return usagef("%s", line(err))
	}
	items, err := client.ConversationItems(h.Ctx, conv)
	if errors.Is(err, context.Canceled) {
		return err
	}
	var apiErr *stream.APIError
	if errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound && apiErr.Message != "" {
		// the endpoint answered: it is the conversation that is missing
		return fmt.Errorf("cannot import conversation %s: %s (is it this provider's? -c provider=NAME or base_url picks another)", stream.SanitizeLine(conv), apiErr.Message)
	}
	if err != nil { // the line names the conversation once
		return fmt.Errorf("cannot import conversation %s: %s", stream.SanitizeLine(conv), strings.TrimPrefix(line(err), "conversation "+stream.SanitizeLine(conv)+": "))
	}
	data, err := store.ConversationDoc(conv, items, settings.Continuing(conv).JSON(), h.Now())
	if err != nil {
		return fmt.Errorf("cannot import: %s", line(err))
	}
	db, err := h.open()
	if err != nil {
		return err
	}
	defer db.Close()
	id, err := db.Import(data)
	if err != nil {
		return fmt.Errorf("cannot import conversation %s: %s", stream.SanitizeLine(conv), strings.TrimPrefix(line(err), "import: "))
	}
	fmt.Fprintf(h.Stdout, "imported conversation %s (%d items) as %s\nresume with: runnel -r %s\n", stream.SanitizeLine(conv), len(items), id, id)
	return nil
}
