package session_test

import (
	"encoding/json"
	"strings"
	"testing"

	"runnel/session"
	"runnel/stream"
	"runnel/stream/streamtest"
)

// threeTurns sends "question A", "question B" and "question C" through a
// stateful fake server (answers resp_1…resp_3), journaled when j is not nil.
func threeTurns(t *testing.T, store bool, j func(*session.Turn) *session.TurnLog) (*session.Conversation, *streamtest.Server, *stream.Client) {
	t.Helper()
	srv := streamtest.New(t).Stateful(streamtest.StateOptions{})
	cl := &stream.Client{BaseURL: srv.URL}
	c := &session.Conversation{Settings: session.Settings{Model: "m", Store: store}}
	for i, id := range []string{"resp_1", "resp_2", "resp_3"} {
		srv.Enqueue(streamtest.Reply{SSE: streamtest.Text(id, "answer "+string(rune('A'+i)))})
		turn := c.Say("question " + string(rune('A'+i)))
		var log *session.TurnLog
		if j != nil {
			log = j(turn)
		}
		send(t, c, cl, turn, log)
	}
	return c, srv, cl
}

// TestEditChainsFromTheTurnBefore: an edit of turn 2 sends the new prompt
// chained to turn 1's response (the server answers it: it holds resp_1),
// both branches stay, and switching back continues from turn 3's answer.
func TestEditChainsFromTheTurnBefore(t *testing.T) {
	c, srv, cl := threeTurns(t, true, nil)
	b2, b3 := c.Turns[1], c.Turns[2]
	c.Cut(1)
	if c.ChainID() != "resp_1" || len(c.Turns) != 1 {
		t.Fatalf("after the cut: chain %q, %d turns", c.ChainID(), len(c.Turns))
	}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_4", "answer B2")})
	edited := c.Say("question B, edited")
	send(t, c, cl, edited, nil)
	req := srv.Requests()[3]
	if req.PreviousResponseID() != "resp_1" || len(req.JSON()["input"].([]any)) != 1 {
		t.Fatalf("the edit sent previous_response_id %q with %s", req.PreviousResponseID(), req.Body)
	}
	if edited.Parent != c.Turns[0] || b2.Parent != c.Turns[0] {
		t.Errorf("the edited turn and the original do not follow the same turn")
	}
	if pos, n := c.Siblings(1); pos != 2 || n != 2 {
		t.Errorf("siblings %d/%d, want 2/2", pos, n)
	}
	if pos, n := c.Siblings(0); pos != 1 || n != 1 {
		t.Errorf("turn 1: %d/%d, want 1/1", pos, n)
	}
	if c.ChainID() != "resp_4" {
		t.Errorf("chain %q after the edit's answer", c.ChainID())
	}

	c.Show(c.Newest(b2)) // ◀: the first branch, to its tip
	if len(c.Turns) != 3 || c.Turns[2] != b3 || c.ChainID() != "resp_3" {
		t.Fatalf("back on the first branch: %d turns, chain %q", len(c.Turns), c.ChainID())
	}
	if pos, n := c.Siblings(1); pos != 1 || n != 2 {
		t.Errorf("siblings %d/%d, want 1/2", pos, n)
	}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_5", "answer D")})
	send(t, c, cl, c.Say("question D"), nil)
	if got := srv.Requests()[4].PreviousResponseID(); got != "resp_3" {
		t.Errorf("the next prompt on the first branch chains to %q, want resp_3", got)
	}
	bs := c.Branches() // in the order their tips began: the edit's, then A…D
	if len(bs) != 2 || bs[0].At != 2 || bs[0].Prompt != "question B, edited" || bs[0].Turns != 2 || bs[0].Current ||
		bs[1].At != 0 || bs[1].Prompt != "question A" || bs[1].Turns != 4 || !bs[1].Current {
		t.Errorf("branches %+v", bs)
	}
}

// TestEditWithoutStoredStateSendsTheHistoryBeforeIt: with store = false the
// edit of turn 3 sends turns 1 and 2 (prompts and answers) and the new
// prompt, and nothing of the replaced turn.
func TestEditWithoutStoredStateSendsTheHistoryBeforeIt(t *testing.T) {
	c, srv, cl := threeTurns(t, false, nil)
	c.Cut(2)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_4", "answer C2")})
	send(t, c, cl, c.Say("question C, edited"), nil)
	req := srv.Requests()[3]
	input, _ := json.Marshal(req.JSON()["input"])
	if req.PreviousResponseID() != "" {
		t.Errorf("store = false chained to %q", req.PreviousResponseID())
	}
	for _, want := range []string{"question A", "answer A", "question B", "answer B", "question C, edited"} {
		if !strings.Contains(string(input), want) {
			t.Errorf("history lacks %q: %s", want, input)
		}
	}
	if strings.Contains(string(input), "answer C") || strings.Contains(string(input), `"question C"`) {
		t.Errorf("history holds the replaced turn: %s", input)
	}
}

