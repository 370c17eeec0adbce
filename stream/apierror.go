package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// maxErrorBody caps how much of an error response body is read.
const maxErrorBody = 64 << 10

// Lengths, in runes, of the server text an APIError keeps.
const (
	maxMessageRunes = 300
	maxSummaryRunes = 200
)

// APIError is an HTTP response the client could not use: a non-2xx status, or
// a 2xx that is not an event stream. Every string field is sanitized and one
// line, so Error() is safe to print on a terminal.
type APIError struct {
	Status      int           // HTTP status
	Code        string        // error.code from a JSON body, if any
	Type        string        // error.type
	Param       string        // error.param
	Message     string        // error.message: sanitized, one line, truncated
	RetryAfter  time.Duration // from retry-after-ms or Retry-After (seconds or HTTP date); 0 if none
	Model       string        // the request's model, for 404 messages
	BodySummary string        // a non-JSON body summarized: HTML <title> or first text; sanitized, truncated
	URL         string        // the request URL without query or credentials, for 404 hints
	ContentType string        // the response's media type, when a 2xx was not an event stream
	KeyHint     string        // where the provider's key comes from (Client.KeyHint), for a 401's advice
	// Names are the request parameters the body names (apiparams.go), the
	// most telling first: error.param, a pydantic loc, a zod path, a name
	// the message quotes.
	Names []ParamName
}

// apiError is parseAPIError on a body with the client's secrets hidden,
// knowing where the client's key comes from.
func (c *Client) apiError(resp *http.Response, body []byte, model string) *APIError {
	e := parseAPIError(resp, c.redactor(nil).JSON(body), model)
	e.KeyHint = c.KeyHint
	return e
}

// keyAdvice is what to check about a rejected key: hint (Client.KeyHint)
// names the provider's own variable or command.
func keyAdvice(hint string) string {
	if hint == "" {
		return "check OPENAI_API_KEY (or api_key_env / api_key_command in config)"
	}
	return "check " + hint
}

// Error returns one line: what went wrong, the server's words if any, and
// what to do.
func (e *APIError) Error() string {
	line := e.head()
	if e.Status == http.StatusTooManyRequests && e.RetryAfter > 0 {
		line += " (retry after " + e.RetryAfter.String() + ")"
	}
	if hint := e.hint(); hint != "" {
		line += " — " + hint
	}
	return line
}

// Brief is Error without the advice and the Retry-After: what went wrong
// and the server's words. The chat shows it while it retries on its own,
// with its own countdown, where "wait and try again" would contradict the
// automatic retry.
func (e *APIError) Brief() string {
	return e.head()
}

// hint is what the user can do.
func (e *APIError) hint() string {
	_, hint := e.explain()
	return hint
}

// head is what went wrong and the server's words.
func (e *APIError) head() string {
	head := strconv.Itoa(e.Status)
	if text := http.StatusText(e.Status); text != "" {
		head += " " + text
	} else {
		head = "HTTP " + head
	}
	what, _ := e.explain()
	said := e.said()
	if e.selfExplained() {
		said = ""
	}
	line := head + ": " + what
	switch {
	case what == "":
		line = head + ": " + said
	case said != "":
		line += ": " + said
	}
	return line
}

