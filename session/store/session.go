package store

import (
	"bytes"
	"encoding/json"
	"time"

	"runnel/stream"
)

// Status is where a turn stands.
type Status string

const (
	StatusStreaming   Status = "streaming"   // in flight (or its process died and nobody has looked yet)
	StatusCompleted   Status = "completed"   // the last response completed
	StatusIncomplete  Status = "incomplete"  // the last response ended incomplete (e.g. max tokens)
	StatusFailed      Status = "failed"      // the server or the transport failed it
	StatusStopped     Status = "stopped"     // the user stopped it
	StatusInterrupted Status = "interrupted" // found streaming after its process died
)

// final reports whether FinishTurn may set s.
func (s Status) final() bool {
	switch s {
	case StatusCompleted, StatusIncomplete, StatusFailed, StatusStopped:
		return true
	}
	return false
}

func (s Status) known() bool { return s.final() || s == StatusStreaming || s == StatusInterrupted }

// chains reports whether a turn that ended with s moves the
// previous_response_id chain (mirrors session.Conversation).
func (s Status) chains() bool { return s == StatusCompleted || s == StatusIncomplete }

// SessionInfo is one line of a session list.
type SessionInfo struct {
	ID       SessionID
	Title    string // one line, sanitized
	Turns    int    // user turns: tool rounds are not counted (see UserTurn)
	Model    string // from the settings' "model"
	Provider string // from the settings' "provider": its name in the config; "" when none was saved
	Created  time.Time
	Updated  time.Time
	Preview  string // first line of the newest answer as plain text (no markdown syntax), sanitized; "" before one
}

// Session is a stored conversation, loaded whole.
//
// Invariants: Turns are in the order they were sent (Seq ascending); each
// turn's Responses are in response order and their Items in output order.
// Turns is the path from the root to the tip (branch.go): each turn's
// Parent is the Seq of the one before it (0 for the first); Off holds the
// turns of the other branches, Seq ascending, empty for a session that
// never branched.
type Session struct {
	Info     SessionInfo
	Settings json.RawMessage // the caller's JSON, secrets redacted
	Turns    []Turn
	Off      []Turn // the other branches' turns (All merges them back)
	// Compacted is the last compacted window /compact answered with
	// (SetCompacted), nil for none; turns may have sent it since.
	Compacted []json.RawMessage
	// Imported says the session came from a file (Import) and has not been
	// continued since: its settings are the file's, not the user's
	// (session.Foreign).
	Imported bool
}

// Turn is one exchange as stored.
type Turn struct {
	ID                 TurnID
	Seq                int               // 1, 2, … within the session
	Parent             int               // the Seq of the turn it follows, 0 for a first turn (branch.go)
	Prompt             string            // the user's text as typed, unsanitized
	Input              []json.RawMessage // input items as sent, byte for byte
	PreviousResponseID string            // the chain id the request carried
	Responses          []Response
	ResponseIDs        []string        // FinishTurn's ids; [i] is response i's
	Status             Status          // an unknown value from a newer runnel is kept as is
	Usage              json.RawMessage // as FinishTurn gave it, nil when none
	Error              string
	Started            time.Time
	Ended              time.Time // zero while streaming
	Background         Background
	// Runs is how runnel's own runs of a tool round's calls ended, as the
	// caller recorded them (SetRuns): its JSON, opaque here; nil when none
	// was recorded (a turn that ran nothing, or one saved before schema 6).
	Runs json.RawMessage
}

// Background is the background response a turn was streaming (background
// mode): ID is "" when there is none; After is the sequence number of the
// last event whose effect the stored items hold (-1: none), the point a
// reattach resumes after.
type Background struct {
	ID    string
	After int64
}

// Response is one response of a turn.
type Response struct {
	Index int
	ID    string // "" when the turn never finished
	Items []Item
}

// Item is one output item as received.
type Item struct {
	OutputIndex int
	Raw         json.RawMessage // the item's JSON, byte for byte
	Done        bool            // false: the last partial state saved while it streamed
}

