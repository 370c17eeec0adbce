package ui

// This file is the composer's @ completion part: a popup, like the slash
// menu, of what the @word being typed (or the PATH of /attach PATH)
// completes to. Files of the working directory's tree are matched fuzzily
// (github.com/sahilm/fuzzy, as bubbles' list filters), so @ain finds
// main.go; a path outside the tree (/…, ~/…, ../…) completes by prefix,
// directory by directory; @mcp: completes the MCP servers' resources. The
// tree is listed when the popup opens, off the Update loop (listFiles),
// bounded in files and time; the last listing shows until the new one
// comes. Up and down move, tab or enter takes the selected row:
// a file or a resource becomes a chip, a directory goes on being completed.

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"runnel/session/attach"
	"runnel/session/tools"
	"runnel/stream"
	"runnel/theme"
)

// Bounds of the file listing behind the @ popup.
const (
	mentionFilesMax = 20_000          // files listed; a bigger tree is cut (the popup says so)
	mentionListTime = 2 * time.Second // the listing stops after this long
)

// mentionRow is one completion: a path (relative to the listing's root, a
// directory ending in "/"), or an MCP resource.
type mentionRow struct {
	path string
	res  *tools.Resource
}

// mentionMenu completes @mentions.
//
// Invariants:
//   - open is true while the text ends with a mention being typed (at
//     start, query the path typed so far) and the text is not dismissed;
//     rows then hold its completions, best first, at most completionMax,
//     and sel is a cursor over them.
//   - files is the last listing of dir, nil before the first; a listing is
//     asked for at most once per popup (listing; loaded once it came).
//   - resources are as the servers listed them.
type mentionMenu struct {
	resources []tools.Resource // the MCP servers' resources, @mcp:SERVER:URI (mcpextras.go)
	dir       string           // the tree listed: "" is the working directory
	files     []string         // its files, relative, slash-separated, shallow first
	loaded    bool
	listing   bool
	capped    bool // the listing stopped at mentionFilesMax or mentionListTime
	open      bool
	attachCmd bool // the mention is /attach's PATH, not an @word
	start     int  // where the completed text is written: the @, or after "/attach "
	query     string
	rows      []mentionRow
	sel       listCursor
	dismissed string // the text a row was just taken into: no popup for it
}

// mentionFilesMsg is a listing of the tree for the @ popup.
type mentionFilesMsg struct {
	dir    string
	files  []string
	capped bool
}

// update opens, closes and refills the popup for text.
func (m *mentionMenu) update(text string) {
	if m.open {
		defer func() {
			if !m.open {
				m.loaded = false // the next popup lists the tree again (files come and go); until then it shows this listing
			}
		}()
	}
	m.open, m.rows = false, nil
	if text == m.dismissed {
		return
	}
	m.dismissed = ""
	if rest, ok := strings.CutPrefix(text, "/attach "); ok && !strings.Contains(rest, "\n") {
		m.query = strings.TrimLeft(rest, " ")
		m.start, m.attachCmd = len(text)-len(m.query), true
	} else if at, ok := attach.MentionAt(text, len(text)); ok {
		m.query, m.start, m.attachCmd = at.Path, at.Start, false
	} else {
		return
	}
	m.open = true
	m.rows = m.match(m.query)
	m.sel = newListCursor(len(m.rows))
	m.sel.SetPage(menuMaxItems)
}

// match is the completions of query.
func (m mentionMenu) match(query string) []mentionRow {
	var rows []mentionRow
	switch {
	case !m.attachCmd && strings.HasPrefix(query, mcpPrefix):
		names := make([]string, len(m.resources))
		for i, r := range m.resources {
			names[i] = mcpMention(r)
		}
		for _, i := range fuzzyIndexes(strings.TrimPrefix(query, mcpPrefix), names) {
			rows = append(rows, mentionRow{path: names[i], res: &m.resources[i]})
		}
	case outsideTree(query):
		for _, p := range attach.Complete(query, completionMax) {
			rows = append(rows, mentionRow{path: p})
		}
	default:
		for _, i := range fuzzyIndexes(query, m.files) {
			rows = append(rows, mentionRow{path: m.files[i]})
		}
	}
	return rows[:min(len(rows), completionMax)]
}

// fuzzyIndexes are the indexes of the strings of data that query matches
// fuzzily, best first; all of them, in order, for an empty query.
func fuzzyIndexes(query string, data []string) []int {
	var out []int
	if query == "" {
		for i := range min(len(data), completionMax) {
			out = append(out, i)
		}
		return out
	}
	for _, r := range fuzzy.Find(query, data) {
		out = append(out, r.Index)
	}
	return out
}

