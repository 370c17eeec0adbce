package ui

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"runnel/session/keymap"
)

// Short names for the table.
const (
	C    = actComposer
	none = actNone
)

// phases in the table's column order.
var phases = []phase{phIdle, phStreaming, phTools, phCompacting, phWaitingMCP, phReading, phApproval}

// bindingRow is what one action's keys do in every phase: with an empty
// composer and with text in it (columns: idle, streaming, tools,
// compacting, waiting-mcp, reading, approval).
type bindingRow struct {
	empty, text [7]keyAction
}

func all(a keyAction) [7]keyAction { return [7]keyAction{a, a, a, a, a, a, a} }

// chatTable is every chat-mode binding in every phase, composer focused
// and nothing armed, queued, offered or edited.
var chatTable = map[string]bindingRow{
	"send":           {all(actSend), all(actSend)},
	"send_now":       {all(actSend), [7]keyAction{actSend, actSendNow, actSend, actSend, actSend, actSend, actSend}},
	"newline":        {all(C), all(C)},
	"complete":       {all(C), all(C)},
	"paste":          {all(C), all(C)}, // the composer reads the clipboard (composerclip.go)
	"prev":           {all(C), all(C)},
	"next":           {all(C), all(C)},
	"editor":         {all(C), all(C)},
	"expand_paste":   {all(C), all(C)},
	"history_search": {all(actHistorySearch), all(actHistorySearch)},
	"unattach":       {all(C), all(C)},
	"page_up":        {all(actScroll), all(actScroll)},
	"page_down":      {all(actScroll), all(actScroll)},
	"top":            {all(actScroll), all(actScroll)},
	"bottom":         {all(actScroll), all(actScroll)},
	"line_up":        {all(C), all(C)}, // up: the composer's history outside "?"
	"line_down":      {all(C), all(C)},
	"interrupt": {
		[7]keyAction{none, actInterruptTurn, actStopTools, actStopCompact, actTakeBackWaiting, actStopReading, actStopHosted},
		[7]keyAction{actClear, actInterruptTurn, actStopTools, actStopCompact, actTakeBackWaiting, actStopReading, actStopHosted},
	},
	"quit": {
		[7]keyAction{actArmQuit, actInterruptTurn, actStopTools, actArmQuit, actArmQuit, actArmQuit, actStopHosted},
		[7]keyAction{actArmQuit, actInterruptTurn, actStopTools, actArmQuit, actArmQuit, actArmQuit, actStopHosted},
	},
	"copy_last":        {all(actCopyLast), all(actCopyLast)},
	"toggle_reasoning": {all(actToggleReasoning), all(actToggleReasoning)},
	"all_reasoning":    {all(actAllReasoning), all(actAllReasoning)},
	"expand_tool":      {all(actExpandTool), all(actExpandTool)},
	"panels":           {all(actPanels), all(actPanels)},
	"sessions":         {all(actSessions), all(actSessions)},
	"help":             {all(actHelp), all(C)},
	"branch":           {all(actBranch), all(C)},
	"mouse":            {all(actMouse), all(actMouse)},
	"navigate":         {all(actStartNav), all(actStartNav)},
	// a dropped answer's keys act only while offered (offeredTable)
	"continue": {all(actSend), all(actSend)},
	"retry":    {all(C), all(C)},
}

// TestKeyTableCoversEveryAction: every action of session/keymap has its
// row, so a new binding cannot skip the table.
func TestKeyTableCoversEveryAction(t *testing.T) {
	t.Parallel()
	for _, a := range keymap.Actions {
		_, chat := chatTable[a.Name]
		if !chat && !slices.Equal(a.Modes, []string{keymap.ModeNavigate}) {
			t.Errorf("action %q has no row in chatTable", a.Name)
		}
	}
}

// press is the key press Bubble Tea reports for a key as the keymap names it.
func bindingPress(t *testing.T, s string) tea.KeyPressMsg {
	t.Helper()
	named := map[string]tea.Key{
		"enter": {Code: tea.KeyEnter}, "ctrl+enter": {Code: tea.KeyEnter, Mod: tea.ModCtrl},
		"shift+enter": {Code: tea.KeyEnter, Mod: tea.ModShift}, "alt+enter": {Code: tea.KeyEnter, Mod: tea.ModAlt},
		"tab": {Code: tea.KeyTab}, "esc": {Code: tea.KeyEscape}, "backspace": {Code: tea.KeyBackspace},
		"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown}, "pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown},
		"home": {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd}, "f2": {Code: tea.KeyF2},
		"ctrl+left": {Code: tea.KeyLeft, Mod: tea.ModCtrl}, "ctrl+right": {Code: tea.KeyRight, Mod: tea.ModCtrl},
	}
	if k, ok := named[s]; ok {
		return tea.KeyPressMsg(k)
	}
	r := []rune(s)
	switch {
	case len(r) == 1:
		return tea.KeyPressMsg{Code: r[0], Text: s}
	case len(r) == 6 && s[:5] == "ctrl+":
		return tea.KeyPressMsg{Code: r[5], Mod: tea.ModCtrl}
	case len(r) == 5 && s[:4] == "alt+":
		return tea.KeyPressMsg{Code: r[4], Mod: tea.ModAlt}
	}
	t.Fatalf("no key press for %q", s)
	return tea.KeyPressMsg{}
}

