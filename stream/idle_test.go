package stream

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// chanBody is a response body fed through a channel, whose Read fails the way
// a transport's does once the request context is cancelled.
type chanBody struct {
	ctx    context.Context
	chunks chan string
	closed bool
}

func (b *chanBody) Read(p []byte) (int, error) {
	select {
	case s, ok := <-b.chunks:
		if !ok {
			return 0, io.EOF
		}
		return copy(p, s), nil
	case <-b.ctx.Done():
		return 0, errors.New("read tcp: use of closed network connection")
	}
}

func (b *chanBody) Close() error { b.closed = true; return nil }

func newTestIdleReader(parent context.Context, timeout time.Duration) (*idleReader, *chanBody) {
	ctx, cancel, timer := armIdle(parent, timeout, "api.example.com")
	body := &chanBody{ctx: ctx, chunks: make(chan string)}
	return &idleReader{body: body, ctx: ctx, cancel: cancel, timer: timer, timeout: timeout, host: "api.example.com"}, body
}

// TestIdleTimerResetsOnData runs on a fake clock with the default 5m: data
// every 4m keeps the stream alive for 12m, then 5m of silence ends it.
func TestIdleTimerResetsOnData(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, body := newTestIdleReader(t.Context(), defaultIdleTimeout)
		defer r.Close()
		go func() {
			for range 3 {
				time.Sleep(4 * time.Minute)
				body.chunks <- "data"
			}
		}()
		start := time.Now()
		got, err := io.ReadAll(r)
		if string(got) != "datadatadata" {
			t.Errorf("read %q", got)
		}
		if !errors.Is(err, ErrIdleTimeout) {
			t.Fatalf("err = %v, want ErrIdleTimeout", err)
		}
		if d := time.Since(start); d != 17*time.Minute {
			t.Errorf("timed out after %v, want 12m of data + 5m of silence", d)
		}
		want := "stream idle timeout: no data from api.example.com for 5m0s, so the connection was closed — set timeouts.idle in config to wait longer"
		if err.Error() != want {
			t.Errorf("got  %s\nwant %s", err, want)
		}
		if _, again := r.Read(make([]byte, 1)); again != err {
			t.Errorf("error not sticky: %v", again)
		}
	})
}

// TestIdleReaderCloseStopsTimer: after Close the timer never fires, so no
// goroutine or callback outlives the stream.
func TestIdleReaderCloseStopsTimer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, body := newTestIdleReader(t.Context(), time.Minute)
		if err := r.Close(); err != nil || !body.closed {
			t.Fatalf("Close: %v, body closed %v", err, body.closed)
		}
		time.Sleep(time.Hour)
		if cause := context.Cause(r.ctx); cause != context.Canceled {
			t.Errorf("cause after Close = %v, want context.Canceled (the idle timer fired)", cause)
		}
	})
}

// TestIdleReaderCallerCancel: the caller's cancellation is reported as is,
// not as the transport's closed-connection error.
func TestIdleReaderCallerCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		r, _ := newTestIdleReader(ctx, time.Minute)
		defer r.Close()
		time.AfterFunc(time.Second, cancel)
		_, err := r.Read(make([]byte, 8))
		if err != context.Canceled {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

func TestIdleReaderPrime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, body := newTestIdleReader(t.Context(), time.Minute)
		defer r.Close()
		go func() { body.chunks <- "first"; body.chunks <- "second"; close(body.chunks) }()
		if err := r.prime(); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if string(got) != "firstsecond" || err != nil {
			t.Errorf("read %q, %v", got, err)
		}

		empty, body2 := newTestIdleReader(t.Context(), time.Minute)
		defer empty.Close()
		close(body2.chunks)
		err = empty.prime()
		if !retryable(err) || !strings.Contains(err.Error(), "empty stream") {
			t.Errorf("prime of an empty body: %v (retryable %v)", err, retryable(err))
		}
	})
}
