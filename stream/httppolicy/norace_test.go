//go:build !race

package httppolicy_test

// allocSlack is how many times a bound a read may allocate: io.ReadAll's
// doublings, never the ten bounds the server sends.
const allocSlack = 4
