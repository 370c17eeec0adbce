package knob

// ReasoningEfforts are the reasoning efforts runnel accepts (config,
// --reasoning-effort, /effort), weakest first: every value of the Open
// Responses spec's ReasoningEffortEnum and its descriptions (none, minimal,
// low, medium, high, xhigh), plus max, which the current OpenAI API lists.
// Not every model takes every one; the server says so when it does not.
var ReasoningEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}

// ServiceTiers are the service_tier values runnel sends: priority (faster,
// dearer), flex (slower, cheaper), and the API's own default and auto.
var ServiceTiers = []string{"auto", "default", "flex", "priority"}

// Verbosities are the text.verbosity values.
var Verbosities = []string{"low", "medium", "high"}

// StateConversation is Settings.State for conversations mode.
const StateConversation = "conversation"

// DefaultResponseLimit is the most text one response may hold unless the
// config says otherwise (session.LimitKey): far more than any real answer, far less
// than what would strain memory.
const DefaultResponseLimit = 32 << 20
