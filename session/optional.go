package session

// This file is the one table of what a request can do without: every
// parameter runnel sends that a server may refuse, and how a request is
// made without it. A server's 400 or 422 that names one of them
// (stream.APIError.Names, or the message quoting it) makes the turn engine
// (engine.go) resend the turn without it and remember it for the
// conversation and the server; a parameter not in this table (model,
// input, instructions, tools, text.format, reasoning.effort) cannot be
// dropped, and its refusal is the server's own line.

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"runnel/stream"
)

// The names of the optional parameters, as notices, /status, the memory
// and `runnel providers` say them. Each is the parameter's path in the
// request body, but ParamReasoningItems, which is the reasoning items in
// input.
const (
	ParamChain             = "previous_response_id"
	ParamStore             = "store"
	ParamReasoningItems    = "reasoning items in input"
	ParamInclude           = "include"
	ParamReasoningSummary  = "reasoning.summary"
	KnobServiceTier        = "service_tier"
	KnobPromptCacheKey     = "prompt_cache_key"
	KnobVerbosity          = "text.verbosity"
	ParamTruncation        = "truncation"
	ParamParallelToolCalls = "parallel_tool_calls"
	ParamMetadata          = "metadata"
	ParamUser              = "user"
)

// optional is one parameter a request can do without.
type optional struct {
	name    string                       // ParamChain…
	aliases []string                     // other names a server or an older memory file uses
	on      func(r *stream.Request) bool // the request carries it
	drop    func(r *stream.Request)      // takes it out of a request
}

// optionals is the table. previous_response_id and store are not taken
// out of a built request: the conversation sends the history instead
// (Conversation.newTurn reads Stateless and Refused(ParamStore)).
var optionals = []optional{
	{ParamChain, nil,
		func(r *stream.Request) bool { return r.PreviousResponseID != "" },
		func(r *stream.Request) {}},
	{ParamStore, nil,
		func(r *stream.Request) bool { return r.Store != nil && *r.Store },
		func(r *stream.Request) {}},
	{ParamReasoningItems, nil,
		func(r *stream.Request) bool { return slices.ContainsFunc(r.Input, isReasoningItem) },
		func(r *stream.Request) {
			r.Input = slices.DeleteFunc(slices.Clone(r.Input), isReasoningItem)
		}},
	{ParamInclude, nil,
		func(r *stream.Request) bool { return len(r.Include) > 0 },
		func(r *stream.Request) { r.Include = nil }},
	{ParamReasoningSummary, nil,
		func(r *stream.Request) bool { return r.Reasoning != nil && r.Reasoning.Summary != "" },
		func(r *stream.Request) {
			if r.Reasoning == nil {
				return
			}
			x := *r.Reasoning
			x.Summary = ""
			if r.Reasoning = &x; x.Effort == "" {
				r.Reasoning = nil
			}
		}},
	{KnobServiceTier, nil,
		func(r *stream.Request) bool { return r.ServiceTier != "" },
		func(r *stream.Request) { r.ServiceTier = "" }},
	{KnobPromptCacheKey, nil,
		func(r *stream.Request) bool { return r.PromptCacheKey != "" },
		func(r *stream.Request) { r.PromptCacheKey = "" }},
	{KnobVerbosity, []string{"verbosity"},
		func(r *stream.Request) bool { return r.Text != nil && r.Text.Verbosity != "" },
		func(r *stream.Request) {
			if r.Text == nil {
				return
			}
			t := *r.Text
			t.Verbosity = ""
			if r.Text = &t; t.Format == nil {
				r.Text = nil
			}
		}},
	{ParamTruncation, nil,
		func(r *stream.Request) bool { return r.Truncation != "" },
		func(r *stream.Request) { r.Truncation = "" }},
	extraOptional(ParamParallelToolCalls),
	extraOptional(ParamMetadata),
	extraOptional(ParamUser),
}

// extraOptional is a parameter runnel sends only through Request.Extra.
func extraOptional(name string) optional {
	return optional{name, nil,
		func(r *stream.Request) bool { _, ok := r.Extra[name]; return ok },
		func(r *stream.Request) {
			if _, ok := r.Extra[name]; ok {
				r.Extra = maps.Clone(r.Extra)
				delete(r.Extra, name)
			}
		}}
}

// optionalNamed is the table's entry for name or one of its aliases.
func optionalNamed(name string) *optional {
	for i := range optionals {
		o := &optionals[i]
		if o.name == name || slices.Contains(o.aliases, name) {
			return o
		}
	}
	return nil
}

// paths are how an error names the parameter: its name and aliases.
func (o *optional) paths() []string {
	if o.name == ParamReasoningItems {
		return nil // named by the index of an item (refusedItem)
	}
	return append([]string{o.name}, o.aliases...)
}

// covers reports whether path names the parameter or a part of it
// ("include[0]", "text.verbosity" for the alias "verbosity").
func (o *optional) covers(path string) bool {
	for _, p := range o.paths() {
		if path == p || strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[") || strings.HasSuffix(path, "."+p) {
			return true
		}
	}
	return false
}

// isReasoningItem reports whether an input item is a reasoning item.
func isReasoningItem(raw json.RawMessage) bool { return itemType(raw) == "reasoning" }

// refusedItem is the optional item kind a path into input names:
// "input[1].type" names the reasoning items when req's second input item
// is one.
func refusedItem(path string, req *stream.Request) *optional {
	rest, ok := strings.CutPrefix(path, "input[")
	if !ok {
		return nil
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return nil
	}
	i, err := strconv.Atoi(rest[:end])
	if err != nil || i < 0 || i >= len(req.Input) || !isReasoningItem(req.Input[i]) {
		return nil
	}
	return optionalNamed(ParamReasoningItems)
}

// stripRefused takes out of req every parameter the conversation's server
// refused (but the chain and store, which newTurn leaves out itself).
func (c *Conversation) stripRefused(req *stream.Request) {
	for _, name := range c.refused {
		if o := optionalNamed(name); o != nil {
			o.drop(req)
		}
	}
}
