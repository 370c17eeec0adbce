package stream

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"
)

func TestRetryWaitBackoff(t *testing.T) {
	top := func(n int64) int64 { return n - 1 } // the ceiling itself
	base, maxDelay := 500*time.Millisecond, 30*time.Second
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second}
	err := &APIError{Status: 500}
	for attempt, w := range want {
		if got := retryWait(err, attempt, base, maxDelay, top); got != w {
			t.Errorf("attempt %d: ceiling %v, want %v", attempt, got, w)
		}
		if got := retryWait(err, attempt, base, maxDelay, func(int64) int64 { return 0 }); got != 0 {
			t.Errorf("attempt %d: full jitter floor %v, want 0", attempt, got)
		}
	}
	if got := retryWait(err, 1000, base, maxDelay, top); got != maxDelay {
		t.Errorf("attempt 1000: %v, want the cap (no overflow)", got)
	}
	for range 100 {
		if got := retryWait(err, 3, base, maxDelay, jitter); got < 0 || got > 4*time.Second {
			t.Fatalf("jittered wait %v outside [0, 4s]", got)
		}
	}
}

func TestRetryWaitHonoursRetryAfter(t *testing.T) {
	never := func(int64) int64 { panic("backoff used despite Retry-After") }
	wrapped := fmt.Errorf("attempt: %w", &APIError{Status: 429, RetryAfter: 7 * time.Second})
	if got := retryWait(wrapped, 0, time.Millisecond, time.Millisecond, never); got != 7*time.Second {
		t.Errorf("got %v, want the server's 7s", got)
	}
	huge := &APIError{Status: 503, RetryAfter: time.Hour}
	if got := retryWait(huge, 0, time.Millisecond, time.Second, never); got != retryAfterCap {
		t.Errorf("got %v, want the %v cap", got, retryAfterCap)
	}
	if got := retryWait(huge, 0, time.Millisecond, 2*time.Minute, never); got != 2*time.Minute {
		t.Errorf("got %v, want MaxDelay when it is above the cap", got)
	}
}

func TestRetryable(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&APIError{Status: 503}, true},
		{&APIError{Status: 401}, false},
		{&connError{retry: true}, true},
		{&connError{retry: false}, false},
		{&brokenStreamError{}, true},
		{&brokenStreamError{started: true}, false},
		{newIdleError("h", time.Second), false},
		{errors.New("other"), false},
		{context.Canceled, false},
	}
	for _, tt := range tests {
		if got := retryable(tt.err); got != tt.want {
			t.Errorf("retryable(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// TestSleepCtx runs on a fake clock: the wait takes exactly d, and a cancel
// ends it at once with the context's cause.
func TestSleepCtx(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		if err := sleepCtx(t.Context(), 3*time.Second); err != nil || time.Since(start) != 3*time.Second {
			t.Errorf("sleepCtx: %v after %v", err, time.Since(start))
		}
		cause := errors.New("user pressed esc")
		ctx, cancel := context.WithCancelCause(t.Context())
		time.AfterFunc(time.Second, func() { cancel(cause) })
		start = time.Now()
		if err := sleepCtx(ctx, time.Hour); err != cause || time.Since(start) != time.Second {
			t.Errorf("cancelled sleepCtx: %v after %v", err, time.Since(start))
		}
	})
}
