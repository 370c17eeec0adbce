package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"runnel/session/tools/toolrun"
	"runnel/stream"
)

// TestTextSummarySaysHowTheRunEnded: in -p's text formats, a function call
// runnel ran is summed up once it ran, with the run's outcome (failed,
// cancelled, denied, timed out), not the model's "completed"; a call that
// was not run is summed up with its item status when the output ends.
func TestTextSummarySaysHowTheRunEnded(t *testing.T) {
	for _, c := range []struct {
		status toolrun.Status
		want   string
	}{
		{toolrun.StatusOK, "completed"},
		{toolrun.StatusFailed, "failed"},
		{toolrun.StatusCancelled, "cancelled"},
		{toolrun.StatusDenied, "denied"},
		{toolrun.StatusTimedOut, "timed out"},
	} {
		var out bytes.Buffer
		p := formatPrinter(formatText, &out, &out, 80, nil)
		s := &stream.Snapshot{ID: "resp_1", Status: "completed", Terminal: true}
		for i, id := range []string{"call_1", "call_2"} {
			it, err := stream.ItemFromJSON(json.RawMessage(`{"type":"function_call","name":"sh` + id[5:] + `","call_id":"` + id + `","arguments":"{}","status":"completed"}`))
			if err != nil {
				t.Fatal(err)
			}
			it.Index, it.Done = i, true
			s.Items = append(s.Items, it)
			p.Event(&stream.Event{}, s, it)
		}
		p.Response(s)
		if strings.Contains(out.String(), "function") {
			t.Fatalf("%v: summed up before the call ran:\n%s", c.status, out.String())
		}
		p.Ran(s, toolrun.Result{Call: toolrun.Call{CallID: "call_1"}, Status: c.status, Duration: time.Second})
		if got, want := out.String(), "• function sh1({}) "+c.want+"\n"; got != want {
			t.Errorf("%v: after the run\n got %q\nwant %q", c.status, got, want)
		}
		p.Close()
		if !strings.HasSuffix(out.String(), "• function sh2({}) completed\n") {
			t.Errorf("%v: the call not run is not summed up at the end:\n%s", c.status, out.String())
		}
	}
}

// TestSummaryOfAFailedMCPCall: a hosted MCP call that carries an error is
// summed up as failed.
func TestSummaryOfAFailedMCPCall(t *testing.T) {
	it, err := stream.ItemFromJSON(json.RawMessage(`{"type":"mcp_call","server_label":"docs","name":"search","arguments":"{}","status":"completed","error":"boom"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := summaryLine(it, nil, ""); got != "• mcp docs.search({}) failed: boom" {
		t.Errorf("summary %q", got)
	}
}
