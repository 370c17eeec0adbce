package session

import "runnel/session/attach"

// Attachments are the files the turn's message sent (read back from its
// input, so a stored turn has them too).
func (t *Turn) Attachments() []attach.Meta { return attach.FromInput(t.Input) }
