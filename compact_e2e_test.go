package main

import (
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

// TestChatCompactEndToEnd: against the stateful fake server, a conversation
// that outgrows the context window gets the one-line offer; /compact shows
// the panel and the divider under the transcript, which stays; the prompt
// sent again goes through, from the compacted window.
func TestChatCompactEndToEnd(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{ContextWindow: 300})
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_long", "the long first answer, "+strings.Repeat("and more ", 100))})
	p := chatPane(t, srv)
	p.say("tell me everything")
	p.waitText("the long first answer")
	p.say("and the rest?")
	p.waitText("/compact shrinks it")
	p.say("/compact")
	s := p.waitText("the model's context starts here")
	for _, want := range []string{"≡ context compacted", " tokens", "the long first answer"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	p.say("and the rest?")
	p.waitText(`to "and the rest?": the context held`)
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if reqs[2].Path != "/v1/responses/compact" || last.PreviousResponseID() != "" || !strings.Contains(string(last.Body), `"type":"compaction"`) {
		t.Errorf("requests: compact %s; last %s", reqs[2].Path, last.Body)
	}
}
