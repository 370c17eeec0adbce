package ui

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"runnel/stream"
)

// This file asks the model for a short session title after the first turn,
// when the config turns it on (llm_title). It costs one small request; off,
// the first prompt is the title. The history child takes the answer
// (titleMsg) unless /rename named the session first.

// titleMsg carries the title the model wrote.
type titleMsg struct{ title string }

const titleInstructions = "Write a title of 3 to 6 words for a conversation that starts with the user's message below. " +
	"Reply with the title only: no quotes, no final punctuation."

// askTitle asks model, through c, for the title of a session that starts
// with prompt, off the UI goroutine; the history child takes the titleMsg.
func askTitle(ctx context.Context, c *stream.Client, model, prompt string) tea.Cmd {
	store := false
	req := stream.Request{Model: model, Instructions: titleInstructions, Input: []json.RawMessage{stream.UserText(clipRunes(prompt, 2000))}, Store: &store, Stream: true}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		var acc stream.Accumulator
		for b := range stream.Start(ctx, c, req).Chan() {
			for i := range b.Events {
				acc.Apply(&b.Events[i])
			}
		}
		s := acc.Current()
		if s == nil || s.Status != "completed" {
			return nil
		}
		for _, it := range s.Items {
			if t := strings.Trim(stream.SanitizeLine(it.Text()), `"'.`); it.Type == "message" && t != "" {
				return titleMsg{title: clipRunes(t, 80)}
			}
		}
		return nil
	}
}

func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
