package main

// This file is -p's side of structured output and of the request knobs:
// --schema (the answer must follow a JSON Schema: only the JSON is printed,
// and an answer that does not validate is one line and exit status 6),
// --output-last-message (the final answer written to a file), and a
// response on another service tier than the one asked (one line). What a
// server refuses is the turn engine's (turn.go).

import (
	"fmt"
	"io"
	"strings"

	"runnel/session"
	"runnel/session/regfile"
	"runnel/stream"
)

// exitSchema is the status of a -p --schema run whose answer does not
// validate.
const exitSchema = 6

// loadAnswerSchema reads --schema, before anything is sent: nil when it is
// not given; a usage error (one line naming the file) when it is not a JSON
// Schema, or when --format asks for another output.
func loadAnswerSchema(o options, stderr io.Writer) (*session.AnswerSchema, int) {
	if o.schema == "" {
		return nil, exitOK
	}
	if o.format != "" {
		warnf(stderr, "--schema prints the JSON answer alone: leave out --format %s", stream.SanitizeLine(o.format))
		return nil, exitUsage
	}
	sch, err := session.LoadSchema(o.schema)
	if err != nil {
		warnf(stderr, "%s", errLine(err))
		return nil, exitUsage
	}
	return sch, exitOK
}

// tierNotices says, one line each, when a response of turn ran on another
// service tier than the one asked for.
func tierNotices(turn *session.Turn, acc *stream.Accumulator, stderr io.Writer) {
	for _, s := range acc.Responses() {
		if n := session.TierNotice(turn.Request.ServiceTier, s); n != "" {
			warnf(stderr, "%s", n)
		}
	}
}

// finishAnswer writes the final answer where --output-last-message says,
// and, with --schema, checks it and prints it alone; it returns the exit
// status, code unless one of those failed.
func finishAnswer(o options, sch *session.AnswerSchema, last *stream.Accumulator, code int, stdout, stderr io.Writer) int {
	answer := session.FinalAnswer(last.Current())
	if o.lastMessage != "" {
		if err := regfile.WritePrivate(o.lastMessage, []byte(answer)); err != nil {
			warnf(stderr, "cannot write the last message to %s: %s", stream.SanitizeLine(o.lastMessage), errLine(unwrapPath(err)))
			if code == exitOK {
				code = exitFailure
			}
		}
	}
	if sch == nil || code != exitOK {
		return code
	}
	answer = strings.TrimSpace(answer)
	if err := sch.Check(answer); err != nil {
		hint := " (--output-last-message FILE keeps the answer)"
		if o.lastMessage != "" {
			hint = " (the answer is in " + stream.SanitizeLine(o.lastMessage) + ")"
		}
		warnf(stderr, "%s%s", errLine(err), hint)
		return exitSchema
	}
	if _, err := fmt.Fprintln(stdout, answer); err != nil {
		warnf(stderr, "cannot write the answer: %s", errLine(err))
		return exitFailure
	}
	return code
}
