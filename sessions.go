package main

// This file holds the history commands: `sessions` (list), `sessions rm`,
// `search`, `export` and `import`. Each opens the session store named by
// --data-dir, does one thing, and closes it; without the store they cannot go
// on, so a store that will not open is the store's one-line error and exit 1.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/spf13/cobra"

	"runnel/session/export"
	"runnel/session/store"
	"runnel/stream"
	"runnel/theme"
)

// dataDirFlag is the persistent flag naming the history directory.
const dataDirFlag = "data-dir"

// addSessionCommands adds the history commands and the persistent --data-dir
// flag to root.
func addSessionCommands(ctx context.Context, root *cobra.Command, stdin io.Reader, stdout, stderr io.Writer) {
	h := &historyCmds{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, terminal: isTerminal, now: time.Now}
	h.add(root)
}

// dataDir returns the history database that cmd's --data-dir names
// (DIR/runnel.db), else store.DefaultPath().
func dataDir(cmd *cobra.Command) (string, error) {
	if f := cmd.Flag(dataDirFlag); f != nil && f.Value.String() != "" {
		return filepath.Join(f.Value.String(), "runnel.db"), nil
	}
	return store.DefaultPath()
}

// historyCmds runs the history commands.
//
// Invariants: every command's RunE returns its status as an *exitError (nil
// for success) after printing its message; terminal and now are isTerminal
// and time.Now outside tests.
type historyCmds struct {
	ctx            context.Context // cancels a wait on stdin (a prompt, import -)
	stdin          io.Reader
	stdout, stderr io.Writer
	terminal       func(any) bool
	now            func() time.Time
}

// add adds `sessions list|rm|search|export|import` to root, with `sessions`
// alone listing, and the older top-level spellings `runnel search`,
// `runnel export` and `runnel import` as hidden aliases.
func (h *historyCmds) add(root *cobra.Command) {
	root.PersistentFlags().String(dataDirFlag, "", "directory of the session history (default $XDG_DATA_HOME/runnel)")
	sessions := h.listCmd("sessions")
	sessions.AddCommand(h.listCmd("list"), h.rmCmd(), h.searchCmd(), h.exportCmd(), h.importCmd())
	root.AddCommand(sessions)
	for _, c := range []*cobra.Command{h.searchCmd(), h.exportCmd(), h.importCmd()} {
		c.Hidden = true
		c.Short += " (also: runnel sessions " + c.Name() + ")"
		root.AddCommand(c)
	}
}

// runE adapts a command that returns its exit status to RunE.
func runE(fn func(cmd *cobra.Command, args []string) int) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error { return exitWith(fn(cmd, args)) }
}

func (h *historyCmds) listCmd(use string) *cobra.Command {
	var asJSON bool
	var limit int
	list := &cobra.Command{
		Use:   use,
		Short: "List saved sessions, most recently updated first",
		Long: "List saved sessions, most recently updated first: id, when it was last updated, turns, model and title.\n" +
			"--json prints JSON Lines, one object per session: id, title, turns, model, created, updated (RFC 3339),\n" +
			"updated_ago and preview. Resume one with: runnel -r ID",
		Args: cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, _ []string) int { return h.list(cmd, asJSON, limit) }),
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON Lines, one object per session")
	list.Flags().IntVar(&limit, "limit", 0, "list at most N sessions (0: all)")
	return list
}

func (h *historyCmds) rmCmd() *cobra.Command {
	var yes bool
	rm := &cobra.Command{
		Use:     "rm ID",
		Aliases: []string{"delete"},
		Short:   "Delete a session (a unique prefix of its id is enough)",
		Args:    cobra.ExactArgs(1),
		RunE:    runE(func(cmd *cobra.Command, a []string) int { return h.remove(cmd, a[0], yes) }),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return sessionIDs(cmd), cobra.ShellCompDirectiveNoFileComp
		},
	}
	rm.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking")
	return rm
}

