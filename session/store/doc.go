// Package store keeps runnel's sessions in a local SQLite database so that
// any conversation can be listed, searched, resumed or exported later.
//
// The local transcript is authoritative: every turn is written as it streams
// (the row when the request is sent, partial items at least once a second,
// each item again when it is done, all through SaveItems), so a crash or
// kill -9 loses at most the last second. The pacing and batching are the
// caller's: session.Journal, on its own writer goroutine, is runnel's one
// writer of turns. A turn found still "streaming" whose writer
// process is gone is marked interrupted and keeps its last partial content.
// Items are kept as the raw JSON received, byte for byte, so a conversation
// can be rebuilt for a server that has forgotten the previous_response_id
// chain (Session.RebuildInput); an item's JSON longer than 1 MiB is kept
// in rows of at most 1 MiB, written a chunk at a time and joined back on
// Load (chunks.go). Attachments in a turn's input (images, PDFs,
// text files) are kept once each in a blobs table keyed by sha256 and put
// back on Load (blob.go); exports carry them inline. A tool round's turn
// also keeps how runnel's own runs of its calls ended (Turn.Runs, SetRuns:
// the caller's JSON, opaque here), beside the outputs in its input. Search covers the text
// of attached text files with the prompt.
//
// Several runnel processes may share one database (WAL mode, a busy timeout,
// IMMEDIATE write transactions); each writes its own sessions. A *DB is safe
// for concurrent use. Search is an FTS5 index over prompts, answers,
// reasoning summaries and tool calls and outputs, ranked by bm25.
//
// It does not render, talk to the network, or hold secrets: settings are the
// caller's JSON with secret-looking values redacted, and no API key is ever
// passed in. With DB.SetSecrets, the session's known secret values are
// hidden in everything written, as a last guard. Markdown export is package
// session/export's job (it renders a loaded Session); the JSON export and
// import of whole sessions (Export, Import) are here: an import keeps its
// dates and lists first by when it was imported. ConversationDoc makes an
// import document of a server-side conversation's items. A session also keeps the
// last compacted window /compact gave it (SetCompacted), so it can resume
// compacted.
// Errors are *Error values that read as one line naming the file; every
// Open failure matches ErrUnavailable, so the caller can run without history.
// Before each write the store checks that its path still names the file it
// opened: a database removed or replaced under a running chat fails every
// later write with ErrGone instead of writing into a file nobody will read.
//
// A session may branch (branch.go): each turn names its parent (NULL: the
// turn before it) and the session its tip (SetTip), which BeginTurn
// follows; Load gives the path to the tip as Turns and the other branches'
// turns as Off. Export and Import carry both ("parent", "tip"), only where
// a session branched, so an export of one that never did is unchanged.
//
// Main flow: Open → CreateSession → BeginTurn → SaveItems (a batch at a time)
// → FinishTurn; later List / Search / Resolve → Load → RebuildInput or
// LastResponseID to continue.
package store
