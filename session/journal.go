package session

import (
	"encoding/json"
	"sync"
	"time"

	"runnel/session/store"
	"runnel/session/tools"
	"runnel/stream"
)

// Journal writes a conversation into the store as it streams, on one writer
// goroutine, so that the UI never waits for the disk. Writes happen in the
// order they were asked for; a failed write is reported on Errors and the
// conversation goes on.
//
// Invariants:
//   - ops run one at a time, in order, on the writer goroutine; only it
//     touches sid and the store.
//   - the session row is created lazily, with the first turn's prompt as
//     title, so an empty chat leaves nothing behind.
//   - a fork (Fork) is titled from the first prompt sent in it, the edited
//     one, not from the prompt it was forked at.
//   - the writer starts no op before heldUntil (Defer), within the bounds
//     yield keeps; closing is closed once Close is called.
type Journal struct {
	db       *store.DB
	settings json.RawMessage
	ops      chan func()
	errs     chan error
	done     chan struct{}

	mu  sync.Mutex
	sid store.SessionID // "" until the first turn is written

	heldUntil time.Time                                           // the writer starts no write before it (Defer)
	closing   chan struct{}                                       // closed by Close: the writer holds no more
	hold      func(until time.Time, closing <-chan struct{}) bool // waits for a hold (waitUntil; tests replace it)

	retitle string // a fork's title prefix, "" once its first prompt titled it; the caller's only

	logs map[*Turn]*TurnLog     // each turn begun here, for SetTip; the caller's only
	rows map[*Turn]store.TurnID // a fork's copied turns, by the turn they copy; the writer's only

	closeMu sync.RWMutex // held for reading while an op is queued, for writing by Close
	closed  bool         // ops is closed: later writes are dropped
}

// SaveEvery is how often a streaming item is written: a crash loses at most
// this much.
const SaveEvery = time.Second

// NewJournal starts a journal for a new session (created on the first turn).
func NewJournal(db *store.DB, s Settings) *Journal {
	return startJournal(db, "", s)
}

// ResumeJournal continues an existing session.
func ResumeJournal(db *store.DB, id store.SessionID, s Settings) *Journal {
	return startJournal(db, id, s)
}

func startJournal(db *store.DB, id store.SessionID, s Settings) *Journal {
	j := &Journal{db: db, settings: s.JSON(), ops: make(chan func(), 1024), errs: make(chan error, 16), done: make(chan struct{}), sid: id,
		closing: make(chan struct{}), hold: waitUntil}
	go j.run()
	return j
}

func (j *Journal) run() {
	defer close(j.done)
	for op := range j.ops {
		j.yield()
		op()
	}
}

// ID returns the session's id, "" before the first turn was written.
func (j *Journal) ID() store.SessionID {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.sid
}

// Errors delivers write failures, one per failed write (dropped when the
// consumer falls behind; the next failure says the same).
func (j *Journal) Errors() <-chan error { return j.errs }

// Close writes what is queued and stops the writer. Writes asked for after
// it (a turn of a chat that moved on to another session, ending late) are
// dropped.
func (j *Journal) Close() {
	j.closeMu.Lock()
	if !j.closed {
		j.closed = true
		close(j.closing)
		close(j.ops)
	}
	j.closeMu.Unlock()
	<-j.done
}

func (j *Journal) report(err error) {
	if err == nil {
		return
	}
	select {
	case j.errs <- err:
	default:
	}
}

func (j *Journal) enqueue(op func()) {
	j.closeMu.RLock()
	defer j.closeMu.RUnlock()
	if !j.closed {
		j.ops <- op
	}
}

// SetSettings records changed settings (model, effort, tools).
func (j *Journal) SetSettings(s Settings) {
	raw := s.JSON()
	j.enqueue(func() {
		j.settings = raw
		if sid := j.ID(); sid != "" {
			j.report(j.db.SetSettings(sid, raw))
		}
	})
}

// Compacted records the compacted window /compact answered with, so that
// a session closed before its next turn resumes compacted (FromStore).
func (j *Journal) Compacted(window []json.RawMessage) {
	window = append([]json.RawMessage(nil), window...)
	j.enqueue(func() {
		if sid := j.ID(); sid != "" {
			j.report(j.db.SetCompacted(sid, window))
		}
	})
}