// explain returns what the status means for runnel and what the user can do.
func (e *APIError) explain() (what, hint string) {
	s := e.Status
	switch {
	case s >= 200 && s < 300:
		ct := e.ContentType
		if ct == "" {
			ct = "no content type"
		}
		return "expected an event stream, got " + ct,
			"check that base_url points at an OpenAI-compatible Responses API"
	case s >= 300 && s < 400:
		if e.Message != "" {
			return "", "set base_url to the new address" // the message says where
		}
		return "the server redirected the request", "set base_url to the new address"
	case e.PreviousResponseNotFound():
		return "the previous response in this conversation is not on the server",
			"start a new conversation (the server may not keep stored responses)"
	case e.contextLengthExceeded():
		return "the conversation no longer fits the model's context window",
			"compact it (/compact in the chat) or start a new conversation"
	case e.modelNotFound():
		if e.Model != "" {
			return fmt.Sprintf("model %q does not exist or you lack access", e.Model),
				"check --model or model in config"
		}
		return "the model does not exist or you lack access", "check --model or model in config"
	case s == http.StatusUnauthorized:
		return "the server rejected the API key", keyAdvice(e.KeyHint)
	case s == http.StatusForbidden:
		return "the API key is not allowed to do this",
			"check the key's project, organization and model permissions"
	case s == http.StatusNotFound:
		where := "the server"
		if e.URL != "" {
			where = e.URL
		}
		return "no Responses endpoint at " + where,
			"check base_url (or OPENAI_BASE_URL); it usually ends in /v1"
	case s == http.StatusRequestTimeout:
		return "the server timed out waiting for the request", "try again"
	case s == http.StatusConflict:
		return "the server reported a conflict", "try again"
	case s == http.StatusRequestEntityTooLarge:
		return "the request is too large for the server",
			"start a new conversation or send less"
	case s == http.StatusTooManyRequests && e.Code == "insufficient_quota":
		return "quota exceeded", "check your plan and billing"
	case s == http.StatusTooManyRequests:
		return "rate limited", "wait and try again"
	case s >= 500:
		return "server error", "try again later"
	case s >= 400:
		return "the server rejected the request", "check the model and request options in config"
	}
	return "unexpected response", "check base_url"
}

// selfExplained reports whether explain already says all the server's
// message would (which then only repeats it).
func (e *APIError) selfExplained() bool {
	return e.PreviousResponseNotFound() || (e.modelNotFound() && e.Model != "")
}

// said is the server's own explanation: its message (with the offending
// parameter), else a summary of the body.
func (e *APIError) said() string {
	if e.Message != "" {
		if e.Param != "" && !strings.Contains(e.Message, e.Param) {
			return e.Message + " (param " + e.Param + ")"
		}
		return e.Message
	}
	return e.BodySummary
}

// Retryable reports whether sending the same request again may succeed: 408,
// 409, 429 and 5xx. A 429 for insufficient_quota is not retryable: waiting
// does not add credit.
func (e *APIError) Retryable() bool {
	switch {
	case e.Status == http.StatusTooManyRequests:
		return e.Code != "insufficient_quota"
	case e.Status == http.StatusRequestTimeout, e.Status == http.StatusConflict:
		return true
	}
	return e.Status >= 500 && e.Status <= 599
}

// PreviousResponseNotFound reports whether the server rejected the request's
// previous_response_id as unknown (expired, never stored, or another
// project's), so the caller can restart the chain with full history. Besides
// OpenAI's 400 "Previous response with id '…' not found.", it takes vLLM's
// 404 "Response with id '…' not found." (param response_id), and a server
// that keeps no state at all (ChainUnsupported).
func (e *APIError) PreviousResponseNotFound() bool {
	if (e.Status == http.StatusBadRequest || e.Status == http.StatusNotFound) && e.chainNotFound() {
		return true
	}
	return e.ChainUnsupported()
}

// chainNotFound reports whether the body says the chained response is not
// found: OpenAI's code or words, vLLM's "Response with id '…' not found."
// (param response_id).
func (e *APIError) chainNotFound() bool {
	if e.Code == "previous_response_not_found" {
		return true
	}
	m := strings.ToLower(e.Message)
	if !strings.Contains(m, "not found") {
		return false
	}
	return strings.Contains(m, "previous response") || strings.Contains(m, "previous_response") ||
		e.Param == "response_id" || e.Param == "previous_response_id" || strings.HasPrefix(m, "response with id ")
}

