// Package session owns conversations: what the user said, what each response
// returned, and how the next request is built from them.
//
// A Conversation chains turns with previous_response_id: each request carries
// only the new input and the id of the last response that completed (or ended
// incomplete). A turn that was stopped or failed leaves the chain where it was,
// and the next request carries what the chain owes (carry.go): the last
// unchained turn's prompt and partial answer when it was stopped, cut off or
// interrupted, and an output for every client-side call of the chain's
// response.
//
// The journal (journal.go) is runnel's one writer of turns into the store:
// on its own goroutine, in order, it saves a streaming item at most once a
// second (SaveEvery) and a finished one at once, each batch in one
// store.DB.SaveItems, so the UI never waits for the disk and a crash loses
// at most the last second. A tool round is journaled as it runs
// (Journal.BeginRound), so a killed process leaves behind which calls ran,
// what they printed and how each run ended (TurnLog.Ran, as session/tools'
// typed record), which a resume reads back (ChainCalls) instead of reading
// the outputs' text.
//
// Branches (branch.go): a conversation is a tree of turns, each following
// its Parent. Turns is the path shown and continued; Cut (an edited prompt,
// /undo) and Show (another branch) move it and keep the turns it leaves.
// The chain and the local history are always the path's, so an edited
// prompt chains from the turn before it. The journal records the tip
// (Journal.SetTip) and the store the parents, so a resume shows the branch
// last continued.
//
// Compaction (compact.go): Settings.CompactThreshold asks the server to
// compact past a size; CompactRequest and Compacted run /compact, after
// which the next request sends the compacted window instead of
// previous_response_id; local history (FullInput) starts at the newest
// compaction. The journal saves the window with the session (Compacted),
// and FromStore makes it the start of the context again when no completed
// turn has sent it.
//
// Background mode (background.go): Settings.Background sends requests with
// background: true; the journal saves each such turn's response id and last
// sequence number with its items, and Conversation.Reattachable finds a turn
// a killed runnel left streaming, for the chat to pick up (stream.Reattach).
//
// Servers that keep no state (stateless.go): ChainIgnored reads, from a
// chained request's first response object, that the server ignored
// previous_response_id (Ollama echoes null and store false, llama.cpp no
// field at all); KeepsNoState tells a refused chain (Groq, OpenRouter) or
// one lost within the run (vLLM without its store) from one response that
// expired. The turn engine sends the turn again (ResendStateless) and the
// conversation turns Stateless: every later request sends the history
// (FullInput, with reasoning as such a server needs it: ResendReasoning).
//
// The turn engine (engine.go, negotiate.go): a turn's lifecycle written
// once for the chat and -p, a state machine without I/O (Engine.Next(Event)
// → Action, Phase). A 400 or 422 that names, by its structure, a parameter
// the request can do without (the one table: optional.go) gets the turn
// again without it, once per parameter; a refused, ignored or lost chain
// gets it with the history. What a server refuses is one record per
// provider on disk, beside the model lists (memory.go: ProviderMemory),
// shown by /status and `runnel providers`.
//
// Prompt files (override.go): Conversation.Override, set by the caller for
// a prompt file's turn (session/prompts), changes the instructions, model,
// effort and tools of every request Begin builds until it is replaced;
// Settings stay as they are.
//
// Conversations mode (serverconv.go): Settings.State "conversation" makes
// the first request of a session without server state ask stream.Start to
// create a server-side conversation (stream.NewConversation, with the
// history to send instead on a server without one); ConversationStarted
// records its id in Settings.Conversation (saved with the session), after
// which requests send conversation instead of previous_response_id, or
// turns the conversation Stateless. store.ConversationDoc makes an importable
// session of a conversation's items, with Settings.Continuing's settings.
//
// Request knobs (knobs.go): Settings.ServiceTier, Verbosity and
// PromptCacheKey go on every request; a server that refuses one gets the
// turn again without it (the turn engine), and the conversation does not
// send it again, nor later runs (ProviderMemory); TierNotice says when a
// response ran on another tier than the one asked. Structured output (schema.go):
// LoadSchema makes a JSON Schema the request's text.format, strict when it
// allows it, and checks the answer (AnswerSchema.Check, FinalAnswer).
//
// It does not render, and it does not talk to the network: the caller sends
// the Request it builds (stream.Start) and hands back the snapshots it got.
//
// Main flow: Conversation.Begin(input) → Engine.Next(Sent) → caller streams
// the request → Engine.Next(Ended) → resend, or Conversation.Finish(turn,
// snapshots) → the next Begin chains from the last good response.
package session
