// Package sessions runs the history commands of the command line: list,
// rm, search, export and import (`runnel sessions …`). Each opens the
// session store, does one thing, prints its result, and closes the store;
// without the store it cannot go on. Export writes markdown, JSON or an
// HTML page (session/export, in theme's light look); import reads a JSON
// export, or (ImportConversation) pulls a server-side conversation through
// the client Env.Remote gives.
//
// It knows no cobra, parses no flags and chooses no exit statuses: package
// main (sessions_cmd.go) builds the commands, fills an Env from their flags
// and maps the errors it returns (a *UsageError is the caller's mistake,
// context.Canceled an interrupt, anything else a failure).
package sessions
