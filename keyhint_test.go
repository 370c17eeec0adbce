package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRejectedKeyNamesTheProvidersKey: a 401 names the provider's own key
// variable or command, never a fixed OPENAI_API_KEY.
func TestRejectedKeyNamesTheProvidersKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`))
	}))
	defer srv.Close()
	for _, tt := range []struct{ name, doc, want string }{
		{"env", "provider = \"fake\"\n[providers.fake]\nbase_url = \"" + srv.URL + "/v1\"\napi_key_env = \"FAKE_KEY\"\n", `check $FAKE_KEY (provider "fake"'s key)`},
		{"command", "provider = \"fake\"\n[providers.fake]\nbase_url = \"" + srv.URL + "/v1\"\napi_key_command = [\"echo\", \"sk-bad\"]\n", `check providers.fake.api_key_command (provider "fake")`},
		{"default", "[provider]\nbase_url = \"" + srv.URL + "/v1\"\n", "check $OPENAI_API_KEY (or api_key_env / api_key_command in config)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := providerConfig(t, tt.doc)
			t.Setenv("FAKE_KEY", "sk-bad")
			t.Setenv("OPENAI_API_KEY", "sk-bad")
			_, errOut, code := runnel(t, "", "--config", cfg, "--no-save", "-p", "hi")
			if code == 0 || !strings.Contains(errOut, "401 Unauthorized: the server rejected the API key") || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q, want %q", code, errOut, tt.want)
			}
			if tt.name != "default" && strings.Contains(errOut, "OPENAI_API_KEY") {
				t.Errorf("names OPENAI_API_KEY for another provider: %q", errOut)
			}
		})
	}
}

// TestOverrideOfAnotherProviderRefused: with provider = "fake", -c
// provider.base_url=… would change nothing: one line and exit 2, nothing
// sent.
func TestOverrideOfAnotherProviderRefused(t *testing.T) {
	cfg := providerConfig(t, "provider = \"fake\"\n[providers.fake]\nbase_url = \"http://127.0.0.1:1/v1\"\n")
	_, errOut, code := runnel(t, "", "--config", cfg, "--no-save", "-c", "provider.base_url=http://127.0.0.1:2/v1", "-p", "hi")
	if code != 2 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "use -c providers.fake.base_url=…") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
