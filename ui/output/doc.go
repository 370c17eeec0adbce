// Package output holds the output formats of the one-shot prompt and of
// replay: ansi (the chat's own blocks, styled), markdown, text, json and
// events. Every format reads the same things: each event as it is applied,
// with the item it changed, and each response when it ends. None lets a
// control sequence from the stream reach the terminal.
//
// It does not read the stream or choose exit statuses: package main drives
// the stream into a Printer and reports how it ended.
package output
