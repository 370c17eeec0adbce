package main

import (
	"context"
	"io"
)

// chat opens the interactive chat.
func chat(ctx context.Context, o options, s Settings, stdout, stderr io.Writer) int {
	warnf(stderr, "the chat view is not built yet — use -p PROMPT")
	return exitFailure
}

// replayChat plays a recording in the chat view.
func replayChat(ctx context.Context, o options, r io.Reader, stdout, stderr io.Writer) int {
	return replayCommand(ctx, options{format: formatANSI, width: o.width}, "-", r, stdout, stderr)
}

// newANSIPrinter is the styled format; until the chat renderer exists it is
// the plain transcript.
func newANSIPrinter(stdout, stderr io.Writer, width int) printer {
	return newTextPrinter(stdout, stderr, true)
}
