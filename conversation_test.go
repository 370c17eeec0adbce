package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"runnel/stream"
	"runnel/stream/streamtest"
)

// TestSessionsImportConversation: `runnel sessions import --conversation`
// pulls a server conversation (over two pages) from the configured
// provider into a new session of one turn per prompt, which `-r ID -p`
// continues in the same conversation: conversation sent, no
// previous_response_id, nothing created, the server's conversation grown
// by the new turn. An unknown conversation is one line, exit 1.
func TestSessionsImportConversation(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	var items []json.RawMessage
	for i := range 60 {
		items = append(items, stream.UserText(fmt.Sprintf("question %d", i)),
			json.RawMessage(fmt.Sprintf(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"answer %d"}]}`, i)))
	}
	conv := srv.AddConversation(items...)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	out, errOut, code := runnel(t, "", "sessions", "import", "--conversation", conv)
	m := regexp.MustCompile(`as (\S+)\nresume with: runnel -r (\S+)\n$`).FindStringSubmatch(out)
	if code != exitOK || errOut != "" || m == nil || !strings.Contains(out, "(120 items)") {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	id := m[1]
	md, _, _ := runnel(t, "", "sessions", "export", id)
	if !strings.Contains(md, "## Turn 60") || !strings.Contains(md, "> question 59") || !strings.Contains(md, "answer 59") {
		t.Errorf("the imported session:\n%s", md)
	}

	out, errOut, code = runnel(t, "", "-r", id, "-p", "one more")
	if code != exitOK || !strings.Contains(out, "one more") {
		t.Fatalf("continue: %d %q %q", code, out, errOut)
	}
	var last map[string]any
	creates := 0
	for _, r := range srv.Requests() {
		if r.Path == "/v1/responses" {
			last = r.JSON()
		}
		if r.Path == "/v1/conversations" {
			creates++
		}
	}
	if last["conversation"] != conv || last["previous_response_id"] != nil || creates != 0 {
		t.Errorf("the continued turn: conversation %v, previous_response_id %v, %d creates", last["conversation"], last["previous_response_id"], creates)
	}
	if c, _ := srv.Conversation(conv); len(c.Items) != 122 {
		t.Errorf("the server's conversation holds %d items, want 122", len(c.Items))
	}

	_, errOut, code = runnel(t, "", "sessions", "import", "--conversation", "conv_nope")
	if code != exitFailure || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "conv_nope") || !strings.Contains(errOut, "not found") {
		t.Errorf("unknown conversation: %d %q", code, errOut)
	}
}

// TestOneShotConversationState: -p with -c state=conversation creates one
// conversation and sends it; a server without /conversations gets one
// line, and the answer comes with the local history.
func TestOneShotConversationState(t *testing.T) {
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	t.Setenv("OPENAI_API_KEY", "sk-test")
	out, errOut, code := runnel(t, "", "-c", "state=conversation", "-p", "hello", "--base-url", srv.URL)
	if code != exitOK || errOut != "" || !strings.Contains(out, "hello") {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Path != "/v1/conversations" || !strings.HasPrefix(fmt.Sprint(reqs[1].JSON()["conversation"]), "conv_") {
		t.Fatalf("requests: %v", reqs)
	}

	bare := streamtest.New(t).Stateful(streamtest.StateOptions{NoConversations: true})
	out, errOut, code = runnel(t, "", "-c", "state=conversation", "-p", "hello", "--base-url", bare.URL)
	if code != exitOK || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "keeps no conversations") || !strings.Contains(out, "hello") {
		t.Errorf("fallback: %d %q %q", code, out, errOut)
	}
}
