package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"runnel/stream/streamtest"
)

// TestChatRetryCountdown: a 429 with Retry-After 2 shows the real wait,
// counts down, and is replaced by the outcome once the retry answers.
func TestChatRetryCountdown(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.RateLimited(2*time.Second), streamtest.Reply{SSE: streamtest.Text("resp_ok", "answer after the retry")})
	p := chatPane(t, srv)
	p.say("hello")
	counting := regexp.MustCompile(`retrying in (\d+)s`)
	s := p.waitFor("the countdown", func(s string) bool { return counting.MatchString(s) })
	switch n := counting.FindStringSubmatch(s)[1]; n {
	case "2":
		p.waitText("retrying in 1s") // it counts down
	case "1":
	default:
		t.Errorf("the countdown shows %ss for a Retry-After of 2s:\n%s", n, s)
	}
	if strings.Contains(s, "wait and try again") {
		t.Errorf("the notice contradicts the automatic retry:\n%s", s)
	}
	p.waitText("answer after the retry")
	s = p.waitText("the retry worked")
	if counting.MatchString(s) || strings.Contains(s, "retrying now") {
		t.Errorf("the countdown stayed after the retry succeeded:\n%s", s)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests; want the 429 and the retry", n)
	}
}

// TestOneShotRetryLine: -p says what failed and that it retries, without
// "wait and try again", which the automatic retry contradicts.
func TestOneShotRetryLine(t *testing.T) {
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.RateLimited(50*time.Millisecond), streamtest.Reply{SSE: streamtest.Text("resp_r", "after retry")})
	t.Setenv("OPENAI_API_KEY", "sk-test")
	out, errOut, code := runnel(t, "", "-p", "hi", "--base-url", srv.URL)
	if code != exitOK || strings.TrimSpace(out) != "after retry" {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "429") || !strings.Contains(errOut, "retrying in") || strings.Contains(errOut, "try again —") || strings.Contains(errOut, "wait and try again") {
		t.Errorf("retry line: %q", errOut)
	}
}
