// Package itemlook is how each item type is presented to people: its title
// ("Web search"), its icon (one plain glyph; its colour is theme's) and its
// one-line summary ("• web search: go generics done"), read by the chat's
// panels and the one-shot --format ansi output (ui/block) and the text
// formats' summary lines (ui/output).
//
// Its table is keyed by the types of the item kind table (stream.KindFor),
// which holds the protocol's facts about each type (its class, how it is
// paired, its searchable text); a test holds the two to the same types, so
// adding a type is one entry in each. A type in neither gets a generic look
// titled after the type, its icon by its class.
//
// It does not draw, style or colour anything, and reads no clock: a
// summary is plain text, sanitized, and a call's status in it comes from
// the caller's tools.Run (how runnel's own run of it ended) when there is
// one, else from the item.
package itemlook