// TestBranchesSurviveTheStore: an edit, journaled, then a switch back to the
// first branch, resume on the first branch with the edited one kept; a
// switch back to the edit resumes there.
func TestBranchesSurviveTheStore(t *testing.T) {
	db := openStore(t)
	j := session.NewJournal(db, session.Settings{Model: "m", Store: true})
	c, srv, cl := threeTurns(t, true, j.Begin)
	b2 := c.Turns[1]
	c.Cut(1)
	j.SetTip(c.Turns[0])
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_4", "answer B2")})
	edited := c.Say("question B, edited")
	send(t, c, cl, edited, j.Begin(edited))
	c.Show(c.Newest(b2))
	j.SetTip(c.Turns[len(c.Turns)-1])
	j.Sync()

	back, _ := reload(t, db, j.ID())
	if len(back.Turns) != 3 || back.Turns[2].Prompt != "question C" || back.ChainID() != "resp_3" {
		t.Fatalf("resumed %d turns, chain %q", len(back.Turns), back.ChainID())
	}
	if pos, n := back.Siblings(1); pos != 1 || n != 2 {
		t.Errorf("resumed siblings %d/%d", pos, n)
	}
	other := back.Children(back.Turns[0])[1]
	if other.Prompt != "question B, edited" || other.Parent != back.Turns[0] {
		t.Fatalf("the edited branch: %q", other.Prompt)
	}
	// the resumed conversation switches, the journal records it, and the
	// next turn follows the edit
	rj := session.ResumeJournal(db, j.ID(), back.Settings)
	back.Show(back.Newest(other))
	rj.SetTip(back.Turns[len(back.Turns)-1])
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_5", "answer E")})
	turn := back.Say("question E")
	send(t, back, cl, turn, rj.Begin(turn))
	rj.Close()
	j.Close()
	if got := srv.Requests()[4].PreviousResponseID(); got != "resp_4" {
		t.Errorf("after switching to the edit, the next turn chains to %q", got)
	}
	last, _ := reload(t, db, j.ID())
	var prompts []string
	for _, t := range last.Turns {
		prompts = append(prompts, t.Prompt)
	}
	if strings.Join(prompts, "|") != "question A|question B, edited|question E" {
		t.Errorf("resumed path %q", prompts)
	}
}

// TestUndoKeepsTheExchangeInTheTree: /undo's cut leaves the last exchange
// as a branch of its own; the next prompt is its sibling.
func TestUndoKeepsTheExchangeInTheTree(t *testing.T) {
	c, srv, cl := threeTurns(t, true, nil)
	c.Cut(c.LastUserTurn())
	if len(c.Turns) != 2 || c.ChainID() != "resp_2" {
		t.Fatalf("after undo: %d turns, chain %q", len(c.Turns), c.ChainID())
	}
	if bs := c.Branches(); len(bs) != 2 || !bs[0].Current || bs[0].Turns != 2 || bs[1].Turns != 3 {
		t.Errorf("branches after undo %+v", bs)
	}
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_4", "answer")})
	send(t, c, cl, c.Say("question C again"), nil)
	if got := srv.Requests()[3].PreviousResponseID(); got != "resp_2" {
		t.Errorf("after undo the next turn chains to %q", got)
	}
	if pos, n := c.Siblings(2); pos != 2 || n != 2 {
		t.Errorf("siblings %d/%d", pos, n)
	}
}

// TestEditLeavesTheServerConversation: in conversations mode the server's
// conversation holds every turn of the old path, so an edit leaves it and
// chains by response id, as a fork does; it never sends both.
func TestEditLeavesTheServerConversation(t *testing.T) {
	c, srv, cl := threeTurns(t, true, nil)
	c.Settings.State, c.Settings.Conversation = "conversation", "conv_1"
	c.Cut(1)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_4", "answer B2")})
	send(t, c, cl, c.Say("question B, edited"), nil)
	body := srv.Requests()[3].JSON()
	if _, named := body["conversation"]; named || srv.Requests()[3].PreviousResponseID() != "resp_1" || c.Settings.Conversation != "" {
		t.Errorf("the edit sent conversation %v, previous_response_id %q; the settings keep %q", body["conversation"], srv.Requests()[3].PreviousResponseID(), c.Settings.Conversation)
	}
}
