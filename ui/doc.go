// Package ui is runnel's chat: a Bubble Tea v2 program with a scrollable
// transcript, a multi-line composer, a status line and a key hint.
//
// The root Model routes messages to its children (Transcript, Composer,
// Status) and owns the turn in flight. A turn's stream is read on a goroutine
// (stream.Start); its batches arrive here through a re-armed channel Cmd,
// are folded into the accumulator at once (cheap), and are drawn at most once
// per frame: a frame tick re-renders only the entries that changed since the
// last one. Settled entries are cached per width, so View costs the same
// however long the session grows.
//
// It does not decode streams (package stream), keep conversations (package
// session) or choose colours (package theme); item rendering lives in ui/block
// and incremental markdown in ui/markdown.
//
// Main flow: key → Composer → SubmitMsg → session.Conversation.Say →
// stream.Start → batchMsg… → accumulator → blocks → frameMsg → View.
package ui
