// Package stream reads the OpenAI Responses API's server-sent event stream, as
// every server that speaks it actually sends it, and folds it into response
// snapshots.
//
// It owns the wire types (Request, Event, Item, Response), SSE framing
// (Scanner), event decoding (Decoder), the accumulator that turns events into
// snapshots (Accumulator), the HTTP client (Client, with Compact for the
// standalone POST /responses/compact) and the background reader that feeds a
// consumer (Start / Handle). It also owns Sanitize, which makes
// untrusted text safe to print, and the item kind table (KindFor,
// ItemKinds), the one place item types are listed: for every type the
// protocol's facts, its class (a message, reasoning, a call answered by an
// output with its call_id, …) and its searchable text, read by the store's
// search index, the markdown export, the UI's panels and the one-shot
// summaries. How a type is presented (title, icon, one-line summary) is
// not here but in ui/itemlook, keyed by the same types. Item's typed accessors
// (Details, ShellCommands, PatchDiff, OutputText, ErrorText…) are the one
// place an item's kind-specific JSON is read; StoredItem reads an item as
// stored or sent as input; Item.Encoded takes an item's JSON to write
// later, a long one a piece at a time (ItemJSON); and Redactor, the set of secret values
// (API key, header values, MCP tokens) that Start hides in everything a
// server sends (error bodies, every event's JSON, a secret split across
// deltas, a secret with what Sanitize removes inside it) and that the
// session applies to tool output and the store. Every request follows
// redirects only within its origin (RedirectError): its HTTP clients are
// package httppolicy's, which attaches the key and headers itself.
//
// Background responses (Request.Background; resume.go, poll.go,
// background.go): Start resumes a stream that drops or stalls with GET
// /responses/{id}?stream=true&starting_after=N (backoff as for retries, at
// most MaxReconnects in a row, MaxResumes and ResumeBudget per turn
// whatever progress each makes, repeats dropped by sequence number; a
// resumed stream that goes back or carries another response ends the
// turn), polls a server that cannot resume (Retrieve, within PollWindow)
// and falls back to foreground when the server refuses background mode;
// Reattach picks a response up after a saved sequence number and
// Accumulator.Continue continues saved snapshots with it; CancelResponse
// stops one on the server.
//
// Server-side conversations (conversation.go): a Request names one with
// Conversation instead of previous_response_id; NewConversation makes
// Start create one first (POST /conversations) and report its id in the
// first batch, or, on a server without the endpoint (NoConversations),
// send the local history instead and report that. ConversationItems lists
// a conversation's items, page by page.
//
// It does not know about Bubble Tea, sessions, storage, rendering or
// runnel's own tool runs (session/tools' Run): it hands out decoded events
// and snapshots, and the caller decides what to show.
//
// Main flow:
//
//	Client.Open → io.Reader → Scanner (SSE frames) → Decoder (typed Events) →
//	Accumulator (snapshots), with Start running the first three on one
//	goroutine that adds events to a pending batch the consumer takes with
//	Handle.Next / NextBy / NextWithin (no goroutine in between; the consumer
//	is woken at most once per call, and a slow stream's reader reads again
//	only when the consumer will take a batch: pacer.go, waiting in its Read
//	with the socket's low-water mark raised where the kernel allows it, so
//	a burst such as the end of an answer is read as it comes: lowwater.go).
//	Events of 4 KB or more are decoded in one validating pass (lean.go).
//
// Memory is bounded: Start hands over bounded batches (the reader waits while
// a full one is not taken; the events that end a response join one up to
// 1 MiB) and drops what it had not handed over once
// cancelled; the Accumulator bounds each response's text (Limit, LimitError)
// and, for printers that write deltas as they pass, keeps none of it
// (DropText).
//
// A snapshot also records what the server echoed of the request's state
// (Echoed, EchoedPrevious, EchoedStore: previous_response_id present, null or
// absent, and store), for the session to tell a server that keeps none, and
// the service_tier it reports (ServiceTier).
//
// Tolerance is the point: sequence numbers may be missing or duplicated, item
// ids may change on every event, deltas may precede their item and even
// their response (they belong to the response that follows, never to one of
// their own), an item may be announced with its text and streamed again
// (kept once; Apply cuts Delta to what was new, so printers agree with the
// snapshot), a call the client answers may come without call_id or id (it
// gets a stable one), servers may omit items from the terminal response, an
// event may be named by "event" instead of "type", audio comes as its
// transcript (the sound is dropped), and a stream may hold several
// responses back to back or end without a terminal event. Malformed events
// are reported with their position and skipped; nothing already received is
// lost.
package stream
