package stream

// This file is the standalone compaction call, POST {base}/responses/compact:
// the server reads a conversation (its stored chain, or the input sent) and
// answers with a shorter window of items, opaque compaction items among
// them, that the next request sends as its input.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// CompactRequest is the body of POST {base}/responses/compact.
type CompactRequest struct {
	Model              string            `json:"model"`
	Input              []json.RawMessage `json:"input,omitempty"`
	PreviousResponseID string            `json:"previous_response_id,omitempty"`
	Instructions       string            `json:"instructions,omitempty"`
}

// CompactResult is the server's answer: the compacted window. Output is
// sent as the next request's input, unchanged.
type CompactResult struct {
	ID        string            `json:"id"`
	Object    string            `json:"object"`
	Output    []json.RawMessage `json:"output"`
	CreatedAt int64             `json:"created_at"`
	Usage     *Usage            `json:"usage"`
}

// Limits of a compact call.
const (
	// compactTimeout bounds the whole call: the server answers only once it
	// has read and summarized the conversation, so no idle timer applies.
	compactTimeout = 5 * time.Minute
	// maxCompactBody caps the answer read (it holds encrypted content).
	maxCompactBody = 32 << 20
)

// ErrCompactUnsupported is wrapped by the error of a Compact call to a
// server that has no /responses/compact (404, 405 or 501).
var ErrCompactUnsupported = errors.New("the server does not offer /responses/compact")

// Compact sends req to POST {BaseURL}/responses/compact and returns the
// compacted window. Connection failures and 408/409/429/5xx are retried as
// Open retries them. A server without the endpoint gives an error wrapping
// ErrCompactUnsupported; any other refusal an *APIError.
func (c *Client) Compact(ctx context.Context, req CompactRequest) (*CompactResult, error) {
	endpoint, err := c.endpoint()
	if err != nil {
		return nil, err
	}
	endpoint.Path += "/compact"
	header, err := c.header()
	if err != nil {
		return nil, err
	}
	header.Set("Accept", "application/json")
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode compact request: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, compactTimeout)
	defer cancel()
	return withRetries(ctx, c, "compact", func() (*CompactResult, error) {
		return c.compactOnce(ctx, endpoint.String(), endpoint.Host, header, body, req.Model)
	})
}

func (c *Client) compactOnce(ctx context.Context, endpoint, host string, header http.Header, body []byte, model string) (*CompactResult, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build compact request: %w", err)
	}
	hreq.Header = header.Clone()
	resp, err := c.httpClient(hreq.URL).Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, newConnError(host, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		apiErr := c.apiError(resp, data, model)
		switch resp.StatusCode {
		case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented:
			if !apiErr.modelNotFound() {
				return nil, &compactUnsupported{apiErr}
			}
		}
		return nil, apiErr
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxCompactBody+1))
	if err != nil {
		return nil, newConnError(host, err)
	}
	if len(data) > maxCompactBody {
		return nil, fmt.Errorf("compact: the server's answer is larger than %d MiB — runnel keeps the conversation as it was", maxCompactBody>>20)
	}
	var res CompactResult
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("compact: the server's answer is not a compacted response (%s) — check base_url", truncateRunes(SanitizeLine(err.Error()), 120))
	}
	if len(res.Output) == 0 {
		return nil, errors.New("compact: the server answered with an empty window — runnel keeps the conversation as it was")
	}
	for _, it := range res.Output {
		if t := bytes.TrimSpace(it); len(t) == 0 || t[0] != '{' {
			return nil, errors.New("compact: the server's window holds an item that is not an object — runnel keeps the conversation as it was")
		}
	}
	return &res, nil
}

// compactUnsupported is a refusal that says the endpoint does not exist.
type compactUnsupported struct{ api *APIError }

func (e *compactUnsupported) Error() string {
	return fmt.Sprintf("%s (HTTP %d)", ErrCompactUnsupported.Error(), e.api.Status)
}
func (e *compactUnsupported) Unwrap() []error { return []error{ErrCompactUnsupported, e.api} }

// ContextLengthExceeded reports whether err (an *APIError from Open or
// Compact) or info (a failed response's error) says the conversation no
// longer fits the model's context window.
func ContextLengthExceeded(err error, info *ErrorInfo) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.contextLengthExceeded() {
		return true
	}
	return info != nil && contextLength(info.Code, info.Message)
}

func (e *APIError) contextLengthExceeded() bool {
	if e.Code == "context_length_exceeded" {
		return true
	}
	return (e.Status == http.StatusBadRequest || e.Status == http.StatusRequestEntityTooLarge) && contextLength("", e.Message)
}

func contextLength(code, message string) bool {
	if code == "context_length_exceeded" {
		return true
	}
	m := strings.ToLower(message)
	return strings.Contains(m, "context window") || strings.Contains(m, "context length") ||
		strings.Contains(m, "maximum context")
}
