package stream

// This file is the client's side of server-side conversations: creating
// one (POST /conversations), listing its items (GET
// /conversations/{id}/items, page by page), and telling a server that has
// no such endpoint (NoConversations).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
//
// The listing is held to the table of bounds as it streams in: each page
// is decoded item by item from a reader cut at import_page_bytes, and the
// items and their bytes are counted against import_items and import_bytes
// as each arrives; past import_pages, or when the server's cursor (or an
// item) comes back to one it gave before (a listing that would never
// end), it stops. Each is one line (a *BoundError, or the cursor's),
// and nothing is returned.
func (c *Client) ConversationItems(ctx context.Context, id string) ([]json.RawMessage, error) {
	if !validConversationID(id) {
		return nil, fmt.Errorf("%q is not a conversation id", SanitizeLine(truncateRunes(id, 40)))
	}
	base, err := c.conversationsURL("/" + url.PathEscape(id) + "/items")
	if err != nil {
		return nil, err
	}
	lim := Limits()
	what := "conversation " + SanitizeLine(id)
	l := &listing{lim: lim, what: what, seenItems: map[string]bool{}}
	seenCursors := map[string]bool{}
	after := ""
	for page := 1; ; page++ {
		if page > lim.ImportPages {
			return nil, &BoundError{What: what + "'s item listing", Key: "import_pages", Limit: lim.ImportPages, Got: fmt.Sprintf("the server still had more after %d items", len(l.items))}
		}
		u := *base
		q := url.Values{"order": {"asc"}, "limit": {"100"}}
		if after != "" {
			q.Set("after", after)
		}
		u.RawQuery = q.Encode()
		var p pageTail
		err := c.readURL(ctx, http.MethodGet, &u, nil, func(r io.Reader) error {
			var err error
			p, err = l.page(r, page)
			return err
		})
		if err != nil {
			return nil, err
		}
		if !p.hasMore || p.items == 0 {
			return l.items, nil
		}
		next := p.lastID
		if next == "" {
			next = p.lastItemID
		}
		if next == "" {
			return nil, fmt.Errorf("%s: the server says it has more items but gives no id to continue after", what)
		}
		if next == after || seenCursors[next] {
			return nil, fmt.Errorf("%s: on page %d the server's listing came back to a cursor it gave before (%s), so it would never end — stopped after %d items, nothing imported", what, page, SanitizeLine(truncateRunes(next, 40)), len(l.items))
		}
		seenCursors[next] = true
		after = next
	}
}

// listing is one conversation's items as they stream in, with what they
// are counted against.
type listing struct {
	lim       Bounds
	what      string
	items     []json.RawMessage
	bytes     int
	seenItems map[string]bool
}

// pageTail is what a page says after its items.
type pageTail struct {
	hasMore            bool
	lastID, lastItemID string
	items              int
}

// page decodes one page of the listing from r, item by item, never reading
// more than import_page_bytes of it, and adds its items.
func (l *listing) page(r io.Reader, n int) (pageTail, error) {
	var p pageTail
	br := &boundReader{r: r, left: l.lim.ImportPageBytes}
	dec := json.NewDecoder(br)
	fail := func(err error) (pageTail, error) {
		if br.over {
			return p, &BoundError{What: fmt.Sprintf("page %d of %s's items", n, l.what), Key: "import_page_bytes", Limit: l.lim.ImportPageBytes}
		}
		var be *BoundError
		if errors.As(err, &be) {
			return p, err
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return p, fmt.Errorf("%s: page %d of the item list ends early", l.what, n)
		}
		var syn *json.SyntaxError
		if errors.As(err, &syn) || errors.As(err, new(*json.UnmarshalTypeError)) || errors.Is(err, errNotList) {
			return p, fmt.Errorf("%s: the item list is not a list: %s", l.what, SanitizeLine(err.Error()))
		}
		return p, err // the connection's
	}
	if err := expectDelim(dec, '{'); err != nil {
		return fail(err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		switch key, _ := tok.(string); key {
		case "data":
			if err := expectDelim(dec, '['); err != nil {
				return fail(err)
			}
			for dec.More() {
				var item json.RawMessage
				if err := dec.Decode(&item); err != nil {
					return fail(err)
				}
				if err := l.add(item, &p); err != nil {
					return fail(err)
				}
			}
			if err := expectDelim(dec, ']'); err != nil {
				return fail(err)
			}
		case "has_more":
			if err := dec.Decode(&p.hasMore); err != nil {
				return fail(err)
			}
		case "last_id":
			var id *string
			if err := dec.Decode(&id); err != nil {
				return fail(err)
			}
			if id != nil {
				p.lastID = *id
			}
		default:
			var skip json.RawMessage // bounded by the page's reader
			if err := dec.Decode(&skip); err != nil {
				return fail(err)
			}
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return fail(err)
	}
	return p, nil
}

// add counts one item against the bounds and keeps it.
func (l *listing) add(item json.RawMessage, p *pageTail) error {
	if len(l.items) >= l.lim.ImportItems {
		return &BoundError{What: l.what + "'s item listing", Key: "import_items", Limit: l.lim.ImportItems}
	}
	if l.bytes+len(item) > l.lim.ImportBytes {
		return &BoundError{What: l.what + "'s items", Key: "import_bytes", Limit: l.lim.ImportBytes}
	}
	var head struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(item, &head)
	if head.ID != "" {
		if l.seenItems[head.ID] {
			return fmt.Errorf("%s: the server listed item %s twice, so its listing would never end — stopped after %d items, nothing imported", l.what, SanitizeLine(truncateRunes(head.ID, 40)), len(l.items))
		}
		l.seenItems[head.ID] = true
	}
	l.bytes += len(item)
	l.items = append(l.items, item)
	p.items++
	p.lastItemID = head.ID
	return nil
}

var errNotList = errors.New("want a JSON object with a data list")

// expectDelim reads the next token and wants it to be d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		return errNotList
	}
	return nil
}

// boundReader reads at most left bytes of r; past them it fails, and over
// says so.
type boundReader struct {
	r    io.Reader
	left int
	over bool
}

func (b *boundReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, err := b.r.Read(one[:]); n == 0 && err != nil {
			return 0, err // the body ended at the bound
		}
		b.over = true
		return 0, errors.New("past the bound")
	}
	if len(p) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= n
	return n, err
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
