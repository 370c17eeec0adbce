package stream

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// RetryInfo describes a retry Open is about to make, for OnRetry (the UI
// shows it as a countdown).
type RetryInfo struct {
	// Attempt is the retry about to be made, counting from 1, and Max the
	// most that will be made: Open's retries; with Resume, the turn's
	// reconnects (MaxResumes), which progress does not reset; with Poll,
	// the checks (MaxPolls, within PollWindow).
	Attempt int
	Max     int
	Wait    time.Duration // how long Open waits before it
	Err     error         // the failure that caused it

	// Set for background responses (Request.Background), at most one of:
	Resume     bool // reconnecting a dropped or stalled stream (GET … starting_after)
	Poll       bool // the server cannot resume streams: fetching the response until it ends
	Foreground bool // the server refused background mode: sent again without it (no wait)
}

// withRetries calls once until it succeeds, fails for good (an error that
// is not retryable, or MaxRetries retries used up) or ctx is done, waiting
// retryWait between tries and telling OnRetry before each wait. When ctx
// ends it, the error is ctx's cause, prefixed "op: " when op is not "".
// Open and Compact share it.
func withRetries[T any](ctx context.Context, c *Client, op string, once func() (T, error)) (T, error) {
	var zero T
	maxRetries := c.MaxRetries
	switch {
	case maxRetries == 0:
		maxRetries = defaultMaxRetries
	case maxRetries < 0:
		maxRetries = 0
	}
	for attempt := 0; ; attempt++ {
		v, err := once()
		if err == nil {
			return v, nil
		}
		if ctx.Err() != nil {
			if op != "" {
				return zero, fmt.Errorf("%s: %w", op, context.Cause(ctx))
			}
			return zero, context.Cause(ctx)
		}
		if attempt >= maxRetries || !retryable(err) {
			return zero, err
		}
		wait := retryWait(err, attempt, orDefault(c.BaseDelay, defaultBaseDelay), orDefault(c.MaxDelay, defaultMaxDelay), jitter)
		if c.OnRetry != nil {
			c.OnRetry(RetryInfo{Attempt: attempt + 1, Max: maxRetries, Wait: wait, Err: err})
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return zero, err
		}
	}
}

// retryAfterCap bounds a server's Retry-After (unless MaxDelay is larger), so
// a hostile or confused server cannot park the client for hours.
const retryAfterCap = 60 * time.Second

// retryable reports whether err, from one attempt of Open, may succeed if
// the request is sent again. Only failures before the first byte of a stream
// reach this: an API error with a retryable status, a connection error other
// than a misconfiguration, or a 2xx body that failed before any data. Idle
// timeouts are not retried: the server already had the full timeout.
func retryable(err error) bool {
	if errors.Is(err, ErrIdleTimeout) {
		return false
	}
	var r interface{ Retryable() bool }
	return errors.As(err, &r) && r.Retryable()
}

// retryWait is how long to wait before retry number attempt+1 (attempt
// counts from 0): the server's Retry-After when it sent one, capped at
// max(retryAfterCap, maxDelay); else exponential backoff with full jitter,
// a uniformly random wait in [0, min(maxDelay, base·2^attempt)].
func retryWait(err error, attempt int, base, maxDelay time.Duration, rnd func(n int64) int64) time.Duration {
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.RetryAfter > 0 {
		return min(apiErr.RetryAfter, max(retryAfterCap, maxDelay))
	}
	ceiling := base
	for i := 0; i < attempt && ceiling < maxDelay; i++ {
		ceiling *= 2
	}
	ceiling = min(ceiling, maxDelay)
	if ceiling <= 0 {
		return 0
	}
	return time.Duration(rnd(int64(ceiling) + 1))
}

// jitter is the random source for retryWait.
func jitter(n int64) int64 { return rand.Int64N(n) }

// sleepCtx waits for d, or returns ctx's cause as soon as ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return context.Cause(ctx)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// Next says in words what happens next, for a one-line notice after the
// failure: "retrying in 1.2s (attempt 1 of 3)", "reconnecting in 0.4s
// (attempt 1 of 20)", "checking again in 2s (1 of 40)", or, for a refused
// background mode, "going on in foreground mode".
func (r RetryInfo) Next() string {
	wait := r.Wait.Round(100 * time.Millisecond)
	switch {
	case r.Foreground:
		return "going on in foreground mode"
	case r.Resume:
		return fmt.Sprintf("reconnecting in %s (attempt %d of %d)", wait, r.Attempt, r.Max)
	case r.Poll:
		return fmt.Sprintf("checking again in %s (%d of %d)", wait, r.Attempt, r.Max)
	}
	return fmt.Sprintf("retrying in %s (attempt %d of %d)", wait, r.Attempt, r.Max)
}
