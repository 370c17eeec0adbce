// Package config reads runnel's TOML config file and resolves it, with the
// command-line flags and the environment, into the Settings a session uses:
// provider, model, reasoning, timeouts, theme, and the tool sections
// ([[tools]], [[functions]], [[mcp_servers]]), which ToolSet turns into a
// tools.Config. It is the one place tool config is validated.
//
// Errors are one line each: file:line: key "…": what is wrong and what to
// do. Positions come from go-toml (DecodeError, StrictMissingError); a key
// whose type go-toml reports without a position is still named.
//
// Files: config.go reads and validates the file; settings.go resolves it
// with flags and environment into Settings (Resolve); apikey.go finds the
// API key; check.go checks single values (enumerations, base URLs, headers,
// environment variable names).
//
// Providers (providers.go, presets.go): [providers.NAME] tables and the
// built-in presets (openai, azure, openrouter, xai, groq, ollama, lmstudio,
// vllm, llamacpp); provider = "NAME" or --provider chooses one, and the
// older [provider] table is the one named "default". Profile describes one
// without running anything; Resolve picks one and reads its key.
//
// Keys (keys.go): the keymap — every action a key can be bound to, its
// mode and its keys in the "default" and "vi" presets — and the [keys]
// table that picks a preset and rebinds actions; a conflict in one mode, an
// unknown action or a key that is not one is a file:line error. Config.
// Keymap is what the chat builds its bindings from; it knows no terminal
// library (key names are checked as text).
// MCP servers on the network (mcphttp.go): url, transport, headers and
// bearer_token_env are checked here; StartTools gives each its bearer
// token or its saved OAuth login (mcpauth, under Config.MCPAuthDir).
//
// It makes no HTTP request and starts no tool; the only program it runs is
// the chosen provider's api_key_command, whose text and output never appear
// in errors.
package config
