package config

// This file is the [limits] table: the config's side of the one table of
// bounds on input (stream.BoundTable). Each key sets one bound; Bounds
// gives them all, defaults filled in, for stream.SetLimits.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"runnel/stream"
)

// validateLimits checks that every key of [limits] names a bound and sets
// it to at least its least value.
func validateLimits(limits map[string]int, at func(string) string) error {
	for _, k := range slices.Sorted(maps.Keys(limits)) {
		d, ok := stream.LookupBound(k)
		if !ok {
			keys := make([]string, 0, len(stream.BoundTable))
			for _, b := range stream.BoundTable {
				keys = append(keys, b.Key)
			}
			return fmt.Errorf("%s: key \"limits.%s\": no such limit (the limits are %s)", at("limits."+k), stream.SanitizeLine(k), strings.Join(keys, ", "))
		}
		if v := limits[k]; v < d.Min {
			return fmt.Errorf("%s: key \"limits.%s\": %d is too small (at least %d %s; the default is %d)", at("limits."+k), k, v, d.Min, d.Unit, d.Get(stream.DefaultBounds))
		}
	}
	return nil
}

// Bounds is every bound on input: the defaults, with what [limits] sets.
func (c Config) Bounds() stream.Bounds {
	b := stream.DefaultBounds
	for k, v := range c.Limits {
		if d, ok := stream.LookupBound(k); ok {
			d.Set(&b, v)
		}
	}
	return b
}
