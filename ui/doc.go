// Package ui is runnel's chat: a Bubble Tea v2 program with a scrollable
// transcript, a multi-line composer, a status line and a key hint.
//
// The root Model routes; its children own their behaviour. Each child holds
// its state and invariants in its own files, and reaches the rest of the
// chat only by posting a message (frameState.post): Model.Update routes what
// was posted, in order, before it returns, so a child never sees another
// half-changed. The root may read its children and call them; children never
// read the root or each other. The children are named fields, never
// embedded, and no root code writes a child's field or calls a method of
// a child's part (m.items.transcript.Follow()): it calls the child's method
// or sends it a message (rootwrites_test.go and rootreach_test.go walk the
// syntax tree for that). /new, a redraw and a provider switch are one resetMsg that
// every child handles (reset.go). What every child reads — the size, the
// styles, the frame clock and the markdown renderers — is the frame
// (frameState). The tour:
//
//	app.go        the root: New, Init, Update (the routing table: update, turnMsg, rootMsg), View
//	flow.go       the root's side of a turn: send it, and route what the turns child reports of it (a batch, a frame, the end)
//	reset.go      the one reset (resetMsg: /new, redraw, a provider switch), routed to every child
//	redraw.go     the transcript built again from the conversation (a resume, a fork, a branch)
//	commands.go   the slash commands: a table from name to what it does (slashDo)
//	items.go      the transcript child: entries, notices, toggles, copy (transcript.go scrolls, entry.go, inline.go, toollists.go)
//	turns.go      the turns child: the conversation and the turn in flight (turn.go; flight.go folds a batch in and
//	              draws a frame, turnend.go ends it; background.go, stateless.go, compact.go, serverconv.go;
//	              what the root asks of it, turnsupdate.go)
//	frames.go     the turns' pacing: ui/pace's Pacer decides, on the injected clock, when to take a batch, draw and tick
//	toolrun.go    the tools child: it drives its parts, the round (toolround.go), its local approvals (toolasks.go),
//	              its record in the history (roundrecord.go), the tool set (toolset.go) and the MCP servers' start
//	              (mcpstart.go); a killed round taken up in toolresume.go; its reports in toolreports.go
//	hosted.go     the approvals child: hosted MCP approvals and their answers
//	history.go    the history child: the session's store, resume, search, export (the root's side in historyroot.go)
//	models.go     the metering child: tokens, cost, the provider's models and /provider (meteringroot.go, providerpicker.go;
//	              /status's facts in statusfacts.go)
//	              the one sum of usage, cost and context: the status line asks it
//	mcpextras.go  MCP prompts as /mcp:SERVER:PROMPT commands and resources as @mcp:SERVER:URI attachments
//	knobs.go      /fast and the request knobs' /status rows (session/knobs.go); what a server refuses is the turn engine's (session/engine.go), which turns.go asks and obeys
//	activity.go   what the chat is doing, in one place: activityOf maps the turn engine's phase and the facts the
//	              children report (didMsg: what happened, never a word for the line) to the keys' phase and the
//	              line's state and detail
//	statusbar.go  the status line and key hint; the state it shows is activityOf's (statusBar.sync)
//	              (status.go the data, statusitems.go its pieces and how they give
//	              way, statuscmd.go a [status_line]'s command, cwd and git branch); keystate.go the keys and the
//	              "?" overlay
//	themes.go     the theme: the config's and /theme NAME, a built-in or a theme file (package theme reads it);
//	              the frame holds the choice (look)
//	composer.go   the composer: it edits, and delegates to parts of its own: the slash menu
//	              (composermenu.go, argcomplete.go), the @ popup (composermention.go), chips
//	              (attachments.go, paste.go; ctrl+v's images, composerclip.go), recall
//	              (prompthistory.go), !command (composershell.go) and the short-lived hint
//	              that takes the key hint's line (composerhint.go; copies say what they did there)
//	keyfn.go      the key map as one pure function: (key, phase, focus, composer) → action; keypress.go runs the action
//	queue.go      the queue: messages sent while a turn runs wait under the composer and go out when it ends
//	promptcmds.go prompt files as /NAME commands of the composer (SubmitMsg.Prompt); prompttrust.go asks about a project's
//	tree.go       /tree, the branches dialog; the mouse's map from cells to source is ui/markdown's srcmap.go
//	branch.go     the turns' branches: /edit, esc esc (esc, ctrl+c or an empty composer leave), ctrl+←/→, /undo (branchMsg shows a path)
//	selection.go  the transcript's mouse (an items child): clicks open panels and copy code, drags copy the source, f2 hands the mouse over
//	notify.go     the notifier: a long turn that ends, fails or waits while the terminal is unfocused notifies (OSC 9/777, bell, command)
//	keys.go       the key map, built from session/keymap (a preset and the config's [keys]); the vi
//	              preset's composer modes are composervi.go over ui/vi's state machine, the transcript's
//	              navigation mode is navmode.go (the items child)
//
// A newcomer who adds a dialog writes one value type with Update and View
// (picker.go, search.go, toolsmenu.go, modelpicker.go, approve.go,
// panels.go, historysearch.go share listCursor and dialogkeys.go's key
// structs, so "?" in a dialog lists exactly the keys it matches) and one
// case in the routing table that opens it (dialogMsg). A new panel is a
// block in ui/block; the items child shows it.
//
// Main flow: key → Composer → SubmitMsg → session.Conversation.Begin →
// stream.Start → batchMsg (the pacer takes one batch a frame and draws it,
// or waits for the frame in a burst) → accumulator → blocks → View. Frame
// ticks run only while something changes (spinner, tools, live panels);
// none at the prompt, and a View whose screen did not change returns the
// string it returned before (screen.go), which Bubble Tea's 60 Hz renderer
// compares by its address. Each part of the screen keeps its own last view,
// keyed by what it reads (the transcript's by its position and a version
// its mutators bump, transcriptmemo.go; the status line's by its fields and
// the spinner's frame), so a View after a message that changed nothing is
// a few compares, and one that changed draws only the parts that did. Settled entries are cached per width, so View costs
// the same however long the session grows. A markdown render that falls
// back to plain text says so once, in one line (block.Renderers.NewNote).
//
// It does not decode streams (package stream), keep conversations (package
// session) or choose colours (package theme); item rendering lives in
// ui/block, incremental markdown in ui/markdown, item titles and icons in
// ui/itemlook, and the pacing policy in ui/pace.
//
// Golden views of whole screens live in testdata/golden; regenerate them
// with `go test ./ui -run TestGolden -update` (see golden_test.go).
package ui