// TestKeyFunctionEveryBinding: every binding of both presets, in every
// phase, with an empty composer and with text, does what chatTable says;
// the press of each key is checked to be the key it names.
func TestKeyFunctionEveryBinding(t *testing.T) {
	t.Parallel()
	// every column is a phase the chat is in, as activityOf derives it
	// from the engine's phase and the children's facts (activity_test.go)
	for _, ph := range phases {
		if !slices.ContainsFunc(activityCases, func(c activityCase) bool { return activityOf(c.eng, c.said, c.facts).phase == ph }) {
			t.Errorf("phase %s: no case of activityCases comes to it", ph)
		}
	}
	for _, preset := range keymap.Presets {
		km := keymap.Default(preset)
		keys := NewKeyMap(km)
		vi := ""
		if km.Vi() {
			vi = "NORMAL" // insert mode's esc is vi's (TestKeyFunctionVi)
		}
		for _, a := range keymap.Actions {
			row, ok := chatTable[a.Name]
			if !ok {
				continue
			}
			for _, k := range km.Keys[a.Name] {
				kp := bindingPress(t, k)
				if kp.String() != k {
					t.Fatalf("bindingPress(%q) is %q", k, kp.String())
				}
				for i, ph := range phases {
					for _, text := range []bool{false, true} {
						f := keyFacts{Phase: ph, Composer: composerFacts{Empty: !text, NoFiles: true, Vi: vi}}
						want := row.empty[i]
						if text {
							want = row.text[i]
						}
						if vi == "NORMAL" && len([]rune(k)) == 1 && !(k == "?" && !text) {
							want = C // vi's normal mode: one-character keys are its commands
						}
						if got := decideKey(&keys, kp, f); got != want {
							t.Errorf("%s preset: %s (%s) while %s, text %v: %s, want %s", preset, a.Name, k, ph, text, got, want)
						}
					}
				}
			}
		}
	}
}

// keyCase is one row of the states table: a key in a state, and its action.
type keyCase struct {
	name string
	key  string
	f    keyFacts
	want keyAction
}

