package streamtest

// This file is the stateful mode's server-side conversations, as OpenAI's
// Conversations API keeps them: POST /v1/conversations creates one (with
// its metadata and optional items), GET /v1/conversations/{id} returns it,
// GET /v1/conversations/{id}/items lists its items a page at a time
// (limit, after, order, has_more), and POST /v1/responses naming one
// (conversation: id or {id}) sees its items before the input, then has the
// input and the response's output appended to it. A request naming both a
// conversation and previous_response_id gets OpenAI's 400; an unknown
// conversation a 404. StateOptions.NoConversations answers every
// /v1/conversations path with the 404 of a server without them, as the
// personalities (Server.As) do: they serve /v1/responses only.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Conversation is a server-side conversation the stateful server keeps.
type Conversation struct {
	ID       string
	Metadata map[string]string
	Items    []json.RawMessage // oldest first, each with an "id"
	next     int               // for the items' generated ids
}

// Conversation returns a conversation the stateful server keeps, by id.
func (s *Server) Conversation(id string) (Conversation, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == nil || s.state.convs[id] == nil {
		return Conversation{}, false
	}
	c := *s.state.convs[id]
	c.Items = append([]json.RawMessage(nil), c.Items...)
	return c, true
}

// AddConversation creates a conversation holding items (each given an id
// when it has none), as if a client had made it, and returns its id.
func (s *Server) AddConversation(items ...json.RawMessage) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == nil {
		panic("streamtest: AddConversation needs Stateful")
	}
	c := s.newConversation(nil)
	c.add(items, nil)
	return c.ID
}

func (s *Server) newConversation(metadata map[string]string) *Conversation {
	st := s.state
	st.next++
	c := &Conversation{ID: fmt.Sprintf("conv_st%04d", st.next), Metadata: metadata}
	st.convs[c.ID] = c
	return c
}

// add appends items, then more, each with an id (its own, else a new one).
func (c *Conversation) add(items, more []json.RawMessage) {
	for _, it := range append(append([]json.RawMessage(nil), items...), more...) {
		var m map[string]any
		if json.Unmarshal(it, &m) != nil {
			continue
		}
		if id, _ := m["id"].(string); id == "" {
			c.next++
			m["id"] = fmt.Sprintf("item_%s_%04d", strings.TrimPrefix(c.ID, "conv_"), c.next)
		}
		if _, ok := m["type"]; !ok {
			m["type"] = "message"
		}
		b, _ := json.Marshal(m)
		c.Items = append(c.Items, b)
	}
}

// requestConversation finds the conversation a POST /v1/responses names:
// named is false when it names none; with one named, bad is the error
// reply for an unknown one or for one sent with previous_response_id.
// It runs with s.mu held.
func (s *Server) requestConversation(body requestBody) (c *Conversation, bad *Reply, named bool) {
	raw := bytes.TrimSpace(body.Conversation)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, false
	}
	var id string
	if json.Unmarshal(raw, &id) != nil {
		var obj struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(raw, &obj)
		id = obj.ID
	}
	if body.PreviousResponseID != "" {
		r := jsonErrorParam(http.StatusBadRequest, "Mutually exclusive parameters: Ensure you are only providing one of: 'previous_response_id' or 'conversation'.", "invalid_request_error", "mutually_exclusive_parameters", "conversation")
		return nil, &r, true
	}
	c = s.state.convs[id]
	if c == nil {
		r := jsonErrorParam(http.StatusNotFound, fmt.Sprintf("Conversation with id '%s' not found.", id), "invalid_request_error", "", "conversation")
		return nil, &r, true
	}
	return c, nil, true
}

// conversationReply answers a /v1/conversations request. It runs with
// s.mu held.
func (s *Server) conversationReply(rec Recorded) Reply {
	if s.state.opts.NoConversations {
		return jsonError(http.StatusNotFound, fmt.Sprintf("Invalid URL (%s %s)", rec.Method, rec.Path), "invalid_request_error", "")
	}
	rest := strings.Trim(strings.TrimPrefix(rec.Path, "/v1/conversations"), "/")
	id, sub, _ := strings.Cut(rest, "/")
	switch {
	case rest == "" && rec.Method == http.MethodPost:
		var body struct {
			Metadata map[string]string `json:"metadata"`
			Items    []json.RawMessage `json:"items"`
		}
		if len(bytes.TrimSpace(rec.Body)) > 0 && json.Unmarshal(rec.Body, &body) != nil {
			return jsonError(http.StatusBadRequest, "We could not parse the JSON body of your request.", "invalid_request_error", "")
		}
		c := s.newConversation(body.Metadata)
		c.add(body.Items, nil)
		return jsonValue(conversationObject(c))
	case rest == "":
		return jsonError(http.StatusMethodNotAllowed, "streamtest: only POST /v1/conversations is served", "invalid_request_error", "")
	}
	c := s.state.convs[id]
	if c == nil {
		return jsonError(http.StatusNotFound, fmt.Sprintf("Conversation with id '%s' not found.", id), "invalid_request_error", "")
	}
	switch {
	case sub == "" && rec.Method == http.MethodGet:
		return jsonValue(conversationObject(c))
	case sub == "items" && rec.Method == http.MethodGet:
		return c.itemsPage(rec.Query)
	}
	return jsonError(http.StatusNotFound, fmt.Sprintf("streamtest: no route for %s %s", rec.Method, rec.Path), "invalid_request_error", "unknown_url")
}

func conversationObject(c *Conversation) map[string]any {
	md := c.Metadata
	if md == nil {
		md = map[string]string{}
	}
	return map[string]any{"id": c.ID, "object": "conversation", "created_at": 1700000000, "metadata": md}
}

// itemsPage is one page of GET /v1/conversations/{id}/items: limit (1–100,
// default 20), after an item id, order asc or desc (the default).
func (c *Conversation) itemsPage(query string) Reply {
	q := parseQuery(query)
	limit := 20
	if v := q["limit"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return jsonErrorParam(http.StatusBadRequest, "Invalid 'limit': integer between 1 and 100 expected.", "invalid_request_error", "invalid_value", "limit")
		}
		limit = n
	}
	items := append([]json.RawMessage(nil), c.Items...)
	if q["order"] != "asc" {
		for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
			items[i], items[j] = items[j], items[i]
		}
	}
	if after := q["after"]; after != "" {
		at := -1
		for i, it := range items {
			if itemID(it) == after {
				at = i
			}
		}
		if at < 0 {
			return jsonErrorParam(http.StatusBadRequest, fmt.Sprintf("No item with id '%s' in the conversation.", after), "invalid_request_error", "invalid_value", "after")
		}
		items = items[at+1:]
	}
	more := len(items) > limit
	items = items[:min(limit, len(items))]
	page := map[string]any{"object": "list", "data": items, "has_more": more, "first_id": nil, "last_id": nil}
	if len(items) > 0 {
		page["first_id"], page["last_id"] = itemID(items[0]), itemID(items[len(items)-1])
	}
	return jsonValue(page)
}

func itemID(raw json.RawMessage) string {
	var f struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(raw, &f)
	return f.ID
}

func parseQuery(q string) map[string]string {
	out := map[string]string{}
	vals, _ := url.ParseQuery(q)
	for k, v := range vals {
		out[k] = v[0]
	}
	return out
}

func jsonValue(v any) Reply {
	b, _ := json.Marshal(v)
	return jsonReply(b)
}
