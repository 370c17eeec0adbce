package main

// This file is conversations mode in one-shot runs: the session's
// server-side conversation is created before the first request (the chat
// lets stream.Start do it and reads the outcome from the first batch).

import (
	"context"
	"io"

	"runnel/session"
	"runnel/stream"
)

// startConversation creates conv's server-side conversation when it wants
// one (session.Conversation.WantsConversation) and saves its id with the
// session; a server without the endpoint gets one line, and the session
// goes on with the local history. Any other failure is the turn's.
func startConversation(ctx context.Context, client *stream.Client, conv *session.Conversation, journal *session.Journal, stderr io.Writer) error {
	if !conv.WantsConversation() {
		return nil
	}
	id, err := client.CreateConversation(ctx, map[string]string{"client": "runnel"})
	if err != nil && !stream.NoConversations(err) {
		return err
	}
	if note := conv.ConversationStarted(stream.ConversationStart{ID: id, Err: err}); note != "" {
		warnf(stderr, "%s", note)
		return nil
	}
	if journal != nil {
		journal.SetSettings(conv.Settings)
	}
	return nil
}