// outsideTree reports whether a typed path points outside the working
// directory's tree: absolute, from home, or up from it. It completes by
// prefix, directory by directory.
func outsideTree(p string) bool {
	return filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") ||
		p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, `..\`)
}

// listCmd asks for the tree's listing when the popup is open and has none:
// it runs off the Update loop.
func (m *mentionMenu) listCmd() tea.Cmd {
	if !m.open || m.loaded || m.listing || outsideTree(m.query) || strings.HasPrefix(m.query, mcpPrefix) {
		return nil
	}
	m.listing = true
	dir := m.dir
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), mentionListTime)
		defer cancel()
		files, capped := listFiles(ctx, dir, mentionFilesMax)
		return mentionFilesMsg{dir: dir, files: files, capped: capped}
	}
}

// listed takes a listing.
func (m *mentionMenu) listed(msg mentionFilesMsg) {
	if msg.dir != m.dir {
		return
	}
	m.files, m.capped, m.loaded, m.listing = msg.files, msg.capped, true, false
}

// listFiles lists the regular files under dir ("" is the working
// directory), relative and slash-separated, shallow first, skipping hidden
// directories and node_modules, at most max of them and until ctx ends;
// capped says the listing was cut.
func listFiles(ctx context.Context, dir string, max int) (files []string, capped bool) {
	root := dir
	if root == "" {
		root = "."
	}
	stop := errors.New("stop")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable directory is left out
		}
		if ctx.Err() != nil || len(files) >= max {
			return stop
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasPrefix(name, ".") {
			return nil
		}
		if rel, err := filepath.Rel(root, p); err == nil {
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.SliceStable(files, func(i, j int) bool {
		di, dj := strings.Count(files[i], "/"), strings.Count(files[j], "/")
		if di != dj {
			return di < dj
		}
		return files[i] < files[j]
	})
	return files, err == stop
}

// fullPath is a row's path as attach reads it: under dir when the listing
// has one.
func (m mentionMenu) fullPath(r mentionRow) string {
	if m.dir == "" || outsideTree(r.path) {
		return r.path
	}
	return filepath.Join(m.dir, filepath.FromSlash(r.path))
}

// move handles a key that moves the cursor; false for any other key.
func (m *mentionMenu) move(k tea.KeyPressMsg, keys ListKeys) bool {
	return m.open && len(m.rows) > 1 && keys.Move(k, &m.sel)
}

// height is how many rows the popup takes: its rows, or one saying why it
// has none.
func (m mentionMenu) height() int {
	if !m.open {
		return 0
	}
	return max(min(len(m.rows), menuMaxItems), 1)
}

// view draws the popup, cut to width.
func (m mentionMenu) view(width int, st *theme.Styles) string {
	if len(m.rows) == 0 {
		return theme.ShellOf(st).Muted.Render(ansi.Truncate("  "+m.empty(), width, "…"))
	}
	lines := make([]string, len(m.rows))
	for i, r := range m.rows {
		p := stream.SanitizeLine(r.path)
		if avail := width - 2; ansi.StringWidth(p) > avail && avail > 1 { // a path keeps its end: the name
			p = "…" + ansi.TruncateLeft(p, ansi.StringWidth(p)-(avail-1), "")
		}
		lines[i] = "  " + p
		if r.res != nil && r.res.Name != "" {
			lines[i] += "  " + stream.SanitizeLine(r.res.Name)
		}
	}
	return popupView(lines, m.sel, menuMaxItems, width, st)
}

// empty is the popup's one line when nothing matches.
func (m mentionMenu) empty() string {
	q := stream.SanitizeLine(m.query)
	switch {
	case !m.attachCmd && strings.HasPrefix(m.query, mcpPrefix):
		if len(m.resources) == 0 {
			return "no MCP resources listed (the servers may still be starting)"
		}
		return "no MCP resource matches " + q
	case m.listing:
		return "listing files…"
	case m.capped && !outsideTree(m.query):
		return "no file matches " + q + " among the first " + plural(len(m.files), "file") + " — type more of the path"
	}
	return "no file matches " + q
}

// selected is the selected row, if any.
func (m mentionMenu) selected() (mentionRow, bool) {
	if !m.open || len(m.rows) == 0 {
		return mentionRow{}, false
	}
	return m.rows[m.sel.Sel()], true
}
