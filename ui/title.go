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
// the first prompt is the title.

// titleMsg carries the title the model wrote.
type titleMsg struct{ title string }

const titleInstructions = "Write a title of 3 to 6 words for a conversation that starts with the user's message below. " +
	"Reply with the title only: no quotes, no final punctuation."

// askTitle requests the title off the UI goroutine.
func (m *Model) askTitle(prompt string) tea.Cmd {
	c, model := m.opts.Client, m.conv.Settings.Model
	store := false
	req := stream.Request{Model: model, Instructions: titleInstructions, Input: []json.RawMessage{stream.UserText(clipRunes(prompt, 2000))}, Store: &store, Stream: true}
	ctx := m.ctx
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
