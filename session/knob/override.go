package knob

import (
	"encoding/json"
	"slices"
)

// Override is what a prompt file (session/prompts) changes for one user
// turn and the tool rounds that follow it: its instructions replace the
// conversation's, its model and effort replace the conversation's when set,
// and with LimitTools only the tools it names are sent. The conversation's
// Settings are never changed by it.
type Override struct {
	Name         string   // the prompt's name, shown on the turn ("review")
	Instructions string   // "" keeps Settings.Instructions
	Model        string   // "" keeps Settings.Model
	Effort       string   // "" keeps Settings.ReasoningEffort
	LimitTools   bool     // only the tools named in Tools are sent
	Tools        []string // with LimitTools: tool names (a function's name, an MCP server's label, a hosted tool's type)
}

// Apply returns the settings a request of the overridden turn is built from.
func (o *Override) Apply(s Settings) Settings {
	if o == nil {
		return s
	}
	if o.Instructions != "" {
		s.Instructions = o.Instructions
	}
	if o.Model != "" {
		s.Model = o.Model
	}
	if o.Effort != "" {
		s.ReasoningEffort = o.Effort
	}
	s.Tools = o.FilterTools(s.Tools)
	return s
}

// FilterTools returns the request tools the override leaves on: all of
// them without LimitTools (or with a nil Override), else those whose name,
// server_label or type is in Tools.
func (o *Override) FilterTools(ts []json.RawMessage) []json.RawMessage {
	if o == nil || !o.LimitTools {
		return ts
	}
	var out []json.RawMessage
	for _, raw := range ts {
		var t struct {
			Name        string `json:"name"`
			ServerLabel string `json:"server_label"`
			Type        string `json:"type"`
		}
		if json.Unmarshal(raw, &t) != nil {
			continue
		}
		if slices.Contains(o.Tools, t.Name) && t.Name != "" ||
			slices.Contains(o.Tools, t.ServerLabel) && t.ServerLabel != "" ||
			slices.Contains(o.Tools, t.Type) && t.Type != "function" && t.Type != "mcp" {
			out = append(out, raw)
		}
	}
	return out
}
