package session

import (
	"encoding/json"
	"strings"
	"testing"

	"runnel/stream"
)

func snap(id, status string) *stream.Snapshot {
	return &stream.Snapshot{ID: id, Status: status, Terminal: status != ""}
}

func TestChainingSkipsFailedAndStoppedTurns(t *testing.T) {
	c := &Conversation{Settings: Settings{Model: "m", Store: true, ReasoningEffort: "low"}}
	t1 := c.Say("one")
	if t1.Request.PreviousResponseID != "" || t1.Request.Model != "m" || t1.Request.Reasoning.Effort != "low" || !*t1.Request.Store {
		t.Fatalf("first request %+v", t1.Request)
	}
	c.Finish(t1, []*stream.Snapshot{snap("resp_1", "completed")}, nil, false)
	t2 := c.Say("two")
	if t2.Request.PreviousResponseID != "resp_1" || len(t2.Request.Input) != 1 || !strings.Contains(string(t2.Request.Input[0]), `"two"`) {
		t.Fatalf("second request %+v", t2.Request)
	}
	c.Finish(t2, []*stream.Snapshot{snap("resp_2", "failed")}, nil, false)
	t3 := c.Say("three")
	cut := snap("resp_3", "")
	cut.CutOff = true
	c.Finish(t3, []*stream.Snapshot{cut}, nil, true)
	if c.Say("four").Request.PreviousResponseID != "resp_1" {
		t.Error("a failed or stopped turn must not move the chain")
	}
	c.Finish(c.Turns[3], []*stream.Snapshot{snap("resp_4a", "completed"), snap("resp_4b", "incomplete")}, nil, false)
	if c.ChainID() != "resp_4b" {
		t.Errorf("chain %q: an incomplete response still chains", c.ChainID())
	}
}

func TestApprovalResponse(t *testing.T) {
	var m map[string]any
	json.Unmarshal(ApprovalResponse("mcpr_1", false, " not now "), &m)
	if m["type"] != "mcp_approval_response" || m["approval_request_id"] != "mcpr_1" || m["approve"] != false || m["reason"] != "not now" {
		t.Errorf("%v", m)
	}
	json.Unmarshal(ApprovalResponse("mcpr_1", true, ""), &m)
	if m["approve"] != true {
		t.Errorf("%v", m)
	}
}
