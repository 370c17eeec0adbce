package stream

// This file is the client's side of server-side conversations: creating
// one (POST /conversations), listing its items (GET
// /conversations/{id}/items, page by page), and telling a server that has
// no such endpoint (NoConversations).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// NewConversation asks Start to create a server-side conversation before
// it sends the request, and to send the request in it. When the server has
// no conversations endpoint (NoConversations), Start sends the request
// without one, with History as its input (the turn with the local history
// before it), and reports it in the first batch (Batch.Conversation).
type NewConversation struct {
	Metadata map[string]string
	History  []json.RawMessage
}

// ConversationStart is what Start did about a NewConversation: the id of
// the conversation it created, or Err, why it fell back to the local
// history (the server lacks the endpoint).
type ConversationStart struct {
	ID  string
	Err error
}

// maxConversationPages bounds an item listing (100 items a page).
const maxConversationPages = 10000

// conversationsURL is {base}/conversations{suffix}: the endpoint's
// /responses replaced.
func (c *Client) conversationsURL(suffix string) (*url.URL, error) {
	u, err := c.endpoint()
	if err != nil {
		return nil, err
	}
	v := *u
	v.Path = strings.TrimSuffix(v.Path, "/responses") + "/conversations" + suffix
	v.RawPath = ""
	return &v, nil
}

// CreateConversation creates a conversation (POST /conversations, with
// metadata) and returns its id. A server without the endpoint answers with
// an *APIError that NoConversations recognizes.
func (c *Client) CreateConversation(ctx context.Context, metadata map[string]string) (string, error) {
	u, err := c.conversationsURL("")
	if err != nil {
		return "", err
	}
	body := []byte("{}")
	if len(metadata) > 0 {
		body, _ = json.Marshal(map[string]any{"metadata": metadata})
	}
	data, err := c.callURL(ctx, http.MethodPost, u, bytes.NewReader(body), "the new conversation")
	if err != nil {
		return "", err
	}
	var conv struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(data, &conv) != nil || !validConversationID(conv.ID) {
		return "", fmt.Errorf("the server's new conversation has no usable id (POST %s)", u.Host+u.Path)
	}
	return conv.ID, nil
}

// ConversationItems returns every item of conversation id, oldest first
// (GET /conversations/{id}/items?order=asc, following after/has_more).
func (c *Client) ConversationItems(ctx context.Context, id string) ([]json.RawMessage, error) {
	if !validConversationID(id) {
		return nil, fmt.Errorf("%q is not a conversation id", SanitizeLine(truncateRunes(id, 40)))
	}
	base, err := c.conversationsURL("/" + url.PathEscape(id) + "/items")
	if err != nil {
		return nil, err
	}
	var items []json.RawMessage
	after := ""
	for range maxConversationPages {
		u := *base
		q := url.Values{"order": {"asc"}, "limit": {"100"}}
		if after != "" {
			q.Set("after", after)
		}
		u.RawQuery = q.Encode()
		data, err := c.callURL(ctx, http.MethodGet, &u, nil, "conversation "+SanitizeLine(id))
		if err != nil {
			return nil, err
		}
		var page struct {
			Data    []json.RawMessage `json:"data"`
			HasMore bool              `json:"has_more"`
			LastID  string            `json:"last_id"`
		}
		if err := json.Unmarshal(data, &page); err != nil {
			return nil, fmt.Errorf("conversation %s: the item list is not a list: %s", SanitizeLine(id), SanitizeLine(err.Error()))
		}
		items = append(items, page.Data...)
		if !page.HasMore || len(page.Data) == 0 {
			return items, nil
		}
		next := page.LastID
		if next == "" {
			var last struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(page.Data[len(page.Data)-1], &last)
			next = last.ID
		}
		if next == "" || next == after {
			return nil, fmt.Errorf("conversation %s: the server says it has more items but gives no id to continue after", SanitizeLine(id))
		}
		after = next
	}
	return nil, fmt.Errorf("conversation %s has more than %d pages of items", SanitizeLine(id), maxConversationPages)
}

// NoConversations reports whether err, from POST /conversations, says the
// server has no conversations endpoint (400, 404 or 405).
func NoConversations(err error) bool { return endpointMissing(err) }

// validConversationID reports whether id can be sent back in a URL and a
// request: not empty, not too long, printable ASCII without / or space.
func validConversationID(id string) bool {
	if id == "" || len(id) > maxResponseID || id == "." || id == ".." {
		return false
	}
	for _, r := range id {
		if r <= ' ' || r >= 0x7f || r == '/' || r == '?' || r == '#' || r == '%' {
			return false
		}
	}
	return true
}