// TurnLog is one turn's record in the journal.
//
// Invariants: tid is written only by the writer goroutine (0 until the turn
// row exists); pending, last, saved and runs are touched only by the caller.
type TurnLog struct {
	j       *Journal
	tid     store.TurnID
	runs    map[string]tools.Run     // a round's ended runs, by call_id (Ran)
	pending map[itemKey]*stream.Item // items changed since the last save
	resp    map[*stream.Snapshot]int
	last    time.Time
	ended   bool
	bg      store.Background // the background response, as of the pending items
	bgSaved store.Background // as last written
}

type itemKey struct{ response, output int }

// Begin records that a turn's request is being sent.
func (j *Journal) Begin(t *Turn) *TurnLog {
	l := &TurnLog{j: j, pending: map[itemKey]*stream.Item{}, resp: map[*stream.Snapshot]int{}}
	j.logged(t, l)
	prompt, input, prev := t.Prompt, t.Input, t.Request.PreviousResponseID
	title := prompt
	retitle := j.retitle != "" && prompt != ""
	if retitle {
		title, j.retitle = j.retitle+prompt, ""
	}
	j.enqueue(func() {
		sid := j.ID()
		if sid != "" && retitle {
			j.report(j.db.SetTitle(sid, title))
		}
		if sid == "" {
			id, err := j.db.CreateSession(store.NewSession{Title: title, Settings: j.settings})
			if err != nil {
				j.report(err)
				return
			}
			j.mu.Lock()
			j.sid, sid = id, id
			j.mu.Unlock()
		}
		tid, err := j.db.BeginTurn(sid, prompt, input, prev)
		j.report(err)
		l.tid = tid
	})
	return l
}

// Note records that items changed, and writes them when a second has passed
// since the last write or an item finished. It takes what the items' JSON
// is made of on the caller's goroutine (items are not safe to read
// elsewhere); the writer encodes it.
func (l *TurnLog) Note(now time.Time, responses []*stream.Snapshot, changed func(*stream.Item) bool) {
	due := false
	for ri, s := range responses {
		l.resp[s] = ri
		for _, it := range s.Items {
			if changed(it) && (it.Done || it.Held() <= maxStreamingSave) {
				l.pending[itemKey{ri, it.Index}] = it
				due = due || it.Done
			}
		}
	}
	if due || now.Sub(l.last) >= SaveEvery {
		l.save(now)
	}
}

// Flush writes every item of responses now, whatever its size: the chat is
// quitting with the turn still streaming. The turn stays unfinished (a
// resume shows it interrupted), but nothing that was shown is lost.
func (l *TurnLog) Flush(now time.Time, responses []*stream.Snapshot) {
	for ri, s := range responses {
		l.resp[s] = ri
		for _, it := range s.Items {
			l.pending[itemKey{ri, it.Index}] = it
		}
	}
	l.save(now)
}

// maxStreamingSave is the largest item written while it still streams:
// writing a huge one every second would cost memory and disk in proportion
// to it. Past this size an item is written when it is done or the turn ends;
// a crash meanwhile keeps what was written of it last.
const maxStreamingSave = 4 << 20

// save hands the pending items to the writer.
func (l *TurnLog) save(now time.Time) {
	batch, bg := l.take(now)
	if len(batch) == 0 {
		return
	}
	l.j.enqueue(func() {
		if l.tid != 0 {
			l.j.report(l.j.db.SaveItems(l.tid, batch))
			l.saveBackground(bg)
		}
	})
}

// take empties pending into a batch of writes, with the background
// response to record (its ID "" when it was recorded already).
func (l *TurnLog) take(now time.Time) ([]store.ItemWrite, store.Background) {
	if len(l.pending) == 0 {
		return nil, store.Background{}
	}
	batch := make([]store.ItemWrite, 0, len(l.pending))
	for k, it := range l.pending {
		text := it.SearchText() // the index's text, so the store need not decode the JSON again
		// its JSON is encoded by the store as it writes it (a long one a
		// chunk at a time), from values that share only the item's strings
		batch = append(batch, store.ItemWrite{Response: k.response, Output: k.output, JSON: it.Encoded(), Done: it.Done, Text: &text})
	}
	clear(l.pending)
	l.last = now
	bg := l.bg
	if bg == l.bgSaved {
		bg.ID = ""
	}
	l.bgSaved = l.bg
	return batch, bg
}

// saveBackground records bg, on the writer's goroutine, unless its ID is "".
func (l *TurnLog) saveBackground(bg store.Background) {
	if bg.ID != "" {
		l.j.report(l.j.db.SetBackground(l.tid, bg.ID, bg.After))
	}
}

