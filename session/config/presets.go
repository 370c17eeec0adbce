package config

// This file is the table of built-in providers: each server runnel knows by
// name, with the defaults that fit it. `provider = "ollama"` needs no other
// line; a [providers.NAME] table with a preset's name changes only the
// fields it writes.

// Preset is a built-in provider.
type Preset struct {
	Name    string
	BaseURL string // "" : the user gives it (azure: the resource URL)
	KeyEnv  string // the variable holding the key; "" : the server takes none
	// Store is what the server does with store: true when it keeps
	// responses, so previous_response_id chains turns; false when it keeps
	// nothing (every request carries the whole conversation).
	Store bool
	About string // one phrase for lists and completion
	// URLHint is the base_url to write when BaseURL is "".
	URLHint string
}

// presets are the built-in providers, in the order lists show them.
var presets = []Preset{
	{Name: "openai", BaseURL: "https://api.openai.com/v1", KeyEnv: "OPENAI_API_KEY", Store: true, About: "OpenAI"},
	{Name: "azure", KeyEnv: "AZURE_OPENAI_API_KEY", Store: true, About: "Azure OpenAI (your resource's URL)",
		URLHint: "https://RESOURCE.openai.azure.com/openai/v1"},
	{Name: "openrouter", BaseURL: "https://openrouter.ai/api/v1", KeyEnv: "OPENROUTER_API_KEY", About: "OpenRouter (keeps no state)"},
	{Name: "xai", BaseURL: "https://api.x.ai/v1", KeyEnv: "XAI_API_KEY", Store: true, About: "xAI"},
	{Name: "groq", BaseURL: "https://api.groq.com/openai/v1", KeyEnv: "GROQ_API_KEY", About: "Groq (keeps no state)"},
	{Name: "ollama", BaseURL: "http://localhost:11434/v1", About: "Ollama on this machine (no key, keeps no state)"},
	{Name: "lmstudio", BaseURL: "http://localhost:1234/v1", Store: true, About: "LM Studio on this machine (no key)"},
	{Name: "vllm", BaseURL: "http://localhost:8000/v1", About: "vLLM on this machine (no key; store off unless you set it)"},
	{Name: "llamacpp", BaseURL: "http://localhost:8080/v1", About: "llama.cpp's llama-server on this machine (no key, keeps no state)"},
}

// LookupPreset finds a built-in provider by name.
func LookupPreset(name string) (Preset, bool) {
	for _, p := range presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}