func (h *historyCmds) searchCmd() *cobra.Command {
	var searchJSON bool
	var searchLimit int
	search := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search every saved prompt, answer, reasoning summary and tool call",
		Long: "Search every saved prompt, answer, reasoning summary and tool call for turns holding all the words\n" +
			"of QUERY (\"streams\" finds \"streaming\"), best first. On a terminal matches are highlighted,\n" +
			"elsewhere they are marked [like this]. --json prints JSON Lines, one object per hit: id, title, turn,\n" +
			"snippet and marks (byte ranges of the matches in snippet). Resume a session with: runnel -r ID",
		Args: cobra.MinimumNArgs(1),
		RunE: runE(func(cmd *cobra.Command, a []string) int {
			return h.search(cmd, strings.Join(a, " "), searchJSON, searchLimit)
		}),
	}
	search.Flags().BoolVar(&searchJSON, "json", false, "print JSON Lines, one object per hit")
	search.Flags().IntVar(&searchLimit, "limit", 20, "show at most N hits (0: 20)")
	return search
}

func (h *historyCmds) exportCmd() *cobra.Command {
	var format, out string
	exp := &cobra.Command{
		Use:   "export ID",
		Short: "Write a session as markdown or JSON (to stdout, or a file with -o)",
		Long: "Write a session as a readable markdown transcript, or as JSON that `runnel sessions import` reads back.\n" +
			"The format defaults to json when -o names a .json file, else markdown. Files are written 0600.",
		Args: cobra.ExactArgs(1),
		RunE: runE(func(cmd *cobra.Command, a []string) int { return h.export(cmd, a[0], format, out) }),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return sessionIDs(cmd), cobra.ShellCompDirectiveNoFileComp
		},
	}
	exp.Flags().StringVar(&format, "format", "", "markdown or json (default: json for a .json -o file, else markdown)")
	exp.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of stdout")
	exp.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]cobra.Completion{"markdown", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return exp
}

func (h *historyCmds) importCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Add a session from a JSON export (a file, or - for stdin)",
		Args:  cobra.ExactArgs(1),
		RunE:  runE(func(cmd *cobra.Command, a []string) int { return h.importFile(cmd, a[0]) }),
	}
}

// open opens the history, or reports why it cannot and returns the status.
func (h *historyCmds) open(cmd *cobra.Command) (*store.DB, int) {
	path, err := dataDir(cmd)
	if err != nil {
		warnf(h.stderr, "cannot locate the session history: %s; pass --%s DIR", errLine(err), dataDirFlag)
		return nil, exitFailure
	}
	db, err := store.Open(path)
	if err != nil {
		warnf(h.stderr, "%s", errLine(err))
		return nil, exitFailure
	}
	return db, exitOK
}

// fail reports a store error and returns its status: a missing or ambiguous
// id and bad input are the caller's (2), anything else the store's (1).
func (h *historyCmds) fail(err error) int {
	msg := errLine(err)
	notFound := errors.Is(err, store.ErrNotFound)
	if notFound {
		msg += "; list sessions with: runnel sessions"
	}
	warnf(h.stderr, "%s", msg)
	if notFound || errors.Is(err, store.ErrAmbiguous) || errors.Is(err, store.ErrBadInput) {
		return exitUsage
	}
	return exitFailure
}

func (h *historyCmds) warn(warnings []error) {
	for _, w := range warnings {
		warnf(h.stderr, "warning: %s", errLine(w))
	}
}

func badLimit(w io.Writer, n int) int {
	warnf(w, "--limit %d: want 0 or more", n)
	return exitUsage
}

// sessionLine is one session in `sessions --json`.
type sessionLine struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	Turns      int    `json:"turns"`
	Model      string `json:"model"`
	Created    string `json:"created"`
	Updated    string `json:"updated"`
	UpdatedAgo string `json:"updated_ago"`
	Preview    string `json:"preview"`
}

