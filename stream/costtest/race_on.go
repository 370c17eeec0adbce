//go:build race

package costtest

// Race is whether the race detector is on.
const Race = true
