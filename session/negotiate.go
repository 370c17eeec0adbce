package session

// This file is how the turn engine (engine.go) reads a refusal: by its
// structure (the parameter it names), not its words, and what it does
// about it. The rules, in order, for a turn that ended in an HTTP error
// before any response:
//   - the chained response is not found (OpenAI's expired chain, vLLM's
//     404 that names response_id): the turn again with the history, once;
//     remembered as a server that keeps no state when it shows that
//     (KeepsNoState);
//   - a 400 or 422 names an optional parameter the request carried
//     (optional.go): the turn again without it, once per parameter, with
//     one line; the conversation and the server's record keep it out;
//   - the server found a tool call unanswered: an output for it, or the
//     history;
//   - else the turn fails with the server's own line (a parameter runnel
//     cannot do without, or one it never sent).

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"runnel/stream"
)

// negotiate answers err, which ended the turn in flight before any
// response; ok is false when no rule applies.
func (e *Engine) negotiate(err error, now time.Time) (Action, bool) {
	t := e.turn
	var apiErr *stream.APIError
	if !errors.As(err, &apiErr) {
		return Action{}, false
	}
	if apiErr.PreviousResponseNotFound() && !apiErr.ChainUnsupported() {
		return e.chainLost(err, now)
	}
	if o := refusedBy(apiErr, &t.Request); o != nil && !slices.Contains(e.tried, o.name) {
		return e.without(o, now), true
	}
	if id, ok := MissingOutput(err); ok {
		return e.repair(id)
	}
	return Action{}, false
}

// chainLost sends the turn again with the history, once.
func (e *Engine) chainLost(err error, now time.Time) (Action, bool) {
	t := e.turn
	if t.Fallback || slices.Contains(e.tried, ParamChain) {
		return Action{}, false
	}
	e.tried = append(e.tried, ParamChain)
	if e.conv.KeepsNoState(t, err) {
		notices := e.stateless(StatelessWhy(err), now)
		return Action{Kind: Resend, Request: e.conv.ResendStateless(t), Notices: notices}, true
	}
	n := Notice{false, "the server no longer has the previous response — resending the conversation from local history"}
	return Action{Kind: Resend, Request: e.conv.Rebuild(t), Notices: []Notice{n}}, true
}

// without sends the turn again without the optional parameter o.
func (e *Engine) without(o *optional, now time.Time) Action {
	t := e.turn
	e.tried = append(e.tried, o.name)
	if o.name == ParamChain {
		notices := e.stateless(WhyRefused, now)
		return Action{Kind: Resend, Request: e.conv.ResendStateless(t), Notices: notices}
	}
	e.conv.Refuse(o.name)
	notices := []Notice{{false, RefusedNotice(o.name)}}
	notices = append(notices, e.remember(func(r *ProviderRecord) { r.MarkRefused(o.name, now) }, now)...)
	return Action{Kind: Resend, Request: e.conv.Again(t), Notices: notices}
}

// RefusedNotice is the one line that says the server refused an optional
// parameter, and what is sent instead.
func RefusedNotice(name string) string {
	switch name {
	case ParamStore:
		return "the server does not take store: true — sending store: false and the history, now and from now on"
	case ParamReasoningItems:
		return "the server does not take reasoning items in input — sending the history without them, now and from now on"
	}
	return "the server does not take " + name + " — sending the turn again without it, and not sending it to this server again"
}

// repair answers a tool call the server found without output.
func (e *Engine) repair(id string) (Action, bool) {
	t := e.turn
	if req, ok := e.conv.Repair(t, id); ok {
		n := Notice{false, "the server found no output for tool call " + stream.SanitizeLine(id) + " — sending one that says runnel stopped before it finished"}
		return Action{Kind: Resend, Request: req, InputChanged: true, Notices: []Notice{n}}, true
	}
	if t.Fallback {
		return Action{}, false
	}
	n := Notice{false, "the server still finds a tool call without output — resending the conversation from local history"}
	return Action{Kind: Resend, Request: e.conv.Rebuild(t), Notices: []Notice{n}}, true
}

// refusedBy is the optional parameter of req that the error refuses, nil
// when it refuses none (it names one runnel cannot do without, one req
// did not carry, or nothing). A name the body gives by its structure
// (param, loc, path, a quoted name) goes first, in the order the body
// gives them; then the earliest optional parameter req carried that the
// message quotes as a word of its own.
func refusedBy(apiErr *stream.APIError, req *stream.Request) *optional {
	if !apiErr.Refusal() {
		return nil
	}
	var body any // req as JSON, read once: the history may be large
	for _, n := range apiErr.Names {
		if o := refusedItem(n.Path, req); o != nil {
			return o
		}
		for i := range optionals {
			o := &optionals[i]
			if o.covers(n.Path) && o.on(req) && (o.name != ParamChain || apiErr.ChainUnsupported()) {
				return o
			}
		}
		if body == nil {
			body = asJSON(req)
		}
		if sent(body, n.Path) {
			return nil // one runnel cannot do without: the server's line says it
		}
	}
	var best *optional
	at := -1
	for i := range optionals {
		o := &optionals[i]
		if !o.on(req) || (o.name == ParamChain && !apiErr.ChainUnsupported()) {
			continue
		}
		for _, p := range o.paths() {
			if i := apiErr.MentionAt(p); i >= 0 && (at < 0 || i < at) {
				best, at = o, i
			}
		}
	}
	return best
}

// asJSON is req's body as generic JSON (false when it does not encode).
func asJSON(req *stream.Request) any {
	b, err := json.Marshal(req)
	if err != nil {
		return false
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return false
	}
	return v
}

// sent reports whether the request body v (asJSON) holds path
// ("input[1].type", "reasoning.effort").
func sent(v any, path string) bool {
	for _, part := range splitPath(path) {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[part]
			if !ok {
				return false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		default:
			return false
		}
	}
	return path != ""
}

// splitPath splits "input[1].type" into "input", "1", "type".
func splitPath(path string) []string {
	path = strings.NewReplacer("[", ".", "]", "").Replace(path)
	return strings.FieldsFunc(path, func(r rune) bool { return r == '.' })
}
