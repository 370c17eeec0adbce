// Package models knows what runnel knows about models: the built-in table
// of context windows and prices (table.go) with the config's overrides, the
// arithmetic of a session's cost and context fill (cost.go), the
// provider's model list from GET {base}/models, cached on disk per provider and base URL
// (list.go), and which of its models chat, by their names (chat.go).
//
// It does not guess a figure: a model the table does not name (after the snapshot
// rule in Table.Lookup) has no window and no price, and callers show no
// figure for it. It draws nothing and imports no UI package.
package models
