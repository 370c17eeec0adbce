package main

// End-to-end tests of one long paragraph streamed flat out (words, base64,
// CJK text): the kind of answer that used to freeze the chat, and esc and
// SIGTERM with it.

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"
)

const floodMarker = "LAST-WORD-MARKER"

// paragraph is n bytes of one paragraph of the kind, with no blank line.
func paragraph(kind string, n int) string {
	r := rand.New(rand.NewSource(int64(len(kind))))
	var b strings.Builder
	words := []string{"alpha", "beta", "gamma", "delta", "stream", "render", "frame", "token"}
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for b.Len() < n {
		switch kind {
		case "words":
			b.WriteString(words[r.Intn(len(words))] + " ")
		case "base64":
			b.WriteByte(b64[r.Intn(len(b64))])
		case "cjk":
			b.WriteRune(rune(0x4e00 + r.Intn(2000)))
		}
	}
	return b.String()
}

// paragraphServer streams text as one message in 16-character deltas, as
// fast as the socket takes them, then endless more of the same kind while
// more is set (until the client goes, at most 16 MB); at marked bytes of
// text sent it reports the time on mark, at the end (the last byte
// flushed) on end.
type paragraphServer struct {
	URL  string
	mark chan time.Time
	end  chan time.Time
}

func newParagraphServer(t *testing.T, kind, text string, markAt int, more bool) *paragraphServer {
	return newParagraphServerStall(t, kind, text, markAt, more, false)
}

// newParagraphServerStall is newParagraphServer that, with stall, sends
// nothing more after the mark until the client goes.
func newParagraphServerStall(t *testing.T, kind, text string, markAt int, more, stall bool) *paragraphServer {
	ps := &paragraphServer{mark: make(chan time.Time, 1), end: make(chan time.Time, 1)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/responses" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(m map[string]any) bool {
			b, _ := json.Marshal(m)
			_, err := fmt.Fprintf(w, "data: %s\n\n", b)
			return err == nil
		}
		ev(map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_flood", "status": "in_progress", "output": []any{}}})
		ev(map[string]any{"type": "response.output_item.added", "output_index": 0, "item": map[string]any{"type": "message", "id": "m", "role": "assistant", "content": []any{}}})
		sent, marked := 0, false
		send := func(s string) bool {
			rs := []rune(s)
			for i := 0; i < len(rs); i += 16 {
				d := string(rs[i:min(i+16, len(rs))])
				if !ev(map[string]any{"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "item_id": "m", "delta": d}) {
					return false
				}
				if sent += len(d); !marked && markAt > 0 && sent >= markAt {
					marked = true
					w.(http.Flusher).Flush()
					ps.mark <- time.Now()
					if stall {
						<-r.Context().Done()
						return false
					}
				}
			}
			return true
		}
		if !send(text) {
			return
		}
		for more && sent < 16<<20 {
			if !send(paragraph(kind, 64<<10)) {
				return
			}
		}
		item := map[string]any{"type": "message", "id": "m", "role": "assistant", "status": "completed", "content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
		ev(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
		ev(map[string]any{"type": "response.completed", "response": map[string]any{"id": "resp_flood", "status": "completed", "output": []any{item}}})
		w.(http.Flusher).Flush()
		ps.end <- time.Now()
	}))
	t.Cleanup(srv.Close)
	ps.URL = srv.URL + "/v1"
	return ps
}

// paragraphPane starts the chat against url with its own data dir.
func paragraphPane(t *testing.T, url string) (*pane, string) {
	data := t.TempDir()
	p := startPane(t, 100, 30, map[string]string{"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-e2e", "XDG_DATA_HOME": data}, binary(t))
	p.waitText("Ask anything")
	return p, data
}

// seen polls the screen (every 5 ms) until cond holds and returns when it
// first did; the deadline only fails the test.
func seen(t *testing.T, p *pane, what string, cond func(string) bool) time.Time {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if cond(p.screen()) {
			return time.Now()
		}
		time.Sleep(5 * time.Millisecond) // polling interval, not an assertion delay
	}
	t.Fatalf("timed out waiting for %s; screen:\n%s", what, p.screen())
	return time.Time{}
}

var floodKinds = []string{"words", "base64", "cjk"}

