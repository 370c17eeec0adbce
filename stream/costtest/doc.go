// Package costtest compares what two pieces of work cost, timed in the same
// run, for the tests that guard a cost: a frame that must not grow with the
// open block, a render that must stay linear in its input. A test names a
// baseline and the work it guards, and a bound on their ratio; a quadratic
// (8 times the input costs 64 times, where linear is 8) fails the test
// instead of only slowing the suite.
//
// Costs are timed on the CPU clock of the test's thread where there is one
// (Linux: Now), so a preempted time slice is not counted at all; a Work
// that times part of each run reads Now and Since.
//
// One shared machine is noisy (garbage collection, scheduling, other
// processes), and a baseline of a millisecond is mostly noise, so Measure
// runs the garbage collector before each sample, repeats the work in a
// sample until it has taken as long as one run of the dearer side (at
// least MinSample, tens of milliseconds, at most MaxSample), takes the baseline's and the work's
// samples in turns, and keeps the least of several samples of each (3 to
// 15: as many as fit in RoundsBudget, half that under -short). Over its bound, AtMost takes as
// many samples again into the least before it fails a test.
//
// It does not decide which tests are timed: a test that should not time
// under the race detector (which slows code unevenly) calls SkipIfRace.
// It imports nothing of runnel and is imported only by tests.
package costtest
