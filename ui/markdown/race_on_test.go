//go:build race

package markdown

// raceOn: the race detector slows code unevenly, so tests that compare
// timings skip under it (CI times them in the plain run).
const raceOn = true
