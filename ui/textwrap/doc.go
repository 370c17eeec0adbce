// Package textwrap lays plain text and table cells out in rows so that a
// word which fits a row is never split: Words wraps text at spaces only
// (with a hanging indent), Columns sizes a table's columns so each keeps
// its words, a URL above all, whole. A URL, a path or a command's argument
// then stays readable and clickable; only a word wider than its room
// breaks.
//
// It measures terminal cells with x/ansi and knows nothing of styles
// beyond skipping their escape sequences: callers clean untrusted text
// first and paint the rows after.
package textwrap
