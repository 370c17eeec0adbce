package models

import "regexp"

// Info is what runnel knows about one model. A zero field is unknown:
// ContextWindow 0 gives no context fill, Input or Output 0 gives no cost.
// Prices are US dollars per million tokens.
type Info struct {
	ContextWindow int64
	Input         float64 // per million input tokens
	CachedInput   float64 // per million cached input tokens; 0: unknown (see Cost)
	Output        float64 // per million output tokens, reasoning included
	Source        string  // where the figures came from: a URL, or the config file
	Date          string  // when they were read there (YYYY-MM), "" for the config
}

// Priced reports whether the model has input and output prices.
func (i Info) Priced() bool { return i.Input > 0 && i.Output > 0 }

// Sources of the built-in figures. The prices are OpenAI's "Standard" tier
// per million tokens; the context windows are each model's page.
const (
	pricingURL = "https://platform.openai.com/docs/pricing"
	modelsURL  = "https://platform.openai.com/docs/models/"
	readOn     = "2025-11"

	// The 2026 models' figures, as copied from OpenAI's pricing page by the
	// pages named (OpenAI's own pages are out of this build's reach): read
	// there in 2026-06. Check them against the pricing page.
	thirdParty2026 = "https://www.morphllm.com/openai-api-pricing (copy of " + pricingURL + ") ; https://nicolalazzari.ai/articles/openai-api-pricing-explained-2026"
	readOn2026     = "2026-06"
)

// builtin is the table of current OpenAI models. Every row names its
// source (the pricing page for the prices, the model's page for its context
// window) and the month the figures were read; README.md repeats it.
// Prices change: [models."NAME"] in the config overrides any row.
var builtin = map[string]Info{
	"gpt-5.5":           {1_000_000, 5.00, 0.50, 30.00, thirdParty2026, readOn2026},
	"gpt-5.5-pro":       {1_000_000, 30.00, 0, 180.00, thirdParty2026, readOn2026},
	"gpt-5.4":           {1_000_000, 2.50, 0.25, 15.00, thirdParty2026, readOn2026},
	"gpt-5.4-mini":      {1_000_000, 0.75, 0.075, 4.50, thirdParty2026, readOn2026},
	"gpt-5.4-nano":      {1_000_000, 0.20, 0.02, 1.25, thirdParty2026, readOn2026},
	"gpt-5.4-pro":       {1_000_000, 30.00, 0, 180.00, thirdParty2026, readOn2026},
	"gpt-5.2":           {400_000, 1.75, 0.175, 14.00, thirdParty2026 + " ; " + modelsURL + "gpt-5.2", readOn2026},
	"gpt-5":             {400_000, 1.25, 0.125, 10.00, pricingURL + " ; " + modelsURL + "gpt-5", readOn},
	"gpt-5-mini":        {400_000, 0.25, 0.025, 2.00, pricingURL + " ; " + modelsURL + "gpt-5-mini", readOn},
	"gpt-5-nano":        {400_000, 0.05, 0.005, 0.40, pricingURL + " ; " + modelsURL + "gpt-5-nano", readOn},
	"gpt-5-chat-latest": {128_000, 1.25, 0.125, 10.00, pricingURL + " ; " + modelsURL + "gpt-5-chat-latest", readOn},
	"gpt-5-codex":       {400_000, 1.25, 0.125, 10.00, pricingURL + " ; " + modelsURL + "gpt-5-codex", readOn},
	"gpt-5-pro":         {400_000, 15.00, 0, 120.00, pricingURL + " ; " + modelsURL + "gpt-5-pro", readOn},
	"gpt-5.1":           {400_000, 1.25, 0.125, 10.00, pricingURL + " ; " + modelsURL + "gpt-5.1", readOn},
	"gpt-5.1-codex":     {400_000, 1.25, 0.125, 10.00, pricingURL + " ; " + modelsURL + "gpt-5.1-codex", readOn},
	"gpt-4.1":           {1_047_576, 2.00, 0.50, 8.00, pricingURL + " ; " + modelsURL + "gpt-4.1", readOn},
	"gpt-4.1-mini":      {1_047_576, 0.40, 0.10, 1.60, pricingURL + " ; " + modelsURL + "gpt-4.1-mini", readOn},
	"gpt-4.1-nano":      {1_047_576, 0.10, 0.025, 0.40, pricingURL + " ; " + modelsURL + "gpt-4.1-nano", readOn},
	"gpt-4o":            {128_000, 2.50, 1.25, 10.00, pricingURL + " ; " + modelsURL + "gpt-4o", readOn},
	"gpt-4o-mini":       {128_000, 0.15, 0.075, 0.60, pricingURL + " ; " + modelsURL + "gpt-4o-mini", readOn},
	"o3":                {200_000, 2.00, 0.50, 8.00, pricingURL + " ; " + modelsURL + "o3", readOn},
	"o3-pro":            {200_000, 20.00, 0, 80.00, pricingURL + " ; " + modelsURL + "o3-pro", readOn},
	"o4-mini":           {200_000, 1.10, 0.275, 4.40, pricingURL + " ; " + modelsURL + "o4-mini", readOn},
	"o3-mini":           {200_000, 1.10, 0.55, 4.40, pricingURL + " ; " + modelsURL + "o3-mini", readOn},
	"o1":                {200_000, 15.00, 7.50, 60.00, pricingURL + " ; " + modelsURL + "o1", readOn},
}

