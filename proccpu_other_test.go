//go:build !linux

package main

import (
	"testing"
	"time"
)

// The chat's latency tests time runnel's CPU through /proc (see
// proccpu_linux_test.go); elsewhere they skip.

func cpuOf(t *testing.T, pid int) time.Duration {
	t.Skip("times the chat's CPU through /proc: Linux only")
	return 0
}

func waitedCPUOf(t *testing.T, pid int) time.Duration {
	t.Skip("times the chat's CPU through /proc: Linux only")
	return 0
}
