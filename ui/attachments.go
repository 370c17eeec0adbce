package ui

// This file is the composer's attachments: the files waiting to go with the
// next message, shown as chips above the text. Files join by @path (a popup
// completes it, composermention.go: tab or enter turns a file into a chip,
// a path with a space is written quoted; an @"quoted path" typed out joins
// on enter), /attach PATH, a pasted path to an existing file (what dropping
// a file on a terminal types; one that cannot be attached stays text and
// the hint says why), an image pasted with ctrl+v (composerclip.go), a
// !command's output (composershell.go), and -f. Backspace in an empty
// composer removes the last chip (a pasted one goes back to being the text
// that was pasted). Each file is checked (stat and the first bytes) when it
// joins; it is read whole only when the message is sent, all files or none.
//
// The chips are the composer's att part; the composer's hooks are attachKey
// at the top of key, takeMention on tab or enter in the @ popup,
// chips.pastedPath on paste, and takeFiles in send. What they did is a
// hint (composerhint.go), never a line in the transcript.

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/session/attach"
	"runnel/stream"
	"runnel/theme"
)

// chips are the files attached to the message being composed: the
// composer's attachments part.
//
// Invariants: every file from disk passed attach.Check against limits; no
// path is there twice; together they fit the per-message limit when they
// joined.
type chips struct {
	files  []*attach.File
	pasted map[string]string // path → the text whose paste made it a chip
	limits attach.Limits
	clip   clipReader // where ctrl+v reads images (composerclip.go)
	images int        // images pasted so far: they are numbered
}

// completionMax bounds the paths a tab offers.
const completionMax = 50

// has reports whether path is attached.
func (ch chips) has(path string) bool {
	for _, g := range ch.files {
		if g.Path == path {
			return true
		}
	}
	return false
}

// attach checks path and adds it; the error is one line.
func (ch *chips) attach(path string) error {
	f, err := attach.Check(path, ch.limits)
	if err != nil {
		return err
	}
	return ch.add(f)
}

// add adds a checked file (or one made in memory, its Data set) unless it
// is there already or the message would go over its limit.
func (ch *chips) add(f *attach.File) error {
	if ch.has(f.Path) {
		return nil
	}
	var total int64
	for _, g := range ch.files {
		total += g.Size
	}
	if lim := ch.limits.MessageLimit(); total+f.Size > lim {
		return fmt.Errorf("cannot attach %s: the message would carry %s, over the limit of %s per message ([attachments] max_message_mib)",
			f.Path, attach.Size(total+f.Size), attach.Size(lim))
	}
	ch.files = append(ch.files, f)
	return nil
}

// take empties the chips and returns their files.
func (ch *chips) take() []*attach.File {
	files := ch.files
	ch.files, ch.pasted = nil, nil
	return files
}

// pop removes the last chip; text is what was pasted to make it, if it was.
func (ch *chips) pop() (f *attach.File, text string, wasPasted bool) {
	f = ch.files[len(ch.files)-1]
	ch.files = ch.files[:len(ch.files)-1]
	text, wasPasted = ch.pasted[f.Path]
	delete(ch.pasted, f.Path)
	return f, text, wasPasted
}

// remember records that the chip of path was made by pasting text.
func (ch *chips) remember(path, text string) {
	if ch.pasted == nil {
		ch.pasted = map[string]string{}
	}
	ch.pasted[path] = text
}

// height is how many rows the chips take.
func (ch chips) height() int {
	if len(ch.files) == 0 {
		return 0
	}
	return 1
}

// view draws the chips on one row, cut to width.
func (ch chips) view(width int, st *theme.Styles) string {
	labels := make([]string, 0, len(ch.files))
	for _, f := range ch.files {
		size := attach.Size(f.Size)
		if f.Data == nil && strings.HasPrefix(f.Path, mcpPrefix) {
			size = "mcp" // an MCP resource: read when the message is sent
		}
		labels = append(labels, "["+stream.SanitizeLine(f.Name)+" · "+size+"]")
	}
	line := "  " + strings.Join(labels, " ")
	return theme.ShellOf(st).Muted.Render(ansi.Truncate(line, width, "…"))
}

