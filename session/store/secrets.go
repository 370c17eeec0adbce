package store

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The store never receives an API key, but settings JSON is the caller's and
// may carry credentials by accident (an MCP tool's "authorization", a
// header). redactSettings replaces them before anything is written.

const redacted = "[redacted]"

// secretNames are field names whose values are credentials.
var secretNames = map[string]bool{
	"api_key": true, "apikey": true, "x-api-key": true, "authorization": true,
	"password": true, "secret": true, "client_secret": true, "access_token": true,
	"refresh_token": true, "token": true, "bearer": true, "cookie": true,
}

// secretValue reports whether a string looks like a credential whatever its
// field is called.
func secretValue(s string) bool {
	return strings.HasPrefix(s, "sk-") || strings.HasPrefix(strings.ToLower(s), "bearer ")
}

// redactSettings checks that settings is a JSON object (empty means {}) and
// returns it with secret-looking values replaced. Settings without any are
// returned byte for byte.
func redactSettings(settings json.RawMessage) (json.RawMessage, error) {
	settings = bytes.TrimSpace(settings)
	if len(settings) == 0 {
		return json.RawMessage("{}"), nil
	}
	var v any
	if err := json.Unmarshal(settings, &v); err != nil {
		return nil, badInput("settings are not JSON: %v", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, badInput("settings: want a JSON object, got %s", kind(settings))
	}
	if !scrub(v) {
		return settings, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, badInput("settings: %v", err)
	}
	return b, nil
}

// scrub redacts secrets in a decoded JSON value in place and reports whether
// it changed anything.
func scrub(v any) bool {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && s != "" && s != redacted && (secretNames[strings.ToLower(k)] || secretValue(s)) {
				x[k] = redacted
				changed = true
				continue
			}
			if secretNames[strings.ToLower(k)] && e != nil {
				if _, isString := e.(string); !isString {
					x[k] = redacted
					changed = true
					continue
				}
			}
			changed = scrub(e) || changed
		}
	case []any:
		for i, e := range x {
			if s, ok := e.(string); ok && secretValue(s) {
				x[i] = redacted
				changed = true
				continue
			}
			changed = scrub(e) || changed
		}
	}
	return changed
}