func (h *historyCmds) list(cmd *cobra.Command, asJSON bool, limit int) int {
	if limit < 0 {
		return badLimit(h.stderr, limit)
	}
	db, code := h.open(cmd)
	if db == nil {
		return code
	}
	defer db.Close()
	infos, err := db.List(limit)
	if err != nil {
		return h.fail(err)
	}
	now := h.now()
	if asJSON {
		enc := json.NewEncoder(h.stdout)
		enc.SetEscapeHTML(false)
		for _, s := range infos {
			enc.Encode(sessionLine{
				ID: string(s.ID), Title: stream.SanitizeLine(s.Title), Turns: s.Turns,
				Model: stream.SanitizeLine(s.Model), Created: rfc3339(s.Created), Updated: rfc3339(s.Updated),
				UpdatedAgo: ago(s.Updated, now), Preview: stream.SanitizeLine(s.Preview),
			})
		}
		return exitOK
	}
	if len(infos) == 0 {
		fmt.Fprintf(h.stdout, "no sessions yet in %s\n", db.Path())
		return exitOK
	}
	rows := [][]string{{"ID", "UPDATED", "TURNS", "MODEL", "TITLE"}}
	for _, s := range infos {
		rows = append(rows, []string{string(s.ID), ago(s.Updated, now), fmt.Sprint(s.Turns),
			stream.SanitizeLine(s.Model), stream.SanitizeLine(s.Title)})
	}
	writeTable(h.stdout, rows, h.width(cmd))
	return exitOK
}

