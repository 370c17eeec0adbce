package stream

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ModelEntry is one model of GET {base}/models.
type ModelEntry struct {
	ID      string `json:"id"`
	OwnedBy string `json:"owned_by,omitempty"`
	Created int64  `json:"created,omitempty"`
}

// Model list limits: the body read, and the wait for it.
const (
	maxModelsBody  = 4 << 20
	modelsTimeout  = 20 * time.Second
	maxModelIDSize = 200
)

// Models asks the provider for its models: GET {BaseURL}/models, with the
// client's headers, once (no retries: the caller caches, and falls back to
// free text). The ids are sanitized and ids that are empty, too long or hold
// spaces are dropped. A non-2xx status is an *APIError; a body that is not
// the {"data": [...]} list says so.
func (c *Client) Models(ctx context.Context) ([]ModelEntry, error) {
	endpoint, err := c.endpoint()
	if err != nil {
		return nil, err
	}
	u := *endpoint
	u.Path = strings.TrimSuffix(u.Path, "/responses") + "/models"
	header, err := c.header()
	if err != nil {
		return nil, err
	}
	header.Set("Accept", "application/json")
	header.Del("Content-Type")
	wait := modelsTimeout // a list is small: no need for the stream's idle timeout
	if c.IdleTimeout > 0 {
		wait = min(wait, c.IdleTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header = header
	resp, err := c.httpClient(&u).Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("GET %s: no answer in %s", modelsPath(&u), wait)
		}
		return nil, newConnError(u.Host, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxModelsBody+1))
	if err != nil {
		return nil, newConnError(u.Host, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, c.apiError(resp, data, "")
	}
	if len(data) > maxModelsBody {
		return nil, fmt.Errorf("GET %s: the list is over %d MiB", modelsPath(&u), maxModelsBody>>20)
	}
	var body struct {
		Data []ModelEntry `json:"data"`
	}
	if err := json.Unmarshal(data, &body); err != nil || body.Data == nil {
		return nil, fmt.Errorf("GET %s: the answer is not a model list", modelsPath(&u))
	}
	out := make([]ModelEntry, 0, len(body.Data))
	for _, m := range body.Data {
		m.ID, m.OwnedBy = SanitizeLine(m.ID), SanitizeLine(m.OwnedBy)
		if m.ID == "" || len(m.ID) > maxModelIDSize || strings.ContainsAny(m.ID, " \t") {
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

// modelsPath is the URL's path for messages (no query, no credentials).
func modelsPath(u *url.URL) string { return u.Host + u.Path }
