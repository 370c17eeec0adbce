package ui

// This file is the chat's side of a server that keeps no conversation state
// (session/stateless.go, decided by the turn engine): a chained turn whose
// first response object shows that the server ignored the chain is stopped
// before anything of it shows (turns.created) and sent again with the
// history.

import (
	"errors"
)

// errChainIgnored is the cause given to a stream stopped because its
// server ignored previous_response_id.
var errChainIgnored = errors.New("the server ignored previous_response_id")

// echoState says whether t's stream has brought a response object yet, and
// whether it has brought any item (an item is shown as it comes).
func echoState(t *turn) (echoed, items bool) {
	for _, s := range t.snapshots() {
		echoed = echoed || s.Echoed
		items = items || len(s.Items) > 0
	}
	return echoed, items
}
