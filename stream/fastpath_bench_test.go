package stream

import (
	"bytes"
	"os"
	"testing"
	"time"

	"runnel/stream/sharedtest"
)

// realDeltaPayloads returns the JSON payload of every delta event in the
// real recorded streams.
func realDeltaPayloads(b *testing.B) [][]byte {
	var out [][]byte
	for _, f := range sharedtest.RealFiles(b) {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		sc := NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			fr := sc.Frame()
			var ev Event
			if fr.Err != nil || DecodeEvent(fr.Name, fr.Data, &ev) != nil || !ev.Kind.IsDelta() {
				continue
			}
			out = append(out, append([]byte(nil), fr.Data...))
		}
	}
	if len(out) == 0 {
		b.Fatal("no delta events in the real fixtures")
	}
	return out
}

// BenchmarkFastPath decodes the delta events of the real fixtures as
// Decoder.Next does (the fast path, falling back to DecodeEvent when it
// declines) and, timed in the same run, through DecodeEvent alone. It
// reports general/fast: the fast path earns its keep only at ≥ 2.
func BenchmarkFastPath(b *testing.B) {
	payloads := realDeltaPayloads(b)
	accepted := 0
	for _, p := range payloads {
		var ev Event
		if fastDecode(p, &ev, "") {
			accepted++
		}
	}
	var ev Event
	var fast, general time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		last := ""
		for _, p := range payloads {
			if !fastDecode(p, &ev, last) {
				DecodeEvent("", p, &ev)
			}
			last = ev.ItemID
		}
		fast += time.Since(start)
		b.StopTimer()
		start = time.Now()
		for _, p := range payloads {
			DecodeEvent("", p, &ev)
		}
		general += time.Since(start)
		b.StartTimer()
	}
	n := float64(b.N) * float64(len(payloads))
	b.ReportMetric(float64(fast.Nanoseconds())/n, "ns/delta-fast")
	b.ReportMetric(float64(general.Nanoseconds())/n, "ns/delta-general")
	b.ReportMetric(general.Seconds()/fast.Seconds(), "general/fast")
	b.ReportMetric(float64(accepted)/float64(len(payloads)), "accepted")
}
