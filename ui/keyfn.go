package ui

// This file is the key map as a function: decideKey maps a key press and
// the facts that decide it (the chat's phase, what is focused, the
// composer's state) to one action. It is pure: it reads no model, and
// does nothing; Model.key (keypress.go) gathers the facts, asks, and runs
// the action (keyDo). Every binding of both presets, and of a user's
// [keys], goes through it, so what esc or ctrl+c does in any state is one
// row of its table test (keyfn_test.go).

import (
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// phase is what the chat is doing, as the keys see it: the first of these
// that holds (activityOf, which the status line shows too).
type phase int

const (
	phIdle       phase = iota
	phStreaming        // a reply streams
	phTools            // a tool round runs
	phCompacting       // /compact runs
	phWaitingMCP       // a message waits for the MCP servers to start
	phReading          // a message's files are being read
	phApproval         // hosted approvals wait for an answer (no dialog open)
)

var phaseNames = [...]string{"idle", "streaming", "tools", "compacting", "waiting-mcp", "reading", "approval"}

func (p phase) String() string { return phaseNames[p] }

// focus is what takes the keys.
type focus int

const (
	focComposer focus = iota // the composer, with the transcript behind it
	focHelp                  // the "?" overlay, taller than the screen
	focNav                   // the transcript's navigation mode
	focDialog                // a dialog other than an approval
	focApproval              // an approval dialog (local or hosted), choosing
	focDenying               // an approval dialog reading a reason to deny
)

var focusNames = [...]string{"composer", "help", "nav", "dialog", "approval", "denying"}

func (f focus) String() string { return focusNames[f] }

// composerFacts is the composer's state, as the keys see it.
type composerFacts struct {
	Empty     bool   // no text
	NoFiles   bool   // no attachment chips
	Vi        string // "", "INSERT" or "NORMAL" (the vi preset's mode)
	Running   bool   // a !command runs (esc and ctrl+c stop it: composershell.go)
	Editing   bool   // an /edit is pending (its send starts a branch)
	Queued    bool   // a message waits in the queue (queue.go)
	Offered   bool   // a dropped stream's continue and retry are offered
	LocalAsk  bool   // the approval asked is a local tool's (its round stops on ctrl+c)
	EscArmed  bool   // esc was pressed on an empty, idle composer within the second
	QuitArmed bool   // ctrl+c was pressed while idle within two seconds
	HasTurns  bool   // the conversation has turns to edit
}

// keyFacts is everything decideKey reads besides the key.
type keyFacts struct {
	Phase    phase
	Focus    focus
	Composer composerFacts
}

// keyAction is what a key press does.
type keyAction int

const (
	actNone            keyAction = iota // nothing (the key is spent)
	actComposer                         // the composer takes it (typing, newline, completion, history, vi)
	actSend                             // the composer sends (it empties: that does not leave an edit)
	actNav                              // the navigation mode takes it
	actDialog                           // the open dialog takes it
	actHelpScroll                       // scroll the "?" overlay
	actCloseHelp                        // close the "?" overlay
	actCloseDialog                      // close the open dialog
	actStartNav                         // enter the navigation mode
	actQuit                             // leave the chat
	actArmQuit                          // "press ctrl+c again to quit"
	actInterruptTurn                    // stop the reply streaming
	actStopTools                        // stop the tool round (denying what it asks)
	actStopCompact                      // stop /compact
	actTakeBackWaiting                  // the message waiting for MCP comes back to the composer
	actStopReading                      // stop reading a message's files
	actStopHosted                       // deny the hosted approvals and stop
	actLeaveEdit                        // leave edit mode (the composer is cleared)
	actClear                            // clear the composer
	actEditLast                         // edit the last prompt (esc esc)
	actArmEsc                           // "esc again to edit your last prompt"
	actUnqueue                          // the queued message comes back to the composer
	actSendNow                          // interrupt the reply and send the composer at once
	actSessions                         // the session picker
	actHistorySearch                    // search prompt history
	actToggleReasoning                  // the last reasoning panel
	actAllReasoning                     // every reasoning panel
	actExpandTool                       // the last (or the asked) tool panel
	actPanels                           // the list of panels
	actCopyLast                         // copy the last answer
	actMouse                            // hand the mouse to the terminal and back
	actScroll                           // page or jump the transcript
	actAnswer                           // answer the first hosted approval (opens its dialog)
	actContinue                         // continue a dropped answer
	actRetry                            // retry a dropped answer
	actBranch                           // the previous or next branch
	actHelp                             // the "?" overlay
)

var actionNames = [...]string{"none", "composer", "send", "nav", "dialog", "help-scroll", "close-help", "close-dialog",
	"start-nav", "quit", "arm-quit", "interrupt-turn", "stop-tools", "stop-compact", "take-back-waiting",
	"stop-reading", "stop-hosted", "leave-edit", "clear", "edit-last", "arm-esc", "unqueue", "send-now",
	"sessions", "history-search", "toggle-reasoning", "all-reasoning", "expand-tool", "panels", "copy-last",
	"mouse", "scroll", "answer", "continue", "retry", "branch", "help"}

func (a keyAction) String() string { return actionNames[a] }

// decideKey is the action of key k under keys in the state f.
func decideKey(keys *KeyMap, k tea.KeyPressMsg, f keyFacts) keyAction {
	switch f.Focus {
	case focDialog, focApproval, focDenying:
		return dialogAction(keys, k, f)
	case focHelp:
		if key.Matches(k, keys.LineUp, keys.LineDown, keys.PageUp, keys.PageDown, keys.Top, keys.Bottom) {
			return actHelpScroll
		}
	case focNav:
		if !key.Matches(k, keys.Quit) {
			return actNav
		}
	}
	c := f.Composer
	switch {
	case c.Running && key.Matches(k, keys.Interrupt, keys.Quit):
		return actComposer // they stop the !command
	case viTakes(keys, k, c):
		return actComposer
	case key.Matches(k, keys.Navigate):
		return actStartNav
	case key.Matches(k, keys.Quit):
		return quitAction(f)
	case key.Matches(k, keys.Interrupt):
		return escAction(f)
	case key.Matches(k, keys.SendNow):
		return sendNowAction(f)
	case c.Queued && c.Empty && key.Matches(k, keys.Prev):
		return actUnqueue // ↑ edits the queued message
	}
	if a := globalAction(keys, k); a != actNone {
		return a
	}
	return idleComposerAction(keys, k, f)
}

// viTakes reports whether the vi editor takes k before the chat's keys:
// esc in insert mode (it goes to normal mode, not to stop or clear), and
// in normal mode every one-character key but the help key on an empty
// composer (vi's letters are commands, not approval answers or text).
func viTakes(keys *KeyMap, k tea.KeyPressMsg, c composerFacts) bool {
	s := k.String()
	switch c.Vi {
	case "INSERT":
		return s == "esc"
	case "NORMAL":
		if c.Empty && key.Matches(k, keys.Help) {
			return false
		}
		return utf8.RuneCountInString(s) == 1 || s == "space"
	}
	return false
}

// quitAction is ctrl+c: it stops what runs, first the reply, then the
// tools, then the hosted approvals; leaves an edit; and quits when
// pressed twice while idle.
func quitAction(f keyFacts) keyAction {
	switch {
	case f.Phase == phStreaming:
		return actInterruptTurn
	case f.Phase == phTools:
		return actStopTools
	case f.Phase == phApproval:
		return actStopHosted
	case f.Composer.Editing:
		return actLeaveEdit
	case f.Composer.QuitArmed:
		return actQuit
	}
	return actArmQuit
}

// escAction is esc: it closes "?", takes back a queued message, stops what
// runs (the reply, the tools, /compact, the wait for MCP, the reading of
// files, the hosted approvals), leaves an edit, clears the composer, and
// on an empty, idle composer, pressed twice, edits the last prompt.
func escAction(f keyFacts) keyAction {
	c := f.Composer
	if f.Focus == focHelp {
		return actCloseHelp
	}
	if c.Queued && c.Empty {
		return actUnqueue
	}
	if a := [...]keyAction{actNone, actInterruptTurn, actStopTools, actStopCompact, actTakeBackWaiting, actStopReading, actStopHosted}[f.Phase]; a != actNone {
		return a
	}
	switch {
	case c.Editing:
		return actLeaveEdit
	case !c.Empty:
		return actClear
	case c.HasTurns && c.EscArmed:
		return actEditLast
	case c.HasTurns:
		return actArmEsc
	}
	return actNone
}

// sendNowAction is ctrl+enter: while a reply streams, it stops it and
// sends the composer at once; otherwise it is enter.
func sendNowAction(f keyFacts) keyAction {
	if f.Phase == phStreaming && !f.Composer.Empty {
		return actSendNow
	}
	return actSend
}

// globalAction is the action of the keys that work in any phase with the
// composer focused; actNone when k is none of them.
func globalAction(keys *KeyMap, k tea.KeyPressMsg) keyAction {
	for _, b := range []struct {
		b key.Binding
		a keyAction
	}{
		{keys.Sessions, actSessions}, {keys.HistorySearch, actHistorySearch},
		{keys.ToggleReasoning, actToggleReasoning}, {keys.AllReasoning, actAllReasoning},
		{keys.ExpandTool, actExpandTool}, {keys.Panels, actPanels},
		{keys.CopyLast, actCopyLast}, {keys.Mouse, actMouse},
		{keys.PageUp, actScroll}, {keys.PageDown, actScroll}, {keys.Top, actScroll}, {keys.Bottom, actScroll},
	} {
		if key.Matches(k, b.b) {
			return b.a
		}
	}
	return actNone
}

// idleComposerAction is the action of the keys that act only on an empty
// composer (answers, a dropped stream's offers, branches, "?"); the rest
// go to the composer.
func idleComposerAction(keys *KeyMap, k tea.KeyPressMsg, f keyFacts) keyAction {
	c := f.Composer
	switch {
	case !c.Empty && key.Matches(k, keys.Send):
		return actSend
	case !c.Empty:
		return actComposer
	case f.Phase == phApproval && key.Matches(k, keys.Approve, keys.ApproveSession, keys.Deny):
		return actAnswer
	case c.Offered && c.NoFiles && key.Matches(k, keys.Continue):
		return actContinue
	case c.Offered && key.Matches(k, keys.Retry):
		return actRetry
	case c.NoFiles && key.Matches(k, keys.Branch):
		return actBranch
	case key.Matches(k, keys.Help):
		return actHelp
	case key.Matches(k, keys.Send):
		return actSend
	}
	return actComposer
}

// dialogAction is the action of k while a dialog is open: ctrl+c closes
// it, or stops what an approval asks for; under an approval that is
// choosing, the transcript keys its status line offers work (copy, the
// panels but the list of them, scrolling: the asked panel is above);
// every other key is the dialog's (esc in an approval denies the call).
func dialogAction(keys *KeyMap, k tea.KeyPressMsg, f keyFacts) keyAction {
	if key.Matches(k, keys.Quit) {
		switch {
		case f.Focus == focDialog:
			return actCloseDialog
		case f.Composer.LocalAsk:
			return actStopTools
		}
		return actStopHosted
	}
	if f.Focus != focApproval || key.Matches(k, keys.Panels) { // alt+o would replace the question
		return actDialog
	}
	switch a := globalAction(keys, k); a {
	case actToggleReasoning, actAllReasoning, actExpandTool, actCopyLast, actScroll:
		return a
	}
	return actDialog
}
