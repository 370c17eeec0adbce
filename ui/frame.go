package ui

// This file is the frame every child reads (frameState) and the reports a
// child posts to the root for another child to act on. It is the bottom of
// the package: children and the root depend on it, it on none of them.

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/attach"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/block"
)

// dialog is an open dialog: it takes the keys until it closes.
type dialog interface {
	update(tea.Msg) (dialog, tea.Cmd)
	view(width, height int) string
}

// dlg adapts a dialog sub-model to the dialog interface.
type dlg[T interface {
	Update(tea.Msg) (T, tea.Cmd)
	View(width, height int) string
}] struct{ v T }

func (d dlg[T]) update(msg tea.Msg) (dialog, tea.Cmd) {
	v, cmd := d.v.Update(msg)
	return dlg[T]{v}, cmd
}

func (d dlg[T]) view(w, h int) string { return d.v.View(w, h) }

// frameState is what every child and entry reads: the run's context, the
// screen's size, the styles, the frame clock and the markdown renderers.
type frameState struct {
	ctx           context.Context // the run's: the I/O a child starts ends with it
	width, height int
	sized         bool
	resizeSeq     int              // debounces transcript reflow
	look          look             // what the styles are made of (themes.go)
	clock         func() time.Time // time.Now; tests fix it (golden views)
	styles        *theme.Styles
	now           time.Time
	md            *block.Renderers // markdown renderers, one per styles and width, shared by every entry
	draft         bool             // a stream outruns the frames (draftFor)
	// clip is the system clipboard every copy goes to (clipboard.go): New
	// asks the terminal's; a test injects its own, so tests run in parallel.
	clip *clipboard
	// tick schedules frame seq of turn gen in d (frameTick); a test injects
	// one that records d.
	tick func(gen, seq int, d time.Duration) tea.Cmd
	// outbox holds what children report to the root while a message is
	// handled (post); Model.Update routes it, in order, before it returns
	outbox []tea.Msg
	// screen is the screen the root's View returned last (screen.go).
	screen screenMemo
}

// copy copies text to the clipboard (clipboard.copy); without one (a child
// tested alone) it is a plain OSC 52 copy that asks no tmux.
func (f *frameState) copy(text string) tea.Cmd {
	if f.clip == nil {
		return (&clipboard{}).copy(text)
	}
	return f.clip.copy(text)
}

// frameTick schedules frame seq of turn gen in d, through the injected
// tick when there is one.
func (f *frameState) frameTick(gen, seq int, d time.Duration) tea.Cmd {
	if f.tick != nil {
		return f.tick(gen, seq, d)
	}
	return frameTick(gen, seq, d)
}

// post reports msg to the root: a child reaches the rest of the chat only
// this way. The root routes it, in order, once the message being handled
// is done, so a child never sees another child's state half-changed.
func (f *frameState) post(msg tea.Msg) { f.outbox = append(f.outbox, msg) }

// posted takes the first message posted and not yet routed; false when
// there is none.
func (f *frameState) posted() (tea.Msg, bool) {
	if len(f.outbox) == 0 {
		return nil, false
	}
	msg := f.outbox[0]
	f.outbox = f.outbox[1:]
	return msg, true
}

// at moves the frame clock to now; draft says whether this frame draws a
// stream that outruns the frames (draftFor).
func (f *frameState) at(now time.Time, draft bool) { f.now, f.draft = now, draft }

// resize takes the terminal's size; first says whether it is the first,
// else seq is the debounce's number for this one.
func (f *frameState) resize(w, h int) (first bool, seq int) {
	f.width, f.height = w, h
	if !f.sized {
		f.sized = true
		return true, 0
	}
	f.resizeSeq++
	return false, f.resizeSeq
}

// noticeMsg asks for a one-line notice in the transcript.
type noticeMsg struct {
	kind block.NoticeKind
	text string
}

// imageMsg reports an image written to disk for a panel.
type imageMsg struct {
	e *itemEntry
	f block.ImageFile
}

// finalMsg carries a message's full render, made off the UI goroutine.
type finalMsg struct {
	e        *itemEntry
	width    int
	rendered string
}

// waitTickMsg moves the clock while the chat waits for the user's answer
// to an approval and nothing else animates: the status line's timer runs.
type waitTickMsg struct{ now time.Time }

// dialogMsg opens a dialog (nil closes the one open).
type dialogMsg struct{ d dialog }

// newNote is the renderers' note of a render that fell back to plain
// text, once; "" for none (block.Renderers.NewNote).
func (f *frameState) newNote() string { return f.md.NewNote() }

// redrawMsg asks the transcript to draw entry idx again.
type redrawMsg struct{ idx int }

// putBackMsg returns a message that was not sent to the composer.
type putBackMsg struct {
	text  string
	files []*attach.File
}

// fitHeight pads or cuts s to exactly h lines.
func fitHeight(s string, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// hostedName names a hosted tool call for the status line.
func hostedName(it *stream.Item) string {
	if it.Name != "" {
		return it.Name
	}
	return strings.ReplaceAll(strings.TrimSuffix(it.Type, "_call"), "_", " ")
}

// plural is "1 turn", "3 turns".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// waitingSend is a message sent while MCP servers started.
type waitingSend struct {
	text   string
	files  []*attach.File
	prompt *session.Override // a prompt file's turn (promptcmds.go), nil for a message
}

// argChoicesMsg gives the composer the values a command's argument
// completes to (slashMenu.setArgChoices).
type argChoicesMsg struct {
	name   string
	values []string
}

// promptsMsg carries the stored prompts of every session, newest first.
type promptsMsg struct{ list []string }

// setPastMsg gives the composer the prompts sent before this process,
// newest first (Composer.SetPast): the history posts it.
type setPastMsg struct{ past []string }
