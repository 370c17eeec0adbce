// Package markdown renders assistant messages with glamour, incrementally
// while they stream.
//
// A Renderer wraps glamour for one style and width and defines the output
// contract: glamour's rows without right padding and without blank rows at
// either end. It drives glamour's own node renderer through goldmark and
// skips the padding passes that change nothing under that contract
// (passes.go), which makes a whole render about three times cheaper than
// glamour's TermRenderer. A Stream holds one growing message: Append stores deltas, View
// renders only what changed and returns the whole message. Settled blocks
// are rendered once and cached; the unsettled tail is rendered per View,
// with fast paths that render only the last line of a code fence, the last
// item of a list or the last words of a paragraph. Reference definitions
// that arrive late are shared with the blocks that use them. When the
// message is complete, the caller runs Finish's function (a whole-document
// render) off the UI goroutine and swaps its result in; it shows the same
// text.
//
// Main flow: Append → View (scan lines → confirm cuts with a goldmark parse
// → render new blocks and the tail → join fragments) → Finish.
//
// The package does not sanitise input (the caller strips control
// characters first), does not pace frames (the caller coalesces deltas to
// its frame rate) and does not measure the terminal. It never panics on
// any input: a glamour failure leaves that block as plain text and is
// reported by Stream.Err.
//
// Known differences from a whole render of the same text, all deliberate:
// a reference definition on the unfinished last line is not used until the
// line is complete, and definitions that span lines are not shared between
// blocks. Code that streamed line by line may colour a token spanning lines
// differently until the whole render at Finish; the text is the same.
package markdown