// Override is one [models."NAME"] entry of the config: each set field
// replaces the built-in figure (or gives one for a model the table lacks).
// nil is "not set".
type Override struct {
	ContextWindow    *int64
	InputPrice       *float64
	CachedInputPrice *float64
	OutputPrice      *float64
}

// Table is the built-in table with the config's overrides applied. The zero
// Table is the built-in one.
//
// Invariant: entries is never mutated after NewTable returns, so a Table is
// safe to share and copy.
type Table struct {
	entries map[string]Info // nil: builtin
}

// NewTable is the built-in table with overrides applied; source names the
// config file for the entries it changes.
func NewTable(overrides map[string]Override, source string) Table {
	if len(overrides) == 0 {
		return Table{}
	}
	out := make(map[string]Info, len(builtin)+len(overrides))
	for k, v := range builtin {
		out[k] = v
	}
	for name, o := range overrides {
		in, _ := Table{}.Lookup(name) // a snapshot's entry starts from its base model's
		if o.ContextWindow != nil {
			in.ContextWindow = *o.ContextWindow
		}
		if o.InputPrice != nil {
			in.Input = *o.InputPrice
		}
		if o.CachedInputPrice != nil {
			in.CachedInput = *o.CachedInputPrice
		}
		if o.OutputPrice != nil {
			in.Output = *o.OutputPrice
		}
		in.Source, in.Date = source, ""
		out[name] = in
	}
	return Table{entries: out}
}

func (t Table) table() map[string]Info {
	if t.entries == nil {
		return builtin
	}
	return t.entries
}

// snapshot is a dated snapshot's suffix: -2025-08-07 or -20250807.
var snapshot = regexp.MustCompile(`-(\d{4}-\d{2}-\d{2}|\d{8})$`)

// Lookup finds what is known of a model. The rule: the exact name first
// (so a config entry for a snapshot wins), then, for a dated snapshot
// ("gpt-5-2025-08-07", "gpt-4o-20240806"), the name without its date. The
// match is case-sensitive and nothing else is tried: "gpt-5-turbo" is
// not gpt-5, and a provider prefix ("openai/gpt-5") is not stripped.
func (t Table) Lookup(model string) (Info, bool) {
	tab := t.table()
	if in, ok := tab[model]; ok {
		return in, true
	}
	if loc := snapshot.FindStringIndex(model); loc != nil && loc[0] > 0 {
		if in, ok := tab[model[:loc[0]]]; ok {
			return in, true
		}
	}
	return Info{}, false
}
