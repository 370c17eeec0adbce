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
// Dialogs (the session picker, search results, the /tools menu, the /model
// and /provider pickers, the tool panel list and the approval question) are value types that take the keys
// while open. They share one cursor type (listCursor) and match their keys
// with key.Matches against KeyMap-style structs (dialogkeys.go), so "?" in a
// dialog lists exactly the keys it matches; the main "?" overlay lists the
// root's. The approval question and the panel list are drawn below the end
// of the transcript, which stays visible; the others take its place. While a
// dialog is open the root still takes ctrl+c (an approval: deny and stop)
// and, under an approval, the panel keys the status line offers.
//
// Golden views of whole screens live in testdata/golden; regenerate them
// with `go test ./ui -run TestGolden -update` (see golden_test.go).
//
// Main flow: key → Composer → SubmitMsg → session.Conversation.Begin →
// stream.Start → batchMsg (at most one per streamInterval, each drawn as a
// frame) → accumulator → blocks → View. frameMsg ticks run only while
// something else changes (spinner, tools, live panels); none at the prompt.
package ui
