package stream

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// apiResponse is a response to POST https://api.example.com/v1/responses.
func apiResponse(status int, header http.Header) *http.Response {
	if header == nil {
		header = http.Header{}
	}
	u, _ := url.Parse("https://user:secret@api.example.com/v1/responses?k=v")
	return &http.Response{StatusCode: status, Header: header, Request: &http.Request{URL: u}}
}

func TestParseAPIErrorShapes(t *testing.T) {
	tests := []struct {
		name              string
		status            int
		body              string
		msg, code, typ, p string
	}{
		{"openai", 400, `{"error":{"message":"Bad thing","type":"invalid_request_error","param":"input","code":"bad"}}`, "Bad thing", "bad", "invalid_request_error", "input"},
		{"null code", 500, `{"error":{"message":"Oops","type":"server_error","param":null,"code":null}}`, "Oops", "", "server_error", ""},
		{"numeric code", 429, `{"error":{"message":"slow down","code":429}}`, "slow down", "429", "", ""},
		{"error string", 400, `{"error":"plain words"}`, "plain words", "", "", ""},
		{"top-level message", 422, `{"message":"unprocessable","type":"validation"}`, "unprocessable", "", "validation", ""},
		{"detail", 404, `{"detail":"Not Found"}`, "Not Found", "", "", ""},
		{"controls in message", 400, `{"error":{"message":"a\u001b]52;c;AAAA\u0007b\nc\u009b2J"}}`, "ab c", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := parseAPIError(apiResponse(tt.status, nil), []byte(tt.body), "m")
			if e.Message != tt.msg || e.Code != tt.code || e.Type != tt.typ || e.Param != tt.p {
				t.Errorf("got message %q code %q type %q param %q", e.Message, e.Code, e.Type, e.Param)
			}
			if e.BodySummary != "" {
				t.Errorf("JSON body also summarized: %q", e.BodySummary)
			}
			checkErrorLine(t, e)
		})
	}
}

func TestParseAPIErrorURLHasNoSecrets(t *testing.T) {
	e := parseAPIError(apiResponse(404, nil), nil, "")
	if e.URL != "https://api.example.com/v1/responses" {
		t.Errorf("URL = %q", e.URL)
	}
	if msg := e.Error(); strings.Contains(msg, "secret") || !strings.Contains(msg, "check base_url") {
		t.Errorf("message: %s", msg)
	}
}