// TestKeyFunctionStates: esc and ctrl+c in every state that changes them,
// the dialogs, the "?" overlay, the navigation mode, edit mode, the queue
// and a dropped stream's offers.
func TestKeyFunctionStates(t *testing.T) {
	t.Parallel()
	empty := composerFacts{Empty: true, NoFiles: true}
	text := composerFacts{NoFiles: true}
	with := func(c composerFacts, edit func(*composerFacts)) composerFacts { edit(&c); return c }
	cases := []keyCase{
		// approvals: esc is the dialog's (it denies the call), never a stop
		{"esc during an approval denies the call, it does not stop the turn", "esc", keyFacts{Phase: phTools, Focus: focApproval, Composer: with(empty, func(c *composerFacts) { c.LocalAsk = true })}, actDialog},
		{"esc during a hosted approval is the dialog's", "esc", keyFacts{Phase: phApproval, Focus: focApproval, Composer: empty}, actDialog},
		{"ctrl+c during a local approval stops the round", "ctrl+c", keyFacts{Phase: phTools, Focus: focApproval, Composer: with(empty, func(c *composerFacts) { c.LocalAsk = true })}, actStopTools},
		{"ctrl+c during a hosted approval stops", "ctrl+c", keyFacts{Phase: phApproval, Focus: focApproval, Composer: empty}, actStopHosted},
		{"ctrl+c while denying stops", "ctrl+c", keyFacts{Phase: phApproval, Focus: focDenying, Composer: empty}, actStopHosted},
		{"an answer key in the approval dialog", "a", keyFacts{Phase: phApproval, Focus: focApproval, Composer: empty}, actDialog},
		{"ctrl+r under an approval", "ctrl+r", keyFacts{Phase: phApproval, Focus: focApproval, Composer: empty}, actToggleReasoning},
		{"ctrl+o under an approval", "ctrl+o", keyFacts{Phase: phApproval, Focus: focApproval, Composer: empty}, actExpandTool},
		{"ctrl+y under an approval", "ctrl+y", keyFacts{Phase: phApproval, Focus: focApproval, Composer: empty}, actCopyLast},
		{"pgup under an approval", "pgup", keyFacts{Phase: phApproval, Focus: focApproval, Composer: empty}, actScroll},
		{"alt+o under an approval is the dialog's", "alt+o", keyFacts{Phase: phApproval, Focus: focApproval, Composer: empty}, actDialog},
		{"ctrl+y while typing a reason is the dialog's", "ctrl+y", keyFacts{Phase: phApproval, Focus: focDenying, Composer: empty}, actDialog},
		{"an answer key with the dialog closed opens it", "y", keyFacts{Phase: phApproval, Composer: empty}, actAnswer},
		{"an answer key with text is typed", "y", keyFacts{Phase: phApproval, Composer: text}, C},
		// other dialogs
		{"ctrl+c closes a dialog", "ctrl+c", keyFacts{Phase: phStreaming, Focus: focDialog, Composer: empty}, actCloseDialog},
		{"esc in a dialog is the dialog's", "esc", keyFacts{Phase: phStreaming, Focus: focDialog, Composer: empty}, actDialog},
		{"ctrl+y in a dialog is the dialog's", "ctrl+y", keyFacts{Focus: focDialog, Composer: empty}, actDialog},
		// the "?" overlay
		{"esc closes ?", "esc", keyFacts{Phase: phStreaming, Focus: focHelp, Composer: empty}, actCloseHelp},
		{"up scrolls ?", "up", keyFacts{Focus: focHelp, Composer: empty}, actHelpScroll},
		{"pgdown scrolls ?", "pgdown", keyFacts{Focus: focHelp, Composer: empty}, actHelpScroll},
		{"ctrl+c under ? stops the reply", "ctrl+c", keyFacts{Phase: phStreaming, Focus: focHelp, Composer: empty}, actInterruptTurn},
		// navigation mode
		{"nav takes esc", "esc", keyFacts{Phase: phStreaming, Focus: focNav, Composer: empty}, actNav},
		{"nav takes j", "j", keyFacts{Focus: focNav, Composer: empty}, actNav},
		{"ctrl+c in nav stops the reply", "ctrl+c", keyFacts{Phase: phStreaming, Focus: focNav, Composer: empty}, actInterruptTurn},
		// esc esc, ctrl+c ctrl+c
		{"esc on an empty idle composer arms", "esc", keyFacts{Composer: with(empty, func(c *composerFacts) { c.HasTurns = true })}, actArmEsc},
		{"esc esc edits the last prompt", "esc", keyFacts{Composer: with(empty, func(c *composerFacts) { c.HasTurns, c.EscArmed = true, true })}, actEditLast},
		{"esc esc needs turns", "esc", keyFacts{Composer: with(empty, func(c *composerFacts) { c.EscArmed = true })}, none},
		{"ctrl+c ctrl+c quits", "ctrl+c", keyFacts{Composer: with(empty, func(c *composerFacts) { c.QuitArmed = true })}, actQuit},
		{"ctrl+c armed while streaming still stops", "ctrl+c", keyFacts{Phase: phStreaming, Composer: with(empty, func(c *composerFacts) { c.QuitArmed = true })}, actInterruptTurn},
		// edit mode: esc and ctrl+c leave it (an empty composer leaves it too: editEmptied)
		{"esc leaves an unchanged edit", "esc", keyFacts{Composer: with(text, func(c *composerFacts) { c.Editing, c.HasTurns = true, true })}, actLeaveEdit},
		{"esc on an edit never arms esc esc", "esc", keyFacts{Composer: with(empty, func(c *composerFacts) { c.Editing, c.HasTurns = true, true })}, actLeaveEdit},
		{"ctrl+c leaves an edit", "ctrl+c", keyFacts{Composer: with(text, func(c *composerFacts) { c.Editing = true })}, actLeaveEdit},
		{"ctrl+c leaves an edit even when armed", "ctrl+c", keyFacts{Composer: with(text, func(c *composerFacts) { c.Editing, c.QuitArmed = true, true })}, actLeaveEdit},
		// the queue
		{"esc takes the queued message back while streaming", "esc", keyFacts{Phase: phStreaming, Composer: with(empty, func(c *composerFacts) { c.Queued = true })}, actUnqueue},
		{"up edits the queued message", "up", keyFacts{Phase: phStreaming, Composer: with(empty, func(c *composerFacts) { c.Queued = true })}, actUnqueue},
		{"esc with text and a queue stops the reply", "esc", keyFacts{Phase: phStreaming, Composer: with(text, func(c *composerFacts) { c.Queued = true })}, actInterruptTurn},
		{"up with text and a queue is the composer's", "up", keyFacts{Phase: phStreaming, Composer: with(text, func(c *composerFacts) { c.Queued = true })}, C},
		{"ctrl+c with a queue stops the reply", "ctrl+c", keyFacts{Phase: phStreaming, Composer: with(empty, func(c *composerFacts) { c.Queued = true })}, actInterruptTurn},
		// a dropped stream's offers
		{"enter continues a dropped answer", "enter", keyFacts{Composer: with(empty, func(c *composerFacts) { c.Offered = true })}, actContinue},
		{"enter with files does not continue", "enter", keyFacts{Composer: with(empty, func(c *composerFacts) { c.Offered, c.NoFiles = true, false })}, actSend},
		{"ctrl+t retries a dropped answer", "ctrl+t", keyFacts{Composer: with(empty, func(c *composerFacts) { c.Offered = true })}, actRetry},
		{"enter with text sends", "enter", keyFacts{Composer: with(text, func(c *composerFacts) { c.Offered = true })}, actSend},
		{"ctrl+left with files is the composer's", "ctrl+left", keyFacts{Composer: with(empty, func(c *composerFacts) { c.NoFiles = false })}, C},
	}
	// esc and ctrl+c in each phase as activityOf derives it from what the
	// engine and the children report
	for _, a := range activityCases {
		f := keyFacts{Phase: activityOf(a.eng, a.said, a.facts).phase, Composer: with(empty, func(c *composerFacts) { c.HasTurns = true })}
		cases = append(cases, keyCase{a.name + ": esc", "esc", f, a.esc}, keyCase{a.name + ": ctrl+c", "ctrl+c", f, a.ctrlC})
	}
	keys := DefaultKeyMap()
	for _, c := range cases {
		if got := decideKey(&keys, bindingPress(t, c.key), c.f); got != c.want {
			t.Errorf("%s: %s (%s, %s) = %s, want %s", c.name, c.key, c.f.Phase, c.f.Focus, got, c.want)
		}
	}
}