// LastResponseID returns the id of the newest response of a turn that ended
// completed or incomplete: the previous_response_id to continue from. Failed,
// stopped and interrupted turns never move it (as in a live conversation).
func (s *Session) LastResponseID() string {
	for i := len(s.Turns) - 1; i >= 0; i-- {
		t := &s.Turns[i]
		if !t.Status.chains() || s.retried(i) {
			continue
		}
		for j := len(t.ResponseIDs) - 1; j >= 0; j-- {
			if t.ResponseIDs[j] != "" {
				return t.ResponseIDs[j]
			}
		}
	}
	return ""
}

// Retries reports whether t asked again for prev's answer (/retry): the
// same prompt and input items, sent from the same previous response. Two
// identical prompts in a row without stored state (store = false, no
// previous response) look the same and count as one.
func (t *Turn) Retries(prev *Turn) bool {
	if t.Prompt != prev.Prompt || t.PreviousResponseID != prev.PreviousResponseID || len(t.Input) != len(prev.Input) {
		return false
	}
	for i := range t.Input {
		if !bytes.Equal(t.Input[i], prev.Input[i]) {
			return false
		}
	}
	return true
}

// retried reports whether a later turn replaced turn i's answer: the
// turns after it retry it (failed retries included) until one chains.
func (s *Session) retried(i int) bool {
	for j := i + 1; j < len(s.Turns) && s.Turns[j].Retries(&s.Turns[i]); j++ {
		if s.Turns[j].Status.chains() {
			return true
		}
	}
	return false
}

// RebuildInput returns the whole conversation as input items, for a server
// that no longer has the previous_response_id chain: turn 1's input, turn 1's
// output items, turn 2's input, … in order, each item byte for byte as
// stored (tool outputs sent back sit in the input of the turn after their
// call, so calls and outputs stay paired).
//
// What it leaves out, so the result is what the server's own chain held:
//   - turns that did not chain (failed, stopped, interrupted, still
//     streaming): the next request never built on them;
//   - reasoning items with neither encrypted_content nor content: a server
//     that forgot the chain cannot resolve them by id;
//   - tool outputs and approval responses whose call or request is not in the
//     result (their turn was left out);
//   - an answer replaced by /retry: a turn followed by retries of it (the
//     same prompt, input and previous response; Retries) of which one
//     chained.
//
// A call with no output yet is kept: the caller's next input may answer it.
func (s *Session) RebuildInput() []json.RawMessage {
	var out []json.RawMessage
	calls := map[string]bool{}
	for i := range s.Turns {
		t := &s.Turns[i]
		if !t.Status.chains() || s.retried(i) {
			continue
		}
		for _, in := range t.Input {
			if id := outputCallID(in); id != "" && !calls[id] {
				continue
			}
			out = append(out, in)
		}
		for _, r := range t.Responses {
			for _, it := range r.Items {
				var f struct {
					Type      string          `json:"type"`
					ID        string          `json:"id"`
					CallID    string          `json:"call_id"`
					Encrypted json.RawMessage `json:"encrypted_content"`
					Content   json.RawMessage `json:"content"`
				}
				if json.Unmarshal(it.Raw, &f) != nil {
					continue
				}
				if f.Type == "reasoning" && (len(f.Encrypted) == 0 || string(f.Encrypted) == "null") &&
					(len(f.Content) == 0 || string(f.Content) == "null" || string(f.Content) == "[]") {
					continue
				}
				if f.CallID != "" {
					calls[f.CallID] = true
				}
				if f.Type == "mcp_approval_request" && f.ID != "" {
					calls[approvalKey(f.ID)] = true
				}
				out = append(out, it.Raw)
			}
		}
	}
	return out
}

// outputCallID returns what a tool output or approval response input item
// answers (a call_id, or approvalKey of the request id), "" for other items.
func outputCallID(raw json.RawMessage) string {
	id, approval := stream.Answers(raw)
	if approval {
		return approvalKey(id)
	}
	return id
}

func approvalKey(requestID string) string { return "approval " + requestID }