func TestSummarizeBody(t *testing.T) {
	long := strings.Repeat("word ", 200)
	tests := []struct{ name, body, want string }{
		{"title", "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>x</body></html>", "502 Bad Gateway"},
		{"title with entities and tags", "<html><title>A &amp; B <b>c</b>\x1b[2J</title></html>", "A & B c"},
		{"no title: visible text", "<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Service\nDown</h1><!-- hidden --><p>Later</p></body></html>", "Service Down Later"},
		{"plain text", "upstream connect error\r\nreset reason: overflow", "upstream connect error reset reason: overflow"},
		{"long text truncated", long, ""}, // checked by length below
		{"invalid UTF-8", "bad \xff byte", "bad \uFFFD byte"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := summarizeBody([]byte(tt.body))
			if tt.name == "long text truncated" {
				if n := len([]rune(got)); n != maxSummaryRunes || !strings.HasSuffix(got, "…") {
					t.Errorf("got %d runes: %q", n, got)
				}
				return
			}
			if got != tt.want {
				t.Errorf("summarizeBody = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
	}{
		{"none", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"7"}}, 7 * time.Second},
		{"fractional seconds", http.Header{"Retry-After": {"0.25"}}, 250 * time.Millisecond},
		{"http date", http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}, 90 * time.Second},
		{"date in the past", http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0},
		{"ms wins", http.Header{"Retry-After": {"2"}, "Retry-After-Ms": {"1500"}}, 1500 * time.Millisecond},
		{"bad ms falls back", http.Header{"Retry-After": {"2"}, "Retry-After-Ms": {"soon"}}, 2 * time.Second},
		{"garbage", http.Header{"Retry-After": {"tomorrow"}}, 0},
		{"negative", http.Header{"Retry-After": {"-5"}}, 0},
		{"absurd", http.Header{"Retry-After": {"1e300"}}, 0},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.header, now); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestAPIErrorRetryable(t *testing.T) {
	for status, want := range map[int]bool{
		400: false, 401: false, 403: false, 404: false, 422: false,
		408: true, 409: true, 429: true, 500: true, 502: true, 503: true, 504: true, 599: true,
	} {
		if got := (&APIError{Status: status}).Retryable(); got != want {
			t.Errorf("%d: Retryable = %v, want %v", status, got, want)
		}
	}
	if (&APIError{Status: 429, Code: "insufficient_quota"}).Retryable() {
		t.Error("insufficient_quota is retryable; waiting does not add credit")
	}
}

func TestPreviousResponseNotFound(t *testing.T) {
	tests := []struct {
		e    APIError
		want bool
	}{
		{APIError{Status: 400, Code: "previous_response_not_found"}, true},
		{APIError{Status: 404, Message: "Previous response with id 'resp_1' not found."}, true},
		{APIError{Status: 400, Message: "previous_response_id resp_1 not found"}, true},
		{APIError{Status: 400, Message: "Model not found"}, false},
		{APIError{Status: 500, Code: "previous_response_not_found"}, false},
	}
	for _, tt := range tests {
		if got := tt.e.PreviousResponseNotFound(); got != tt.want {
			t.Errorf("%+v: got %v, want %v", tt.e, got, tt.want)
		}
	}
}

// TestChainErrorBodies: the bodies servers answer a previous_response_id
// they cannot use with, parsed as the client parses them.
func TestChainErrorBodies(t *testing.T) {
	tests := []struct {
		name                string
		status              int
		body                string
		notFound, unsupport bool
	}{
		{"openai", 400, `{"error":{"message":"Previous response with id 'resp_x' not found.","type":"invalid_request_error","param":"previous_response_id","code":"previous_response_not_found"}}`, true, false},
		{"vllm", 404, `{"error":{"message":"Response with id 'resp_x' not found.","type":"invalid_request_error","param":"response_id","code":404}}`, true, false},
		{"vllm no param", 404, `{"error":{"message":"Response with id 'resp_x' not found.","type":"NotFoundError","param":null,"code":404}}`, true, false},
		{"groq", 400, `{"error":{"message":"property 'previous_response_id' is unsupported","type":"invalid_request_error"}}`, true, true},
		{"openrouter", 400, `{"error":{"code":"invalid_prompt","message":"previous_response_id is not supported: this API is stateless, send the full conversation history"},"metadata":null}`, true, true},
		{"unsupported parameter", 400, `{"error":{"message":"Unsupported parameter: 'previous_response_id'.","type":"invalid_request_error","param":"previous_response_id","code":"unsupported_parameter"}}`, true, true},
		{"422 validation", 422, `{"error":{"message":"previous_response_id: not supported by this server","type":"invalid_request_error"}}`, true, true},
		{"bad id is not unsupported", 400, `{"error":{"message":"Invalid 'previous_response_id': 'x y'. Expected an ID that contains letters, numbers, underscores, or dashes.","type":"invalid_request_error","param":"previous_response_id","code":"invalid_value"}}`, false, false},
		{"ollama unknown model", 404, `{"error":{"message":"model 'nope' not found","type":"not_found_error"}}`, false, false},
		{"unknown endpoint", 404, `{"error":{"message":"Not Found","type":"invalid_request_error"}}`, false, false},
		{"store", 400, `{"error":{"message":"store: true is not supported","type":"invalid_request_error","param":"store"}}`, false, false},
		{"server error", 500, `{"error":{"message":"previous_response_id unsupported","type":"server_error"}}`, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := parseAPIError(apiResponse(tt.status, nil), []byte(tt.body), "m")
			if got := e.PreviousResponseNotFound(); got != tt.notFound {
				t.Errorf("PreviousResponseNotFound = %v, want %v (%+v)", got, tt.notFound, e)
			}
			if got := e.ChainUnsupported(); got != tt.unsupport {
				t.Errorf("ChainUnsupported = %v, want %v (%+v)", got, tt.unsupport, e)
			}
			if tt.notFound && !strings.Contains(e.Error(), "previous response in this conversation is not on the server") {
				t.Errorf("Error() = %q", e.Error())
			}
		})
	}
}