// TestKeyFunctionVi: in the vi preset, insert mode's esc goes to normal
// mode in every phase; normal mode's letters are vi's, even the approval
// answers, and ? on an empty composer is help; ctrl+k navigates.
func TestKeyFunctionVi(t *testing.T) {
	t.Parallel()
	keys := NewKeyMap(keymap.Default("vi"))
	for _, ph := range phases {
		ins := keyFacts{Phase: ph, Composer: composerFacts{Empty: true, NoFiles: true, Vi: "INSERT"}}
		if got := decideKey(&keys, bindingPress(t, "esc"), ins); got != C {
			t.Errorf("insert mode esc while %s: %s", ph, got)
		}
		norm := keyFacts{Phase: ph, Composer: composerFacts{Empty: true, NoFiles: true, Vi: "NORMAL"}}
		for k, want := range map[string]keyAction{"a": C, "d": C, "x": C, "?": actHelp, "ctrl+k": actStartNav} {
			if got := decideKey(&keys, bindingPress(t, k), norm); got != want {
				t.Errorf("normal mode %s while %s: %s, want %s", k, ph, got, want)
			}
		}
	}
}

// TestKeyFunctionNavigation: every navigation binding of both presets is
// the navigation mode's while it is on, in every phase; ctrl+c is not.
func TestKeyFunctionNavigation(t *testing.T) {
	t.Parallel()
	for _, preset := range keymap.Presets {
		km := keymap.Default(preset)
		keys := NewKeyMap(km)
		for _, a := range keymap.Actions {
			if !slices.Equal(a.Modes, []string{keymap.ModeNavigate}) {
				continue
			}
			for _, k := range km.Keys[a.Name] {
				for _, ph := range phases {
					if got := decideKey(&keys, bindingPress(t, k), keyFacts{Phase: ph, Focus: focNav, Composer: composerFacts{Empty: true}}); got != actNav {
						t.Errorf("%s: %s (%s) while %s: %s", preset, a.Name, k, ph, got)
					}
				}
			}
		}
	}
}

// TestKeyFunctionUserKeymap: a user's [keys] goes through the same
// function: quit rebound to ctrl+q quits, and ctrl+c is then typed.
func TestKeyFunctionUserKeymap(t *testing.T) {
	t.Parallel()
	km := keymap.Default("default")
	km.Keys["quit"] = []string{"ctrl+q"}
	keys := NewKeyMap(km)
	idle := keyFacts{Composer: composerFacts{Empty: true, NoFiles: true, QuitArmed: true}}
	if got := decideKey(&keys, bindingPress(t, "ctrl+q"), idle); got != actQuit {
		t.Errorf("ctrl+q: %s", got)
	}
	if got := decideKey(&keys, bindingPress(t, "ctrl+c"), idle); got != C {
		t.Errorf("ctrl+c after quit moved: %s", got)
	}
}
