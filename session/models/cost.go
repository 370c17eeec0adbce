package models

import (
	"runnel/stream"

	"fmt"
	"math"
)

// Usage is the token accounting cost and fill are computed from, as the
// Responses API reports it: Cached is part of Input and Reasoning is part
// of Output (output_tokens counts the reasoning tokens).
type Usage struct {
	Input, Cached, Output, Reasoning int64
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.Input + v.Input, u.Cached + v.Cached, u.Output + v.Output, u.Reasoning + v.Reasoning}
}

// Cost is what u cost on a model priced as i, in US dollars: uncached
// input at the input price, cached input at the cached price, and output
// (reasoning tokens included, since output_tokens counts them) at the
// output price. A model without a cached price (gpt-5-pro, o3-pro: no
// caching discount is published) prices cached tokens as input. ok is
// false when i has no input or output price: then there is no figure.
func (i Info) Cost(u Usage) (dollars float64, ok bool) {
	if !i.Priced() {
		return 0, false
	}
	cached := min(max(u.Cached, 0), max(u.Input, 0))
	cachedPrice := i.CachedInput
	if cachedPrice <= 0 {
		cachedPrice = i.Input
	}
	d := float64(max(u.Input, 0)-cached)*i.Input + float64(cached)*cachedPrice + float64(max(u.Output, 0))*i.Output
	return d / 1e6, true
}

// TierFactor is what a service tier costs against the standard prices:
// OpenAI prices priority processing at twice the standard rates and flex
// at half (input, cached input and output alike). Any other tier
// ("default", "auto", "", a server's own) is standard.
func TierFactor(tier string) float64 {
	switch tier {
	case "priority":
		return 2
	case "flex":
		return 0.5
	}
	return 1
}

// TierCost is Cost on the service tier the response ran on (TierFactor).
func (i Info) TierCost(u Usage, tier string) (dollars float64, ok bool) {
	d, ok := i.Cost(u)
	return d * TierFactor(tier), ok
}

// CacheShare is the share of input tokens read from the prompt cache, in
// percent rounded down; ok is false when no input was counted.
func CacheShare(u Usage) (percent int, ok bool) {
	if u.Input <= 0 {
		return 0, false
	}
	return int(min(max(u.Cached, 0), u.Input) * 100 / u.Input), true
}

// Fill is the share of the context window the last response used: its
// input plus output tokens over the window, in percent (rounded down, so
// 100 means full; it may pass 100 when the server counts differently).
// ok is false when the window is unknown or nothing was counted.
func (i Info) Fill(last Usage) (percent int, ok bool) {
	used := last.Input + last.Output
	if i.ContextWindow <= 0 || used <= 0 {
		return 0, false
	}
	return int(used * 100 / i.ContextWindow), true
}

// FormatCost writes dollars for the status line: "$0.0042", "$0.13",
// "$12.40". Below a hundredth of a cent it is "<$0.0001" unless zero.
func FormatCost(d float64) string {
	switch {
	case d == 0:
		return "$0.00"
	case d < 0.0001:
		return "<$0.0001"
	case d < 0.01:
		return fmt.Sprintf("$%.4f", d)
	case d < 1000:
		return fmt.Sprintf("$%.2f", d)
	default:
		return fmt.Sprintf("$%.0f", math.Round(d))
	}
}

// FromWire is a response's usage as Cost and Fill read it; nil is zero.
func FromWire(u *stream.Usage) Usage {
	if u == nil {
		return Usage{}
	}
	x := Usage{Input: u.InputTokens, Output: u.OutputTokens}
	if u.InputDetails != nil {
		x.Cached = u.InputDetails.CachedTokens
	}
	if u.OutputDetails != nil {
		x.Reasoning = u.OutputDetails.ReasoningTokens
	}
	return x
}