// ChainUnsupported reports whether the server refused previous_response_id
// itself: a 400 (or 422) that names the parameter (Refuses), whatever its
// words, as servers that keep no state answer (Groq: "property
// 'previous_response_id' is unsupported"; llama.cpp: "llama.cpp does not
// support 'previous_response_id'."; OpenRouter rejects a non-null
// previous_response_id with a 400) — unless it says the response is not
// found (OpenAI's expired chain) or the id is malformed (invalid_value).
// The caller sends the history instead, now and from then on.
func (e *APIError) ChainUnsupported() bool {
	if !e.Refuses("previous_response_id") && !strings.Contains(strings.ToLower(e.said()), "previous response id") {
		return false
	}
	return e.Status != http.StatusNotFound && !e.chainNotFound() && e.Code != "invalid_value"
}

// Refuses reports whether the server refused the request parameter named
// param (or one of its names, as "text.verbosity" and "verbosity"): a 400
// or 422 whose param or message names it. Servers that take fewer
// parameters than OpenAI's say so this way (OpenAI: "Unsupported parameter:
// 'service_tier'…", code unsupported_parameter; pydantic-based servers
// list the field in the message); the caller sends the request again
// without it.
func (e *APIError) Refuses(names ...string) bool {
	if !e.Refusal() {
		return false
	}
	for _, n := range names {
		if n == "" {
			continue
		}
		for _, have := range e.Names {
			if have.Path == n || strings.HasPrefix(have.Path, n+".") || strings.HasPrefix(have.Path, n+"[") || strings.HasSuffix(have.Path, "."+n) {
				return true
			}
		}
		if e.Mentions(n) {
			return true
		}
	}
	return false
}

// modelNotFound reports whether the server said the model is unknown.
func (e *APIError) modelNotFound() bool {
	if e.Code == "model_not_found" {
		return true
	}
	if e.Status != http.StatusNotFound {
		return false
	}
	m := strings.ToLower(e.Message)
	return e.Param == "model" || (strings.Contains(m, "model") &&
		(strings.Contains(m, "not exist") || strings.Contains(m, "not found")))
}

// parseAPIError builds an APIError from a response and the start of its body
// (the caller reads at most maxErrorBody bytes). model is the request's.
func parseAPIError(resp *http.Response, body []byte, model string) *APIError {
	e := &APIError{
		Status:     resp.StatusCode,
		RetryAfter: parseRetryAfter(resp.Header, time.Now()),
		Model:      model,
	}
	if resp.Request != nil && resp.Request.URL != nil {
		u := *resp.Request.URL
		u.User, u.RawQuery, u.Fragment = nil, "", ""
		e.URL = SanitizeLine(u.String())
	}
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err == nil {
		e.ContentType = SanitizeLine(mt)
	}
	if !e.parseJSON(body) {
		e.BodySummary = summarizeBody(body)
	}
	e.nameMessage()
	if loc := resp.Header.Get("Location"); e.Status >= 300 && e.Status < 400 && loc != "" {
		e.Message = "redirected to " + truncateRunes(SanitizeLine(loc), maxSummaryRunes)
	}
	return e
}

