package stream

// This file is the client's side of background responses: resuming a
// response's stream after a sequence number, fetching a response, and
// cancelling one on the server.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// maxResponseJSON bounds what Retrieve reads of one response object.
const maxResponseJSON = 64 << 20

// maxResponseID bounds the length of a response id put in a URL.
const maxResponseID = 512

// responseURL is {BaseURL}/responses/{id}{suffix}, the id (which the server
// chose) escaped as one path segment.
func (c *Client) responseURL(id, suffix string) (*url.URL, error) {
	if id == "" || id == "." || id == ".." || len(id) > maxResponseID || !validHeaderValue(id) {
		return nil, fmt.Errorf("the server's response id %q cannot be used in a URL", SanitizeLine(truncateRunes(id, 40)))
	}
	u, err := c.endpoint()
	if err != nil {
		return nil, err
	}
	return url.Parse(u.String() + "/" + url.PathEscape(id) + suffix)
}

// OpenAfter opens GET {BaseURL}/responses/{id}?stream=true&starting_after=N:
// the stream of a background response from the event after sequence number
// after (after < 0: from its start). It makes one attempt; failures come
// back as from Open (an *APIError for a status, a connection error, an idle
// timeout), and a server that cannot resume answers with 400, 404 or 405
// (see NotResumable).
func (c *Client) OpenAfter(ctx context.Context, id string, after int64) (io.ReadCloser, error) {
	u, err := c.responseURL(id, "")
	if err != nil {
		return nil, err
	}
	q := url.Values{"stream": {"true"}}
	if after >= 0 {
		q.Set("starting_after", strconv.FormatInt(after, 10))
	}
	u.RawQuery = q.Encode()
	header, err := c.header()
	if err != nil {
		return nil, err
	}
	header.Del("Content-Type")
	return c.attempt(ctx, http.MethodGet, u, header, nil, "")
}

// Retrieve fetches GET {BaseURL}/responses/{id}: the response object as
// JSON, with the client's secrets hidden.
func (c *Client) Retrieve(ctx context.Context, id string) (json.RawMessage, error) {
	return c.call(ctx, http.MethodGet, id, "")
}

// CancelResponse asks the server to stop a background response: POST
// {BaseURL}/responses/{id}/cancel.
func (c *Client) CancelResponse(ctx context.Context, id string) error {
	_, err := c.call(ctx, http.MethodPost, id, "/cancel")
	return err
}

// call sends one JSON request about response id and returns the body.
func (c *Client) call(ctx context.Context, method, id, suffix string) (json.RawMessage, error) {
	u, err := c.responseURL(id, suffix)
	if err != nil {
		return nil, err
	}
	var body io.Reader
	if method == http.MethodPost {
		body = strings.NewReader("{}")
	}
	return c.callURL(ctx, method, u, body, "response "+SanitizeLine(id))
}

// callURL sends a JSON request to u (body nil for none) and returns the
// JSON it answered, secrets redacted: a non-2xx status is an *APIError,
// what is neither JSON nor under maxResponseJSON says so, naming what.
func (c *Client) callURL(ctx context.Context, method string, u *url.URL, body io.Reader, what string) (json.RawMessage, error) {
	var data []byte
	err := c.readURL(ctx, method, u, body, func(r io.Reader) error {
		var err error
		data, err = io.ReadAll(io.LimitReader(r, maxResponseJSON+1))
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(data) > maxResponseJSON {
		return nil, fmt.Errorf("%s from %s is larger than %d MiB", what, u.Host, maxResponseJSON>>20)
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("%s from %s is not JSON", what, u.Host)
	}
	return c.redactor(nil).JSON(data), nil
}

// readURL sends a JSON request to u (body nil for none) and hands a 2xx
// answer's body to read, which decides how much of it to hold; a non-2xx
// status is an *APIError. A body that fails to read gives the idle
// timeout's or the connection's error.
func (c *Client) readURL(ctx context.Context, method string, u *url.URL, body io.Reader, read func(io.Reader) error) error {
	header, err := c.header()
	if err != nil {
		return err
	}
	header.Set("Accept", "application/json")
	idle := orDefault(c.IdleTimeout, defaultIdleTimeout)
	actx, cancel, timer := armIdle(ctx, idle, u.Host)
	defer cancel(nil)
	defer timer.Stop()
	hreq, err := http.NewRequestWithContext(actx, method, u.String(), body)
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	hreq.Header = header
	resp, err := c.httpClient(u).Do(hreq)
	if err != nil {
		if cause := context.Cause(actx); cause != nil {
			return cause
		}
		return newConnError(u.Host, err)
	}
	defer resp.Body.Close()
	r := &connReader{r: resp.Body, ctx: actx, host: u.Host}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, err := io.ReadAll(io.LimitReader(r, maxErrorBody))
		if err != nil {
			return err
		}
		return c.apiError(resp, data, "")
	}
	return read(r)
}

// connReader reads a response body, turning a failed read into the
// context's cause (the idle timeout) or a connection error naming host.
type connReader struct {
	r    io.Reader
	ctx  context.Context
	host string
}

func (c *connReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil && err != io.EOF {
		if cause := context.Cause(c.ctx); cause != nil {
			return n, cause
		}
		return n, newConnError(c.host, err)
	}
	return n, err
}

// NotResumable reports whether err, from OpenAfter, says the server cannot
// stream a stored response again (400, 404 or 405): the caller polls with
// Retrieve instead.
func NotResumable(err error) bool { return endpointMissing(err) }

// endpointMissing reports whether err is a server's answer that it has no
// such endpoint or method: 400, 404 or 405.
func endpointMissing(err error) bool {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.Status {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
		return true
	}
	return false
}

// BackgroundRejected reports whether err, from opening a request with
// Background set, is the server refusing background mode: a 400 that names
// the background parameter. The caller sends the request again without it.
func BackgroundRejected(err error) bool {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest {
		return false
	}
	return apiErr.Param == "background" || strings.Contains(strings.ToLower(apiErr.Message), "background")
}
