//go:build race

package httppolicy_test

// allocSlack is how many times a bound a read may allocate: the race
// detector's instrumentation allocates beside the reads it watches.
const allocSlack = 8
