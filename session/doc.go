// Package session owns conversations: what the user said, what each response
// returned, and how the next request is built from them.
//
// A Conversation chains turns with previous_response_id: each request carries
// only the new input and the id of the last response that completed (or ended
// incomplete). A turn that was stopped or failed leaves the chain where it was.
//
// It does not render, and it does not talk to the network: the caller sends
// the Request it builds (stream.Start) and hands back the snapshots it got.
//
// Main flow: Conversation.Begin(input) → stream.Request → caller streams →
// Turn.Finish(snapshots) → the next Begin chains from the last good response.
package session