// Configure gives the composer what the chat was given: the limits files
// are checked against when they join, and what a !command needs (the
// chat's context, the local tools' config, the secrets to hide), and the
// variables no process it starts sees ($EDITOR, the clipboard readers).
func (c *Composer) Configure(ctx context.Context, o Options) {
	c.att.limits = o.Attach
	c.hidden, c.att.clip.hidden = o.secretEnv(), o.secretEnv()
	c.shell.ctx = ctx
	if o.Tools != nil {
		c.shell.cfg, c.shell.redact = o.Tools.Config, o.Tools.Secrets.String
	}
}

// Attach checks path and adds it as a chip; the error is one line.
func (c *Composer) Attach(path string) error { return c.att.attach(path) }

// Attachments are the files waiting to be sent.
func (c Composer) Attachments() []*attach.File { return append([]*attach.File(nil), c.att.files...) }

// SetAttachments replaces the chips (the files of a message put back).
func (c *Composer) SetAttachments(files []*attach.File) {
	c.att.files = append([]*attach.File(nil), files...)
}

// takeFiles empties the chips and returns their files, with the @paths left
// in text that name files (typed out whole, never tabbed). A problem with
// one of those is returned as an error and nothing is taken.
func (c *Composer) takeFiles(text string) ([]*attach.File, error) {
	saved := c.att.files
	for _, r := range c.mentions.named(text) {
		c.att.addResource(r)
	}
	for _, m := range attach.Mentions(text) {
		if err := c.att.attach(m.Path); err != nil {
			c.att.files = saved
			return nil, err
		}
	}
	return c.att.take(), nil
}

// attachKey handles backspace in an empty composer: it removes the last chip.
func (c *Composer) attachKey(k tea.KeyPressMsg) (bool, tea.Cmd) {
	if !key.Matches(k, c.keys.Unattach) || c.Value() != "" || len(c.att.files) == 0 {
		return false, nil
	}
	f, text, ok := c.att.pop()
	if ok {
		c.SetValue(cleanInput(text))
		return true, hint(false, "removed "+f.Name+" — the pasted path is text again")
	}
	return true, hint(false, "removed "+f.Name)
}

// takeMention takes the @ popup's selected row: a file or an MCP resource
// becomes a chip and its @word leaves the text; a directory is written
// out (quoted when it holds a space, the quote left open) and completed
// further; after /attach the path is written out, and enter attaches it.
// What happened, or why nothing did, is a hint.
func (c *Composer) takeMention() tea.Cmd {
	r, ok := c.mentions.selected()
	if !ok {
		return hint(true, c.mentions.empty())
	}
	text, start := c.Value(), c.mentions.start
	head := strings.TrimRight(text[:start], " \t") // the text without the @word
	if head != "" {
		head += " "
	}
	if r.res != nil {
		c.att.addResource(*r.res)
		c.SetValue(head)
		return hint(false, "attached "+mcpMention(*r.res)+" — read when the message is sent")
	}
	full := c.mentions.fullPath(r)
	dir := strings.HasSuffix(r.path, "/")
	if c.mentions.attachCmd {
		c.SetValue(text[:start] + full)
		if !dir {
			c.mentions.dismissed = c.Value() // enter attaches it
			c.updateMenu()
		}
		return nil
	}
	q, ok := attach.QuoteMention(r.path, dir)
	if !ok {
		return hint(true, "cannot complete "+r.path+" after @: it holds a quote or a line break — use /attach PATH")
	}
	if dir {
		c.SetValue(text[:start] + "@" + q)
		return nil
	}
	if err := c.att.attach(full); err != nil {
		c.SetValue(text[:start] + "@" + q) // the name is whole; the hint says why it is no chip
		c.mentions.dismissed = c.Value()
		c.updateMenu()
		return hint(true, err.Error())
	}
	c.SetValue(head)
	return hint(false, "attached "+r.path+" — backspace in an empty composer removes it")
}

// pastedPath offers a pasted path to an existing file as an attachment: it
// becomes a chip instead of text, and took says so. A path that cannot be
// attached (a directory, a binary, too big, unreadable) stays text. line
// says what happened in one line, for a hint; "" when text is no path.
func (ch *chips) pastedPath(text string) (took bool, line string, isErr bool) {
	path, ok := attach.PastedPath(text)
	if !ok {
		return false, "", false
	}
	n := len(ch.files)
	if err := ch.attach(path); err != nil {
		return false, err.Error() + " (the pasted path stays text)", true
	}
	if len(ch.files) == n {
		return true, path + " is attached already", false
	}
	ch.remember(ch.files[n].Path, text)
	return true, "attached " + path + " — backspace in an empty composer makes it text again", false
}
