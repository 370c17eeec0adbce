package ui

// This file is the composer's attachments: the files waiting to go with the
// next message, shown as chips above the text. Files join by @path (tab
// completes the path, quoted when it holds a space, and turns a file into a
// chip; an @"quoted path" typed out joins on enter), /attach PATH, a pasted
// path to an existing file (what dropping a file on a terminal types; one
// that cannot be attached stays text and the notice says why), and -f. Backspace in an empty composer removes the last chip (a pasted one
// goes back to being the text that was pasted). Each file is
// checked (stat and the first bytes) when it joins; it is read whole only
// when the message is sent, all files or none.
//
// The chips are the composer's att part; the composer's hooks are attachKey
// at the top of key, completeMention on tab, pastedFile on paste, and
// takeFiles in send.

import (
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

// SetAttachLimits sets the limits files are checked against when they join.
func (c *Composer) SetAttachLimits(l attach.Limits) { c.att.limits = l }

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
		return true, notify(false, "removed "+stream.SanitizeLine(f.Name)+" — the pasted path is text again")
	}
	return true, notify(false, "removed "+stream.SanitizeLine(f.Name))
}

// completeMention completes the @path (or /attach PATH) the text ends with:
// to the one path that matches, or to what all matches share. A path that
// names a file becomes a chip and leaves the text. A path with a space is
// written quoted, @"my dir/", the quote left open while it is a directory,
// so the next tab goes on from it.
func (c *Composer) completeMention() tea.Cmd {
	text := c.Value()
	var start int // where the completed path is written: after "/attach ", or at the @
	var partial string
	mention := false
	if rest, ok := strings.CutPrefix(text, "/attach "); ok && !strings.Contains(rest, "\n") {
		partial = strings.TrimLeft(rest, " ")
		start = len(text) - len(partial)
	} else if m, ok := attach.MentionAt(text, len(text)); ok {
		if strings.HasPrefix(m.Path, mcpPrefix) {
			return c.completeResource(m.Start, m.Path)
		}
		start, partial, mention = m.Start, m.Path, true
	} else {
		return nil
	}
	matches := attach.Complete(partial, completionMax)
	if len(matches) == 0 {
		return notify(true, "no file matches "+stream.SanitizeLine(partial))
	}
	full := matches[0]
	if len(matches) > 1 {
		full = attach.CommonPrefix(matches)
	}
	file := len(matches) == 1 && !strings.HasSuffix(full, "/")
	written := full
	if mention {
		q, ok := attach.QuoteMention(full, !file)
		if !ok {
			return notify(true, "cannot complete "+stream.SanitizeLine(full)+" after @: it holds a quote or a line break — use /attach PATH")
		}
		written = "@" + q
	}
	if file {
		if !mention {
			c.SetValue(text[:start] + written)
			return nil // enter attaches it
		}
		if err := c.att.attach(full); err != nil {
			c.SetValue(text[:start] + written) // the name is whole; the reason says why it is no chip
			return notify(true, err.Error())
		}
		c.SetValue(strings.TrimRight(text[:start], " \t")) // the @word becomes the chip
		if c.Value() != "" {
			c.SetValue(c.Value() + " ")
		}
		return nil
	}
	c.SetValue(text[:start] + written)
	if len(matches) > 1 {
		names := matches[:min(len(matches), 8)]
		for i, n := range names {
			if q, ok := attach.QuoteMention(n, false); ok {
				names[i] = q // "my dir/" reads as one name
			}
		}
		more := ""
		if len(matches) > 8 {
			more = fmt.Sprintf(" … (%d in all)", len(matches))
		}
		return notify(false, stream.SanitizeLine(strings.Join(names, "  ")+more))
	}
	return nil
}

// pastedFile offers a pasted path to an existing file as an attachment: it
// becomes a chip instead of text. It reports whether it took the paste. A
// path that cannot be attached (a directory, a binary, too big, unreadable)
// stays text, and the notice says why in one line, as -f does.
func (c *Composer) pastedFile(text string) (bool, tea.Cmd) {
	path, ok := attach.PastedPath(text)
	if !ok {
		return false, nil
	}
	n := len(c.att.files)
	if err := c.att.attach(path); err != nil {
		return false, notify(true, stream.SanitizeLine(err.Error())+" (the pasted path stays text)")
	}
	if len(c.att.files) == n {
		return true, notify(false, stream.SanitizeLine(path)+" is attached already")
	}
	c.att.remember(c.att.files[n].Path, text)
	return true, notify(false, "attached "+stream.SanitizeLine(path)+" — backspace in an empty composer makes it text again")
}