// parseJSON fills the error fields from the shapes servers use:
// {"error":{"message","type","param","code"}}, {"error":"text"},
// {"message":"text"} and {"detail":"text"}. It reports whether body was JSON.
func (e *APIError) parseJSON(body []byte) bool {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(body), &top); err != nil {
		return false
	}
	var inner struct {
		Message json.RawMessage `json:"message"`
		Type    json.RawMessage `json:"type"`
		Param   json.RawMessage `json:"param"`
		Code    json.RawMessage `json:"code"`
	}
	if raw, ok := top["error"]; ok {
		if json.Unmarshal(raw, &inner) != nil {
			inner.Message = raw // "error": "text"
		}
	} else {
		inner.Message = top["message"]
		if inner.Message == nil {
			inner.Message = top["detail"]
		}
		inner.Type, inner.Code = top["type"], top["code"]
	}
	e.Message = truncateRunes(SanitizeLine(jsonScalar(inner.Message)), maxMessageRunes)
	if e.Message == "" {
		e.Message = truncateRunes(SanitizeLine(validationDetail(inner.Message)), maxMessageRunes)
		e.Names = pydanticNames(inner.Message)
	}
	if e.Message == "" {
		// a zod issue list (responses.js): the issue about what was sent
		names, msg := zodNames(inner.Message)
		if names == nil {
			names, msg = zodNames(top["details"])
		}
		e.Names, e.Message = names, truncateRunes(SanitizeLine(msg), maxMessageRunes)
	}
	e.Type = truncateRunes(SanitizeLine(jsonScalar(inner.Type)), 80)
	e.Param = truncateRunes(SanitizeLine(jsonScalar(inner.Param)), 80)
	e.Code = truncateRunes(SanitizeLine(jsonScalar(inner.Code)), 80)
	if e.Message == "" && e.Code == "" && e.Type == "" {
		e.BodySummary = truncateRunes(SanitizeLine(string(body)), maxSummaryRunes)
	}
	return true
}

// validationDetail is a FastAPI/pydantic validation error list,
// {"detail":[{"loc":["body","prompt_cache_key"],"msg":"Extra inputs are not
// permitted"}, …]}, as one line: "body.prompt_cache_key: Extra inputs are
// not permitted; …"; "" for anything else.
func validationDetail(raw json.RawMessage) string {
	var list []struct {
		Loc []any  `json:"loc"`
		Msg string `json:"msg"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &list) != nil {
		return ""
	}
	var parts []string
	for _, d := range list {
		var loc []string
		for _, l := range d.Loc {
			loc = append(loc, fmt.Sprint(l))
		}
		if d.Msg == "" && len(loc) == 0 {
			continue
		}
		parts = append(parts, strings.TrimPrefix(strings.Join(loc, ".")+": "+d.Msg, ": "))
		if len(parts) == 5 {
			break
		}
	}
	return strings.Join(parts, "; ")
}

// jsonScalar renders a JSON string, number or bool as text; null, absent,
// objects and arrays give "".
func jsonScalar(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}

var (
	titleRE   = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	hiddenRE  = regexp.MustCompile(`(?is)<(script|style|head)[^>]*>.*?</(script|style|head)\s*>|<!--.*?-->`)
	tagRE     = regexp.MustCompile(`(?s)<[^>]*>`)
	htmlishRE = regexp.MustCompile(`(?i)^\s*(<!doctype|<html|<\?xml|<head|<body|<h1|<center|<title)`)
)

// summarizeBody turns a non-JSON error body into one short, safe line: an
// HTML page's <title> (else its visible text), or the start of plain text.
func summarizeBody(body []byte) string {
	s := string(body)
	if htmlishRE.MatchString(s) || strings.Contains(strings.ToLower(s[:min(len(s), 512)]), "<html") {
		if m := titleRE.FindStringSubmatch(s); m != nil {
			if t := SanitizeLine(html.UnescapeString(tagRE.ReplaceAllString(m[1], " "))); t != "" {
				return truncateRunes(t, maxSummaryRunes)
			}
		}
		s = hiddenRE.ReplaceAllString(s, " ")
		s = html.UnescapeString(tagRE.ReplaceAllString(s, " "))
	}
	return truncateRunes(SanitizeLine(s), maxSummaryRunes)
}

// truncateRunes cuts s to at most n runes, marking a cut with "…".
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	return strings.TrimRight(s[:i], " ") + "…"
}

// parseRetryAfter reads how long the server asks the client to wait:
// retry-after-ms (milliseconds, as OpenAI and Azure send), else Retry-After
// as seconds or as an HTTP date (relative to now). 0 means none or invalid.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs > 0 && secs < 1e9 {
			return time.Duration(secs * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
