// Package markdown renders assistant messages with glamour, incrementally
// while they stream.
//
// A Renderer wraps glamour for one style and width and defines the output
// contract: glamour's rows without right padding and without blank rows at
// either end. A Stream holds one growing message: Append stores deltas, View
// renders only what changed and returns the whole message. Settled blocks
// are rendered once and cached; the unsettled tail is re-rendered per View,
// with fast paths for an open code fence (line by line) and a list (item by
// item). Reference definitions that arrive late are shared with the blocks
// that use them. When the message is complete, the caller runs Finish's
// function (a whole-document render) off the UI goroutine and swaps it in;
// it shows the same text.
//
// Main flow: Append → View (scan lines → confirm cuts with a goldmark parse
// → render new blocks → render tail → join fragments) → Finish.
//
// The package does not sanitise input (the caller strips control
// characters first), does not pace frames (the caller coalesces deltas to
// its frame rate) and does not measure the terminal. It never panics on
// any input: a glamour failure leaves that block as plain text and is
// reported by Stream.Err.
package markdown
