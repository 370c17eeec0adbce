package block

import (
	"time"

	"runnel/session/images"
	"runnel/session/tools/toolrun"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/itemlook"
)

// Context is what every Render gets: the space, the look and the time.
type Context struct {
	Width    int           // columns available
	Styles   *theme.Styles // the look; colours come only from here
	Now      time.Time     // for spinners, elapsed times and countdowns; Render never reads the clock
	Markdown *Renderers    // markdown renderers to use; nil: a new renderer per call (tests)
	Draft    bool          // a stream outruns the frames: a live message may leave new code uncoloured for now
}

// Block is one transcript entry.
type Block interface {
	// Render returns the entry's rows for ctx, without a trailing newline;
	// every row fits ctx.Width. It is a cache hit when nothing changed since
	// the last Render at the same width and styles.
	Render(ctx Context) string
	// Live reports whether the entry still changes on its own (streaming,
	// running, counting down): the transcript re-renders it every frame.
	// Settled entries are cached.
	Live() bool
}

// PartsRenderer is a Block that can render in two parts: its rows are
// those of settled followed by those of live ("" has none), and while it
// streams settled only grows, so a caller that keeps what it made of
// settled's rows handles only what is new. Render's rows are the same.
type PartsRenderer interface {
	RenderParts(ctx Context) (settled, live string)
}

// ItemBlock is the block of one output item. The transcript calls Update
// after events changed the item (the same *stream.Item, mutated in place)
// and End when the item's response is over.
type ItemBlock interface {
	Block
	Updater
	// Item returns the item the block shows.
	Item() *stream.Item
	// End records that the item's response ended at now (completed, failed,
	// cut off or stopped): an item that never finished shows as
	// interrupted, and the block stops being live.
	End(now time.Time)
}

// Updater is a block whose item changes: Update records that it changed at
// now (first seen, finished at) and marks the caches dirty.
type Updater interface {
	Update(now time.Time)
}

// Expander is a block with a collapsed and an expanded form: reasoning (a
// header line, or every summary part) and panels (an output preview of at
// most previewLines lines, or everything).
type Expander interface {
	SetExpanded(bool)
	Expanded() bool
}

// Hider is a block that may draw nothing at all: reasoning with nothing to
// show. Hidden reports whether it does now; the keys that open blocks pass
// over it.
type Hider interface {
	Hidden() bool
}

// Titled is a block with a short title for the status line: reasoning's
// current **Title**.
type Titled interface {
	Title() string
}

// Finisher is a message block whose streamed rows can be replaced by one
// whole-document render once the message is done. FinalRender is called on
// the UI goroutine and returns a pure function to run off it (in a tea.Cmd);
// its result goes back through SetFinal with the width it was made for. The
// final rows have the same visible text as the streamed ones, so the swap
// shows no jump. A result for text that changed since FinalRender, or for a
// width another FinalRender was asked for since, is ignored; one for
// another width than the current is used at that width.
type Finisher interface {
	FinalRender(ctx Context) func() string
	SetFinal(width int, rendered string)
}

// Releaser is a block that can drop what it keeps only to draw faster (its
// styled render, a markdown parser's state) while it is far off screen: the
// next Render builds it again from the source it keeps. A live block keeps
// everything.
type Releaser interface {
	Release()
}

// Sourced is a block drawn from a text the user can copy back: an answer's
// markdown, a prompt. Source is that text, cleaned, as the rows were drawn
// from it (ui/markdown SourceMap maps the rows' cells back to it); "" when
// the rows are not drawn from one text (a message drawn from its last
// pages).
type Sourced interface {
	Source() string
}

// Approver is an MCP approval request waiting for the user. The transcript
// handles the keys and reports the decision; the panel then shows it.
type Approver interface {
	// Approval returns the approval request's id, and whether it still
	// waits for a decision.
	Approval() (id string, pending bool)
	// SetDecision records the answer, with the reason of a denial ("" for
	// none), which the panel shows as "denied: <reason>".
	SetDecision(approved bool, reason string)
}

// ImageSaver is a block with image data to write to disk (image generation
// partial and final images). SaveImage returns the write to run off the UI
// goroutine, or nil when every image it has was already handed out; its
// result goes back through ImageSaved so the panel shows the path.
type ImageSaver interface {
	SaveImage(dst images.Sink) func() ImageFile
	ImageSaved(ImageFile)
}

// RunHolder is the block of a function call runnel runs on this machine
// (a panel). SetRun shows where its run stands and how it ended: the
// header's state and duration and the body's progress line follow the run
// from then on, not the item's status. The caller keeps the runs (by
// call_id) and sets each change; a block never given one shows its item.
type RunHolder interface {
	SetRun(toolrun.Run)
}

// ForItem returns the block for an item, by its class in the item kind
// table (stream.KindFor): a message, reasoning, or a panel with the icon
// and title of the type's look (ui/itemlook), whose body is the type's own
// (panelSpecs) or a generic one. now is when the item was first seen.
func ForItem(it *stream.Item, now time.Time) ItemBlock {
	k := stream.KindFor(it.Type)
	var b ItemBlock
	switch k.Class {
	case stream.ClassMessage:
		b = newMessage(it)
	case stream.ClassReasoning:
		b = newReasoning(it)
	default:
		spec := panelSpecs[it.Type]
		switch {
		case spec != nil:
		case k.Class == stream.ClassCall:
			spec = genericToolSpec
		default:
			spec = unknownSpec
		}
		b = &panel{it: it, kind: k, look: itemlook.For(it.Type), spec: spec}
	}
	b.Update(now)
	return b
}

// renderKey identifies what a cached render was made for.
type renderKey struct {
	width  int
	styles *theme.Styles
	rev    int // the block's revision: bumped by every change
}

// cache holds one block's last render.
type cache struct {
	key renderKey
	out string
	ok  bool
}

func (c *cache) get(k renderKey) (string, bool) {
	if c.ok && c.key == k {
		return c.out, true
	}
	return "", false
}

func (c *cache) put(k renderKey, out string) string {
	c.key, c.out, c.ok = k, out, true
	return out
}
