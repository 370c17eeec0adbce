package stream

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"testing"
	"time"

	"runnel/stream/sharedtest"
)

// largestFixtures returns the biggest real streams (the throughput corpus).
func largestFixtures(b *testing.B, n int) [][]byte {
	files := sharedtest.RealFiles(b)
	sort.Slice(files, func(i, j int) bool { return size(files[i]) > size(files[j]) })
	var out [][]byte
	for _, f := range files[:n] {
		out = append(out, mustRead(b, f))
	}
	return out
}

func size(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}

func decodeAccumulate(data []byte) int {
	var acc Accumulator
	d := NewDecoder(bytes.NewReader(data))
	for d.Next() {
		acc.Apply(d.Event())
	}
	acc.Finish()
	return len(acc.Responses())
}

// baseline: split the same SSE and json.Unmarshal each event's data into a
// map[string]any (what a naive client does, without even accumulating).
func mapBaseline(data []byte) int {
	n := 0
	sc := NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Frame().Data, &m) == nil {
			n++
		}
	}
	return n
}

// BenchmarkDecodeAccumulate measures decode + accumulate throughput on the
// five largest fixtures, and reports it as a ratio to the map baseline timed
// in the same run (x-baseline > 1 means faster than the baseline).
func BenchmarkDecodeAccumulate(b *testing.B) {
	corpus := largestFixtures(b, 5)
	total := 0
	for _, c := range corpus {
		total += len(c)
	}
	run := func(f func([]byte) int) time.Duration {
		start := time.Now()
		for _, c := range corpus {
			f(c)
		}
		return time.Since(start)
	}
	var ours, base time.Duration
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ours += run(decodeAccumulate)
		b.StopTimer()
		base += run(mapBaseline)
		b.StartTimer()
	}
	mb := float64(total) * float64(b.N) / 1e6
	b.ReportMetric(mb/ours.Seconds(), "MB/s-ours")
	b.ReportMetric(mb/base.Seconds(), "MB/s-baseline")
	b.ReportMetric(base.Seconds()/ours.Seconds(), "x-baseline")
}

// BenchmarkTextDelta reports allocations per text delta through decode and
// accumulate.
func BenchmarkTextDelta(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("data: " + created + "\n\n")
	buf.WriteString("data: " + msgAdded(0, "msg_1") + "\n\n")
	const n = 1000
	for i := 0; i < n; i++ {
		buf.WriteString("data: " + textDelta(i+2, 0, "msg_1", "word ") + "\n\n")
	}
	data := buf.Bytes()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		decodeAccumulate(data)
	}
	b.StopTimer()
	var ms0, ms1 = testingAllocs(func() { decodeAccumulate(data) })
	_ = ms0
	b.ReportMetric(ms1/n, "allocs/delta")
}

func testingAllocs(f func()) (float64, float64) {
	return 0, testing.AllocsPerRun(5, f)
}