// End writes every item of the turn and how it ended.
func (l *TurnLog) End(now time.Time, t *Turn) {
	if l.ended {
		return
	}
	l.ended = true
	for ri, s := range t.Responses {
		for _, it := range s.Items {
			l.pending[itemKey{ri, it.Index}] = it
		}
	}
	// the last items go with the end, in one write: indexed once, as the
	// turn's folded row, not first as items of a streaming turn
	batch, bg := l.take(now)
	end := store.TurnEnd{Status: turnStatus(t), Error: endNote(t), Items: batch}
	var usage turnUsage
	for _, s := range t.Responses {
		end.ResponseIDs = append(end.ResponseIDs, s.ID)
		addUsage(&usage.Usage, s.Usage)
		if s.Model != "" {
			usage.Model = s.Model
		}
		if s.ServiceTier != "" {
			usage.ServiceTier = s.ServiceTier
		}
	}
	end.Usage, _ = json.Marshal(usage)
	left := t.LeftWindow
	l.j.enqueue(func() {
		if l.tid != 0 {
			l.saveBackground(bg)
			l.j.report(l.j.db.FinishTurn(l.tid, end))
		}
		if sid := l.j.ID(); left && sid != "" {
			l.j.report(l.j.db.SetCompacted(sid, nil)) // a resume does not send it again (Conversation.Finish)
		}
	})
}

// turnUsage is a turn's stored usage: the responses' usage summed, and the
// model the server reported, so that `runnel sessions` prices each turn as
// the model that answered it (package session/models), on the service
// tier it ran on.
type turnUsage struct {
	stream.Usage
	Model       string `json:"model,omitempty"`
	ServiceTier string `json:"service_tier,omitempty"`
}

// addUsage adds v to u, details included (the reasoning tokens that the
// status line's Σ shows again after a resume, and the cached input).
func addUsage(u, v *stream.Usage) {
	if v == nil {
		return
	}
	u.InputTokens += v.InputTokens
	u.OutputTokens += v.OutputTokens
	u.TotalTokens += v.TotalTokens
	if v.InputDetails != nil {
		if u.InputDetails == nil {
			u.InputDetails = &struct {
				CachedTokens int64 `json:"cached_tokens"`
			}{}
		}
		u.InputDetails.CachedTokens += v.InputDetails.CachedTokens
	}
	if v.OutputDetails != nil {
		if u.OutputDetails == nil {
			u.OutputDetails = &struct {
				ReasoningTokens int64 `json:"reasoning_tokens"`
			}{}
		}
		u.OutputDetails.ReasoningTokens += v.OutputDetails.ReasoningTokens
	}
}

// turnStatus is how a finished turn is stored.
func turnStatus(t *Turn) store.Status {
	if t.Stopped {
		return store.StatusStopped
	}
	if len(t.Responses) == 0 {
		return store.StatusFailed
	}
	last := t.Responses[len(t.Responses)-1]
	switch {
	case last.Status == "incomplete":
		return store.StatusIncomplete
	case last.Status == "completed":
		return store.StatusCompleted
	}
	return store.StatusFailed
}

// endNote is the reason stored with a turn that did not complete: what the
// chat said of it, so that exports and a resumed chat say the same. A
// transport error comes first, then the first error the server sent, then a
// stream cut off before the response finished; "" when there is none.
func endNote(t *Turn) string {
	if t.Err != nil {
		return errText(t.Err)
	}
	for _, s := range t.Responses {
		if s.Error != nil && s.Error.Message != "" {
			return stream.SanitizeLine(s.Error.Message)
		}
	}
	if n := len(t.Responses); n > 0 && t.Responses[n-1].CutOff && !t.Stopped {
		return stream.CutOffNote
	}
	return ""
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return stream.SanitizeLine(err.Error())
}

// Fork starts a journal for a new session holding the first keep turns of
// this one (copied in the store); the original is not touched. The copy is
// titled prefix plus the prompt it was forked at until the first prompt
// sent in the fork (the edited one) titles it prefix plus that prompt.
// turns, when given, are the conversation's first keep turns: the copy's
// rows are theirs from then on (SetTip).
func (j *Journal) Fork(keep int, prefix, at string, s Settings, turns ...*Turn) *Journal {
	nj := startJournal(j.db, "", s)
	nj.retitle = prefix
	title := prefix + at
	if keep == 0 {
		return nj
	}
	done := make(chan struct{})
	j.enqueue(func() { close(done) }) // copy only after this journal's writes landed
	nj.enqueue(func() {
		<-done
		// Read the id only now: the session row may be created by a write
		// that was still queued when Fork was called.
		from := j.ID()
		if from == "" {
			return
		}
		id, err := j.db.Copy(from, keep, title)
		if err != nil {
			nj.report(err)
			return
		}
		nj.mu.Lock()
		nj.sid = id
		nj.mu.Unlock()
		nj.rows = map[*Turn]store.TurnID{}
		ids, err := j.db.TurnIDs(id)
		nj.report(err)
		for i, t := range turns {
			if i < len(ids) {
				nj.rows[t] = ids[i]
			}
		}
	})
	return nj
}

