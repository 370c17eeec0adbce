package session

// This file keeps what a runnel killed mid-stream needs to reattach to a
// background response (background = true): the response id and the last
// sequence number the saved items hold, written with the items.

import (
	"runnel/session/store"
	"runnel/stream"
)

// Background notes the background response the turn streams and the
// sequence number of the last event applied; they are written with the next
// save of the items, so the stored items always hold what that sequence
// number says.
func (l *TurnLog) Background(id string, after int64) {
	l.bg = store.Background{ID: id, After: after}
}

// Reattach continues the record of stored turn t (interrupted while it
// streamed a background response) for the stream picked up again.
func (j *Journal) Reattach(t *Turn) *TurnLog {
	return &TurnLog{j: j, tid: t.Row, pending: map[itemKey]*stream.Item{}, resp: map[*stream.Snapshot]int{},
		bg: t.Background, bgSaved: t.Background}
}

// Reattachable returns the last turn when its process died while it
// streamed a background response: a runnel started again picks that
// response up (stream.Reattach) after t.Background.After.
func (c *Conversation) Reattachable() *Turn {
	if len(c.Turns) == 0 {
		return nil
	}
	t := c.Turns[len(c.Turns)-1]
	// interrupted, not streaming: a turn another live runnel still streams
	// is its own
	if t.Background.ID == "" || t.Background.After < 0 || t.Stored != store.StatusInterrupted || t.Row == 0 {
		return nil
	}
	return t
}
