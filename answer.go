package main

// This file is -p's side of structured output and of the request knobs:
// --schema (the answer must follow a JSON Schema: only the JSON is printed,
// and an answer that does not validate is one line and exit status 6),
// --output-last-message (the final answer written to a file), a knob the
// server refused (the turn goes again without it, with one line, and the
// next run does not send it), and a response on another service tier than
// the one asked (one line).

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

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

// knobMemory is where what a provider refused is remembered: beside the
// history database, as chainWatch's memory; the provider is known by key.
type knobMemory struct {
	mem session.KnobMemory
	key string
}

// newKnobMemory reads what the provider at baseURL refused into conv, so
// that this run does not send it.
func newKnobMemory(o options, baseURL string, conv *session.Conversation) knobMemory {
	k := knobMemory{key: session.ProviderKey(baseURL)}
	if o.dbPathErr == nil && o.dbPath != "" {
		k.mem.Dir = filepath.Dir(o.dbPath)
	}
	conv.Refuse(k.mem.Refused(k.key, time.Now())...)
	return k
}

// resendRefused sends turn again, without the knob, as long as the server
// refuses one (a 400 naming it) before any response: each knob at most
// once, so this ends. What was refused is remembered for the next run.
func (k knobMemory) resendRefused(conv *session.Conversation, turn *session.Turn, acc *stream.Accumulator, err error, stderr io.Writer,
	send func(stream.Request) (*stream.Accumulator, error)) (*stream.Accumulator, error) {
	for len(acc.Responses()) == 0 && err != nil {
		req, name, ok := conv.DropRefused(turn, err)
		if !ok {
			break
		}
		warnf(stderr, "%s", session.RefusedNotice(name))
		if werr := k.mem.Remember(k.key, conv.RefusedKnobs(), time.Now()); werr != nil {
			warnf(stderr, "cannot remember it for the next run: %s", errLine(werr))
		}
		acc, err = send(req)
	}
	return acc, err
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