// SetTitle renames the session (an LLM-made title, say).
func (j *Journal) SetTitle(title string) {
	j.enqueue(func() {
		if sid := j.ID(); sid != "" {
			j.report(j.db.SetTitle(sid, title))
		}
	})
}

// BeginRound records that a tool round starts on the calls of response prev:
// a turn with no prompt whose input grows as the calls are approved, run and
// answered (SetInput), so that a process killed mid-round leaves behind which
// calls ran and what they printed. The round's request then continues the
// same record (Continue); a stopped round ends it (EndRound).
func (j *Journal) BeginRound(prev string) *TurnLog {
	l := &TurnLog{j: j, pending: map[itemKey]*stream.Item{}, resp: map[*stream.Snapshot]int{}}
	j.enqueue(func() {
		sid := j.ID()
		if sid == "" {
			return // a round always follows a stored turn
		}
		tid, err := j.db.BeginTurn(sid, "", nil, prev)
		j.report(err)
		l.tid = tid
	})
	return l
}

// SetInput records the turn's input items as they stand now.
func (l *TurnLog) SetInput(input []json.RawMessage) {
	input = append([]json.RawMessage(nil), input...)
	l.j.enqueue(func() {
		if l.tid != 0 {
			l.j.report(l.j.db.SetInput(l.tid, input))
		}
	})
}

// Ran records how runnel's run of a round's call ended (a run not ended is
// ignored), beside the outputs SetInput records: a resumed session reads it
// back (Turn.Runs, ChainCall.Run). Write it when the call's output is
// recorded, so a kill leaves the two together.
func (l *TurnLog) Ran(callID string, r tools.Run) {
	if r.Phase != tools.RunEnded || callID == "" {
		return
	}
	if l.runs == nil {
		l.runs = map[string]tools.Run{}
	}
	l.runs[callID] = r
	rec := tools.EncodeRuns(l.runs)
	if rec == nil {
		return
	}
	l.j.enqueue(func() {
		if l.tid != 0 {
			l.j.report(l.j.db.SetRuns(l.tid, rec))
		}
	})
}

// Continue makes a round's record (from BeginRound) the record of the
// request t that sends the round's outputs.
func (j *Journal) Continue(l *TurnLog, t *Turn) *TurnLog {
	j.logged(t, l)
	l.SetInput(t.Input)
	return l
}

// logged remembers that t is recorded by l (SetTip).
func (j *Journal) logged(t *Turn, l *TurnLog) {
	if j.logs == nil {
		j.logs = map[*Turn]*TurnLog{}
	}
	j.logs[t] = l
}

// SetTip records that the conversation continues from t (nil: from before
// its first turn), after an edit, a branch switch or /undo: the next turn
// follows it, and a resume shows the path that ends at it. A turn whose row
// was never written is skipped.
func (j *Journal) SetTip(t *Turn) {
	var l *TurnLog
	var row store.TurnID
	if t != nil {
		l, row = j.logs[t], t.Row
	}
	j.enqueue(func() {
		sid := j.ID()
		switch {
		case sid == "":
			return
		case l != nil:
			row = l.tid
		case j.rows != nil && t != nil:
			row = j.rows[t]
		}
		if t != nil && row == 0 {
			return
		}
		j.report(j.db.SetTip(sid, row))
	})
}

// EndRound ends a round that sent nothing (the user stopped it), with the
// outputs its calls got: the next message carries them.
func (l *TurnLog) EndRound(input []json.RawMessage) {
	if l.ended {
		return
	}
	l.ended = true
	l.SetInput(input)
	l.j.enqueue(func() {
		if l.tid != 0 {
			l.j.report(l.j.db.FinishTurn(l.tid, store.TurnEnd{Status: store.StatusStopped, ResponseIDs: []string{}}))
		}
	})
}
