// Package markdown renders assistant messages as styled terminal text,
// incrementally while they stream, with glamour's look.
//
// It parses with goldmark (the extensions glamour enables: GFM tables,
// strikethrough, autolinks, task lists, and definition lists) and renders
// the AST itself, styled by a glamour ansi.StyleConfig (built in theme/):
// headings, emphasis, links with their URLs, lists, quotes, rules and
// tables look as glamour draws them. Code blocks are highlighted by chroma
// with a style built from the StyleConfig and kept by the Renderer (never
// registered in chroma's global registry); tables are lipgloss tables.
// Text is wrapped in one pass over styled runs (wrap.go): breaks only at
// spaces where it can (a URL moves to its own row whole), list items hang
// under their marker, and every row opens and closes its own styles. It
// skips glamour's margin and padding writers, which cost about half of a
// glamour render, and uses only public APIs.
//
// A Renderer is one style at one width; making one costs microseconds.
// A Stream holds one growing message: Append stores deltas; View parses
// the unsettled tail, keeps the top-level blocks that no later text can
// change (rendered once), and renders the rest again; Draft leaves new
// code uncoloured for a View to colour. An open code fence's new lines
// are highlighted one by one without a parse (fence.go), the line still
// coming drawn plain until its newline; a closed block is drawn from the
// rows its lines got (each code line highlighted once), or highlighted
// whole where a token may span lines (code.go); an open block
// past 32 KB shows its last parse, then plain rows for the rest, until it
// ends (rough.go). The block that waits for the next one's first line is
// rendered once for its place in the source (waiting.go), so is each
// complete item of a list that is the last block (items.go), and a table
// drawn with the same cells as one of the last few is not drawn again
// (tablecache.go). Reference definitions reach every block, settled or
// not, and a settled block whose label changed is rendered again
// (refs.go). The streamed view equals Renderer.Render of the same
// text, styles included (but for Draft's code colours and Rough's rows).
// Markdown nested past 32 deep, which goldmark parses in superlinear time,
// is parsed as plain text there (ui/mdnest), as Renderer.Note says.
// SourceMap maps rendered rows back to the source bytes each cell shows,
// for a selection that copies the markdown rather than the screen.
//
// The package does not sanitise input (the caller strips control
// characters first), does not pace frames (the caller coalesces deltas to
// its frame rate) and does not measure the terminal. It never panics on
// any input: a failure shows the message as plain text and is reported by
// Stream.Err or Render's error, and in one line (the panic's words, at most
// 200 bytes of them) by the Note of the renderer that drew it, which the
// chat shows once (ui/block Renderers.NewNote).
//
// Deliberate differences from glamour: one blank row between blocks;
// hanging indents; code without a language stays plain (no guessing, so
// colours don't change as it streams); links in table cells, and citation
// markers (a link titled CiteTitle), show their text only, hyperlinked; HTML shows its text; Format supports {{.text}} only.
package markdown