// width is the table width: --width when the root has it and it is set, the
// terminal's, else 100.
func (h *historyCmds) width(cmd *cobra.Command) int {
	if f := cmd.Flag("width"); f != nil {
		var w int
		if _, err := fmt.Sscan(f.Value.String(), &w); err == nil && w > 0 {
			return w
		}
	}
	if f, ok := h.stdout.(*os.File); ok && h.terminal(f) {
		if w := terminalWidth(f); w > 0 {
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

func (h *historyCmds) remove(cmd *cobra.Command, arg string, yes bool) int {
	db, code := h.open(cmd)
	if db == nil {
		return code
	}
	defer db.Close()
	id, err := db.Resolve(arg)
	if err != nil {
		return h.fail(err)
	}
	s, _, err := db.Load(id)
	if err != nil {
		return h.fail(err)
	}
	title := stream.SanitizeLine(s.Info.Title)
	if !yes {
		if !h.terminal(h.stdin) {
			warnf(h.stderr, "not deleting %s without confirmation: stdin is not a terminal; pass --yes to delete it", id)
			return exitUsage
		}
		fmt.Fprintf(h.stderr, "delete %q (%d turns)? [y/N] ", title, len(s.Turns))
		answer, err := h.readLine()
		if err != nil {
			fmt.Fprintln(h.stderr)
			if errors.Is(err, context.Canceled) {
				return exitInterrupt
			}
			warnf(h.stderr, "kept %s: no answer (%s)", id, errLine(err))
			return exitFailure
		}
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintf(h.stderr, "kept %s\n", id)
			return exitOK
		}
	}
	if err := db.Delete(id); err != nil {
		return h.fail(err)
	}
	fmt.Fprintf(h.stdout, "deleted %s (%s)\n", id, title)
	return exitOK
}

// readLine reads one line of stdin, giving up when the context ends (an
// interrupt must not leave the process waiting on the terminal).
func (h *historyCmds) readLine() (string, error) {
	return waitRead(h.ctx, func() (string, error) {
		line, err := bufio.NewReader(h.stdin).ReadString('\n')
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

// hitLine is one hit in `search --json`.
type hitLine struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Turn    int      `json:"turn"`
	Snippet string   `json:"snippet"`
	Marks   [][2]int `json:"marks"`
}

func (h *historyCmds) search(cmd *cobra.Command, query string, asJSON bool, limit int) int {
	if limit < 0 {
		return badLimit(h.stderr, limit)
	}
	db, code := h.open(cmd)
	if db == nil {
		return code
	}
	defer db.Close()
	hits, err := db.Search(query, limit)
	if err != nil {
		return h.fail(err)
	}
	if asJSON {
		enc := json.NewEncoder(h.stdout)
		enc.SetEscapeHTML(false)
		for _, hit := range hits {
			snippet, marks := cleanSnippet(hit.Snippet, hit.Marks)
			line := hitLine{ID: string(hit.Session), Title: stream.SanitizeLine(hit.Title), Turn: hit.Turn, Snippet: snippet, Marks: [][2]int{}}
			for _, m := range marks {
				line.Marks = append(line.Marks, [2]int{m.Start, m.End})
			}
			enc.Encode(line)
		}
		return exitOK
	}
	if len(hits) == 0 {
		fmt.Fprintf(h.stdout, "no saved turn matches %q\n", stream.SanitizeLine(query))
		return exitOK
	}
	mark := h.highlighter()
	for _, hit := range hits {
		snippet, marks := cleanSnippet(hit.Snippet, hit.Marks)
		fmt.Fprintf(h.stdout, "%s  turn %d  %s\n", hit.Session, hit.Turn, stream.SanitizeLine(hit.Title))
		fmt.Fprintf(h.stdout, "    %s\n", markSpans(snippet, marks, mark))
	}
	fmt.Fprintf(h.stdout, "resume a session with: runnel -r %s\n", hits[0].Session)
	return exitOK
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
func (h *historyCmds) highlighter() func(string) string {
	f, ok := h.stdout.(*os.File)
	if !ok || !h.terminal(f) {
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

func (h *historyCmds) export(cmd *cobra.Command, arg, format, out string) int {
	if format == "" {
		format = "markdown"
		if strings.EqualFold(filepath.Ext(out), ".json") {
			format = "json"
		}
	}
	if format == "md" {
		format = "markdown"
	}
	if format != "markdown" && format != "json" {
		warnf(h.stderr, "unknown --format %q for export: use markdown or json", stream.SanitizeLine(format))
		return exitUsage
	}
	db, code := h.open(cmd)
	if db == nil {
		return code
	}
	defer db.Close()
	id, err := db.Resolve(arg)
	if err != nil {
		return h.fail(err)
	}
	var data []byte
	if format == "json" {
		f, err := db.Export(id)
		if err != nil {
			return h.fail(err)
		}
		h.warn(f.Warnings)
		data = f.Data
	} else {
		s, warnings, err := db.Load(id)
		if err != nil {
			return h.fail(err)
		}
		h.warn(warnings)
		var b strings.Builder
		export.Markdown(&b, s) // a strings.Builder does not fail
		data = []byte(b.String())
	}
	if out == "" || out == "-" {
		w := h.stdout
		if format == "json" {
			w = jsonSafeWriter{w} // stored items may hold raw C1 controls; a file keeps them byte for byte
		}
		if _, err := w.Write(data); err != nil {
			warnf(h.stderr, "cannot write the export: %s", errLine(err))
			return exitFailure
		}
		return exitOK
	}
	if err := writePrivate(out, data); err != nil {
		warnf(h.stderr, "cannot write %s: %s; choose another -o path", out, errLine(bareErr(err)))
		return exitFailure
	}
	fmt.Fprintf(h.stdout, "exported %s to %s (%s)\n", id, out, format)
	return exitOK
}

// writePrivate writes data to path, readable by its owner only (0600 even
// when path existed with wider permissions), through a temporary file in
// the same directory so a failure leaves the old file whole.
func writePrivate(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	return err
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

func (h *historyCmds) importFile(cmd *cobra.Command, name string) int {
	var data []byte
	var err error
	if name == "-" {
		name = "stdin"
		data, err = waitRead(h.ctx, func() ([]byte, error) { return io.ReadAll(h.stdin) })
	} else {
		data, err = os.ReadFile(name)
	}
	if errors.Is(err, context.Canceled) {
		return exitInterrupt
	}
	if err != nil {
		warnf(h.stderr, "cannot read %s: %s", name, errLine(bareErr(err)))
		return exitUsage
	}
	db, code := h.open(cmd)
	if db == nil {
		return code
	}
	defer db.Close()
	id, err := db.Import(data)
	if errors.Is(err, store.ErrBadInput) {
		warnf(h.stderr, "cannot import %s: %s", name, strings.TrimPrefix(errLine(err), "import: "))
		return exitUsage
	}
	if err != nil {
		return h.fail(err)
	}
	fmt.Fprintf(h.stdout, "imported %s\nresume with: runnel -r %s\n", id, id)
	return exitOK
}
