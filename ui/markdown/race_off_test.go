//go:build !race

package markdown

// raceOn: see race_on_test.go.
const raceOn = false
