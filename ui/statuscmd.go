package ui

// This file feeds a chosen status line ([status_line]) what it shows from
// outside the chat: the command's first line of output, the working
// directory and its git branch. Each refresh runs in a tea.Cmd, off the
// update loop: at the start, at each turn's end, and a second after the
// last one ended while a command is set. One runs at a time; a command
// that hangs is killed at statusCommandTimeout and the chat never waits.

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
)

// StatusLine is the [status_line] table: the items of the line's right
// side, in order (none: the default line), and a command (no shell) whose
// first line of output shows on it.
type StatusLine struct {
	Items   []string
	Command []string
}

const (
	statusCommandTimeout = 2 * time.Second // then the command's process group is killed
	statusCommandRunes   = 120             // of its first line, at most
	statusRefreshEvery   = time.Second     // the most often a command runs
	gitHeadBytes         = 512             // read of .git/HEAD, at most
	gitParents           = 64              // directories walked up looking for .git, at most
)

// statusSource runs the refreshes. Invariant: at most one runs (running);
// a refresh asked meanwhile runs when it ends (pending); only the newest
// tick (tickSeq) starts one.
type statusSource struct {
	argv    []string
	dirs    bool // the line shows cwd or git_branch
	clock   bool // the line shows the time: the ticks run without a command too
	run     func(ctx context.Context, argv []string, timeout time.Duration) (string, error)
	timeout time.Duration
	running bool
	pending bool
	tickSeq int
}

// statusLineMsg is a refresh's result.
type statusLineMsg struct {
	out, cwd, git string
}

// statusTickMsg asks for the next refresh of the command.
type statusTickMsg struct{ seq int }

// refreshSource starts a refresh, or marks one pending while one runs; nil when
// the line shows nothing from outside.
func (b *statusBar) refreshSource(ctx context.Context) tea.Cmd {
	src := &b.src
	if len(src.argv) == 0 && !src.dirs && !src.clock {
		return nil
	}
	if src.running {
		src.pending = true
		return nil
	}
	src.running = true
	argv, dirs, run, timeout := src.argv, src.dirs, src.run, cmp.Or(src.timeout, statusCommandTimeout)
	return func() tea.Msg {
		var msg statusLineMsg
		if dirs {
			if wd, err := os.Getwd(); err == nil {
				msg.cwd, msg.git = homeShort(wd), gitBranch(wd)
			}
		}
		if len(argv) > 0 && run != nil {
			out, err := run(ctx, argv, timeout)
			msg.out = firstLine(out)
			if msg.out == "" && err != nil {
				msg.out = "status command: " + firstLine(err.Error())
			}
		}
		return msg
	}
}

// sourceUpdate takes a refresh's result, a tick and a turn's end; now
// is the chat's clock, for the time item.
func (b *statusBar) sourceUpdate(msg tea.Msg, ctx context.Context, now time.Time) tea.Cmd {
	src := &b.src
	switch msg := msg.(type) {
	case statusLineMsg:
		src.running = false
		b.status.Command, b.status.Cwd, b.status.GitBranch = msg.out, msg.cwd, msg.git
		if src.clock {
			b.status.Clock = now.Format("15:04")
		}
		if src.pending {
			src.pending = false
			return b.refreshSource(ctx)
		}
		if len(src.argv) == 0 && !src.clock {
			return nil
		}
		src.tickSeq++
		seq := src.tickSeq
		return tea.Tick(statusRefreshEvery, func(time.Time) tea.Msg { return statusTickMsg{seq} })
	case statusTickMsg:
		if msg.seq == src.tickSeq {
			return b.refreshSource(ctx)
		}
	case turnEndMsg:
		return b.refreshSource(ctx)
	}
	return nil
}

// firstLine is s's first non-empty line, cleaned of control sequences and
// cut to statusCommandRunes.
func firstLine(s string) string {
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(stream.SanitizeLine(strings.TrimRight(l, "\r\n"))); l != "" {
			return clipRunes(l, statusCommandRunes)
		}
	}
	return ""
}

// homeShort writes dir with the home directory as ~.
func homeShort(dir string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && home != "/" {
		if dir == home {
			return "~"
		}
		if rest, ok := strings.CutPrefix(dir, home+string(filepath.Separator)); ok {
			return "~" + string(filepath.Separator) + rest
		}
	}
	return dir
}

// gitBranch is the branch checked out in the repository holding dir, read
// from .git/HEAD (no git needed): "main", the commit's first 7 digits when
// detached, "" outside a repository. A worktree's .git file points to its
// HEAD's directory. Reads are bounded.
func gitBranch(dir string) string {
	for range gitParents {
		dotgit := filepath.Join(dir, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			gitDir := dotgit
			if !fi.IsDir() { // a worktree or submodule: "gitdir: PATH"
				line := readHead(dotgit)
				p, ok := strings.CutPrefix(line, "gitdir:")
				if !ok {
					return ""
				}
				if gitDir = strings.TrimSpace(p); !filepath.IsAbs(gitDir) {
					gitDir = filepath.Join(dir, gitDir)
				}
			}
			head := readHead(filepath.Join(gitDir, "HEAD"))
			if ref, ok := strings.CutPrefix(head, "ref:"); ok {
				return strings.TrimPrefix(strings.TrimSpace(ref), "refs/heads/")
			}
			if len(head) >= 7 {
				return head[:7]
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	return ""
}

// readHead is the first line of a small file, at most gitHeadBytes read.
func readHead(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, gitHeadBytes))
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return stream.SanitizeLine(strings.TrimSpace(string(line)))
}
