package tools

// This file is how runnel speaks to a local MCP server: its command's
// stdin and stdout, newline-delimited JSON, as mcp.CommandTransport does,
// but read through the table's bound on one message ([limits]
// mcp_message_bytes) instead of the SDK's own fixed cap, so a message too
// large to take stops the connection with one line naming the key, and a
// listing's page is cut at its count as it streams in (mcplisting.go).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"runnel/stream"
)

// stdioTransport starts a server's command, puts the process in its group
// (joinGroup: on Windows a job object, so stopping the server ends what it
// started) before anything is spoken, and connects over its pipes. Until
// the session is open (*unwatch is called), the end of ctx kills the
// process: one that answers nothing and reads nothing (busy registering
// its tools) gets no grace past its startup_timeout. A message past
// mcp_message_bytes is told to cut and ends the connection and the
// process: a server stuck writing it would wait for a reader forever.
type stdioTransport struct {
	cmd     *exec.Cmd
	unwatch *func() bool
	cut     *refusal
	cuts    *listingCuts // the listings whose pages were cut at their bound
}

func (t stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	pid := t.cmd.Process.Pid
	joinGroup(pid)
	*t.unwatch = context.AfterFunc(ctx, func() { _ = killGroup(pid, true) })
	cut := func(err error) { // a server stuck writing what is not read ends now
		t.cut.set(err)
		_ = killGroup(pid, true)
	}
	r := &messageBound{r: stdout, limit: int64(stream.Limits().MCPMessage), cut: cut, f: jsonFollow{cuts: t.cuts}}
	pipes := &mcp.IOTransport{Reader: r, Writer: &serverStdin{WriteCloser: stdin, cmd: t.cmd}, MaxLineLength: -1}
	return pipes.Connect(ctx)
}

// messageBoundError is the line for a message past mcp_message_bytes.
func messageBoundError(limit int64) error {
	return &stream.BoundError{What: "one of its messages", Key: "mcp_message_bytes", Limit: int(limit)}
}

// messageBound reads a server's stdout and stops at the first JSON value
// (one message) larger than limit bytes: the SDK's decoder then never holds
// more than limit of it. It follows the JSON text itself (strings, escapes
// and nesting, jsonFollow), so a message spread over many lines is counted
// whole, and it drops a listing's entries past their bound as they stream
// in (mcplisting.go): the SDK decodes at most the bound's entries of a page.
//
// Invariants: n counts the bytes the server sent of the value being read
// (0 between values); once err is set every Read returns it. Close does
// nothing: the connection ends by closing the server's stdin.
type messageBound struct {
	r     io.Reader
	limit int64
	cut   func(error)
	f     jsonFollow
	n     int64
	err   error
}

func (m *messageBound) Read(p []byte) (int, error) {
	for m.err == nil {
		n, err := m.r.Read(p)
		w := 0
		for _, b := range p[:n] {
			if m.f.between() && (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
				p[w] = b
				w++
				continue // between messages
			}
			m.n++
			if m.n > m.limit {
				m.err = messageBoundError(m.limit)
				m.cut(m.err)
				return w, m.err
			}
			if m.f.step(b) {
				p[w] = b
				w++
			}
			if (b == '}' || b == ']') && m.f.between() {
				m.n = 0 // the message ended
			}
		}
		if w > 0 || n == 0 || err != nil {
			return w, err // a read whose bytes were all dropped reads on
		}
	}
	return 0, m.err
}

func (m *messageBound) Close() error { return nil }

// serverStdin is the server's stdin; closing it ends the server as the
// MCP spec asks: stdin closed, then a wait, then SIGTERM, then SIGKILL
// (to its whole group), each after mcpGrace.
type serverStdin struct {
	io.WriteCloser
	cmd *exec.Cmd
}

func (s *serverStdin) Close() error {
	if err := s.WriteCloser.Close(); err != nil {
		return fmt.Errorf("closing stdin: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	for _, hard := range []bool{false, true} {
		select {
		case err := <-exited:
			return err
		case <-time.After(mcpGrace):
		}
		_ = killGroup(s.cmd.Process.Pid, hard)
	}
	select {
	case err := <-exited:
		return err
	case <-time.After(mcpGrace):
		return errors.New("the server did not end")
	}
}