// TestChatLongParagraphEndsInTime: a 256 KB paragraph (words, base64, CJK)
// streamed flat out shows its last word after at most a second of the
// chat's CPU from the last byte (a chat that fell behind the stream works
// through the rest first), the chat stays live, and the answer is drawn
// once. The second is the chat's CPU time, not the wall clock's, which a
// loaded machine stretches (proccpu_linux_test.go).
func TestChatLongParagraphEndsInTime(t *testing.T) {
	// not parallel: a pane beside it would slow its polling
	for _, kind := range floodKinds {
		t.Run(kind, func(t *testing.T) {
			srv := newParagraphServer(t, kind, paragraph(kind, 256<<10)+" "+floodMarker, 0, false)
			p, _ := paragraphPane(t, srv.URL)
			pid := runnelPID(t, p)
			p.say("go")
			var last time.Time
			select {
			case last = <-srv.end:
			case <-time.After(30 * time.Second): // a guard against hanging
				t.Fatal("the server never sent the last byte")
			}
			cpu := cpuOf(t, pid)
			at := seen(t, p, "the last word", func(s string) bool { return strings.Contains(s, floodMarker) })
			cpu = cpuOf(t, pid) - cpu
			s := p.waitText("ready")
			if strings.Count(s, floodMarker) != 1 {
				t.Errorf("the end is drawn %d times:\n%s", strings.Count(s, floodMarker), s)
			}
			t.Logf("%s: the last word showed after %v of the chat's CPU (%v on the wall) from the last byte", kind, cpu, at.Sub(last))
			if cpu > time.Second {
				t.Errorf("the last word showed after %v of the chat's CPU from the last byte, over 1 s", cpu)
			}
		})
	}
}

// TestChatEscStopsALongParagraph: esc in the middle of a long paragraph
// streamed flat out shows "stopped" after at most 200 ms more of the
// chat's CPU than esc on a stream standing still (measured in the same
// run); a chat that worked through what it had queued before the key would
// spend seconds. CPU time, not the wall clock's, which a loaded machine
// stretches for a flooded chat more than for an idle one
// (proccpu_linux_test.go).
func TestChatEscStopsALongParagraph(t *testing.T) {
	// not parallel: a pane beside it would slow its polling
	escCost := func(t *testing.T, kind string, stall bool) time.Duration {
		srv := newParagraphServerStall(t, kind, paragraph(kind, 256<<10), 128<<10, true, stall)
		p, _ := paragraphPane(t, srv.URL)
		pid := runnelPID(t, p)
		p.say("go")
		select {
		case <-srv.mark:
		case <-time.After(30 * time.Second): // a guard against hanging
			t.Fatal("the server never sent 128 KB")
		}
		if stall { // the chat has drawn what came: it is idle
			seen(t, p, "the text so far", func(s string) bool { return strings.Contains(s, "esc") && strings.Count(s, "\n") > 10 })
		}
		cpu := cpuOf(t, pid)
		pressed := time.Now()
		p.keys("Escape")
		at := seen(t, p, "stopped", func(s string) bool { return strings.Contains(s, "stopped") })
		cpu = cpuOf(t, pid) - cpu
		t.Logf("%s: stopped after %v of the chat's CPU (%v on the wall) from esc", kind, cpu, at.Sub(pressed))
		return cpu
	}
	base := escCost(t, "words", true)
	for _, kind := range floodKinds {
		t.Run(kind, func(t *testing.T) {
			if d := escCost(t, kind, false); d > base+200*time.Millisecond {
				t.Errorf("esc showed stopped after %v of the chat's CPU, want within 200ms of %v (esc on a stream standing still)", d, base)
			}
		})
	}
}

// TestChatSIGTERMDuringALongParagraph: SIGTERM in the middle of a long
// paragraph streamed flat out exits 143 at once (after at most 2 s of the
// chat's CPU: CPU time, not the wall clock's, which a loaded machine
// stretches), with the partial answer saved.
func TestChatSIGTERMDuringALongParagraph(t *testing.T) {
	// not parallel: a pane beside it would slow its polling
	srv := newParagraphServer(t, "cjk", paragraph("cjk", 256<<10), 128<<10, true)
	p, data := paragraphPane(t, srv.URL)
	pid, shell := runnelPID(t, p), panePID(t, p)
	p.say("go")
	select {
	case <-srv.mark:
	case <-time.After(30 * time.Second): // a guard against hanging
		t.Fatal("the server never sent 128 KB")
	}
	cpu := cpuOf(t, pid)
	sent := time.Now()
	signalRunnel(t, p, syscall.SIGTERM)
	at := seen(t, p, "the exit", func(s string) bool { return strings.Contains(s, "[exited") })
	if s := p.screen(); !strings.Contains(s, "[exited 143]") {
		t.Fatalf("after SIGTERM:\n%s", s)
	}
	cpu = waitedCPUOf(t, shell) - cpu // the shell has waited for runnel: its whole CPU
	s := latestSession(t, data)
	if len(s.Turns) != 1 || len(s.Turns[0].Responses) == 0 || len(s.Turns[0].Responses[0].Items) == 0 {
		t.Fatalf("the partial turn was not saved: %+v", s)
	}
	t.Logf("SIGTERM ended runnel after %v of its CPU (%v on the wall)", cpu, at.Sub(sent))
	if cpu > 2*time.Second {
		t.Errorf("SIGTERM took %v of runnel's CPU to end it, over 2 s", cpu)
	}
}
