// Package block renders transcript entries: how every output item of a
// response looks, in the chat TUI and in the one-shot --format ansi output.
//
// Each entry is a Block: a user prompt (NewUser), a notice (NewNotice,
// NewRetry: one line for all the retries of a request, Retrier), or the
// block of one stream item (ForItem): an assistant message (markdown,
// streamed incrementally through ui/markdown; citations as numbered markers
// [n], hyperlinked, that replace the "([site](url))" a citation covers,
// with one Sources list, tracking parameters dropped; refusals and
// commentary styled apart), reasoning (a one-line header that expands to
// the summary; nothing at all without a summary or text), a tool
// or MCP panel (a rounded border with icon, title, spinner or final state
// and duration, arguments and an output preview), or a generic panel for
// item types runnel does not know. Two blocks stand for several items: a
// turn's Thinking line ("Thought for 12.0s", the time of its reasoning that
// has nothing to show) and a Hosted line, the one row consecutive hosted
// searches draw ("⌕ 2 searches · 21 sources · 1 page opened"), which
// expands to their panels. ForItem picks the block by the item's
// class in the item kind table (stream.KindFor); every panel's icon and
// title come from the type's look (ui/itemlook), and panelSpecs holds the
// panel bodies of the types that have their own. A function call runnel
// runs shows its run (session/tools' Run, set through RunHolder by the
// caller, who keeps the runs by call_id): waiting, running with its
// progress, then how it ended ("failed", "cancelled", "denied", "timed
// out", "outcome unknown"…) and how long it took. Optional behaviour is
// offered through small interfaces: Updater, Expander, Titled, Hider,
// Finisher, Approver, ImageSaver, RunHolder, Sourced (the text a
// message's or prompt's rows are drawn from, for the mouse's copies).
// Printer writes the same blocks to a plain writer as a stream goes by
// (the hosted searches as their one line, the Thinking line at most once).
//
// Every string taken from the stream is cleaned (stream.Sanitize or
// SanitizeLine) before it is styled; the only escape sequences in the output
// are SGR styling (lipgloss, ui/markdown) and OSC 8 hyperlinks: those runnel
// writes for cited http(s) sources, and those ui/markdown writes for markdown
// links. Colours come only from theme.Styles.
//
// Markdown that cannot be drawn is shown as plain wrapped text, never lost,
// and said once in one line: Renderers.Note holds the line (a renderer that
// could not be made, markdown nested too deep to parse in time, a render
// that failed; cleaned with stream.SanitizeLine), the chat asks NewNote every
// frame and shows what it returns once, and --format ansi prints
// Printer.Note on stderr at the end.
//
// It does not run a Bubble Tea program, handle keys, scroll, or read the
// clock: time comes in through Update(now) and Context.Now (the Printer's
// clock is time.Now, a field tests set), and slow work (the final render of
// a message, writing an image) is handed back as a function for the caller
// to run off the UI goroutine.
//
// Main flow: ForItem(item) → Update(now) after each change → Render(ctx)
// per frame while Live, cached per width once settled.
package block