func TestAPIErrorMessages(t *testing.T) {
	tests := []struct {
		e    APIError
		want string
	}{
		{APIError{Status: 401}, "401 Unauthorized: the server rejected the API key — check OPENAI_API_KEY (or api_key_env / api_key_command in config)"},
		{APIError{Status: 404, Code: "model_not_found", Model: "gpt-x", Message: "The model `gpt-x` does not exist."}, `404 Not Found: model "gpt-x" does not exist or you lack access — check --model or model in config`},
		{APIError{Status: 404, URL: "http://h/v1/responses"}, "404 Not Found: no Responses endpoint at http://h/v1/responses — check base_url (or OPENAI_BASE_URL); it usually ends in /v1"},
		{APIError{Status: 429, Message: "Slow down.", RetryAfter: 2 * time.Second}, "429 Too Many Requests: rate limited: Slow down. (retry after 2s) — wait and try again"},
		{APIError{Status: 429, Code: "insufficient_quota", Message: "You exceeded your current quota."}, "429 Too Many Requests: quota exceeded: You exceeded your current quota. — check your plan and billing"},
		{APIError{Status: 503, BodySummary: "Service Unavailable"}, "503 Service Unavailable: server error: Service Unavailable — try again later"},
		{APIError{Status: 400, Message: "Invalid value.", Param: "reasoning.effort"}, "400 Bad Request: the server rejected the request: Invalid value. (param reasoning.effort) — check the model and request options in config"},
		{APIError{Status: 308, Message: "redirected to https://x/v1/responses"}, "308 Permanent Redirect: redirected to https://x/v1/responses — set base_url to the new address"},
		{APIError{Status: 299}, "HTTP 299: expected an event stream, got no content type — check that base_url points at an OpenAI-compatible Responses API"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

// TestParseAPIErrorCapsHostileBodies: whatever the server sends, the error
// is one short line with no control characters or markup.
func TestParseAPIErrorCapsHostileBodies(t *testing.T) {
	bodies := []string{
		`{"error":{"message":"` + strings.Repeat("x", 10000) + `"}}`,
		strings.Repeat("<p>\x1b]0;t\x07text</p>\n", 3000),
		"\x00\x01\x02\x1b[2J\x1bP" + strings.Repeat("y", 100),
		`{"error":{"message":null,"code":{"nested":true}}}`,
		`[1,2,3]`,
	}
	for _, b := range bodies {
		e := parseAPIError(apiResponse(500, http.Header{"Content-Type": {"text/html"}}), []byte(b), "m")
		checkErrorLine(t, e)
		if n := len([]rune(e.Error())); n > 500 {
			t.Errorf("error is %d runes long", n)
		}
	}
}

func checkErrorLine(t *testing.T, e *APIError) {
	t.Helper()
	msg := e.Error()
	if SanitizeLine(msg) != msg {
		t.Errorf("Error() is not one clean line: %q", msg)
	}
}

// TestAPIErrorBrief: Brief is what went wrong without advice or Retry-After
// (the chat retries on its own and counts down itself).
func TestAPIErrorBrief(t *testing.T) {
	e := &APIError{Status: 429, Message: "Slow down.", RetryAfter: 2e9}
	if got, want := e.Brief(), "429 Too Many Requests: rate limited: Slow down."; got != want {
		t.Errorf("Brief = %q, want %q", got, want)
	}
	if !strings.Contains(e.Error(), "wait and try again") || !strings.Contains(e.Error(), "retry after 2s") {
		t.Errorf("Error lost its advice: %q", e.Error())
	}
}

// Refuses: a 400 or 422 naming the parameter, by param or in its message.
func TestAPIErrorRefuses(t *testing.T) {
	cases := []struct {
		e    APIError
		want bool
	}{
		{APIError{Status: 400, Code: "unsupported_parameter", Param: "service_tier", Message: "Unsupported parameter: 'service_tier'."}, true},
		{APIError{Status: 422, Message: "Extra inputs are not permitted: body.service_tier"}, true},
		{APIError{Status: 400, Param: "model", Message: "unknown model"}, false},
		{APIError{Status: 500, Message: "service_tier"}, false},
	}
	for _, c := range cases {
		if got := c.e.Refuses("service_tier"); got != c.want {
			t.Errorf("%+v: %v", c.e, got)
		}
	}
}

// TestValidationDetailNamesTheField: a FastAPI/pydantic server's 422
// ({"detail":[{"loc":[…],"msg":…}]}) reads as one line naming the field,
// so a refused knob is known as refused (and the turn is sent without it)
// and the error says what the server said.
func TestValidationDetailNamesTheField(t *testing.T) {
	body := []byte(`{"detail":[{"type":"extra_forbidden","loc":["body","prompt_cache_key"],"msg":"Extra inputs are not permitted","input":"runnel-1"},{"loc":["body","text","verbosity"],"msg":"Extra inputs are not permitted\u001b[2J"}]}`)
	resp := &http.Response{StatusCode: 422, Header: http.Header{"Content-Type": {"application/json"}}}
	e := parseAPIError(resp, body, "m")
	if e.Message != "body.prompt_cache_key: Extra inputs are not permitted; body.text.verbosity: Extra inputs are not permitted[2J" && !strings.HasPrefix(e.Message, "body.prompt_cache_key: Extra inputs are not permitted; body.text.verbosity: Extra inputs are not permitted") {
		t.Errorf("message %q", e.Message)
	}
	if strings.ContainsAny(e.Message, "\x1b\n") {
		t.Errorf("message keeps control bytes: %q", e.Message)
	}
	if !e.Refuses("prompt_cache_key") || !e.Refuses("verbosity") || e.Refuses("service_tier") {
		t.Errorf("refuses: cache key %v, verbosity %v, tier %v", e.Refuses("prompt_cache_key"), e.Refuses("verbosity"), e.Refuses("service_tier"))
	}
}
