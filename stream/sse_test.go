package stream

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

type frameSummary struct {
	Name, Data, ID string
	Retry          int
	Err            bool
}

func scanAll(r io.Reader, max int) ([]frameSummary, error) {
	sc := NewScanner(r)
	if max > 0 {
		sc.SetMaxEventSize(max)
	}
	var out []frameSummary
	for sc.Scan() {
		f := sc.Frame()
		out = append(out, frameSummary{f.Name, string(f.Data), f.ID, f.Retry, f.Err != nil})
	}
	return out, sc.Err()
}

// refScan is a deliberately simple reference implementation of the WHATWG
// rules (plus dispatch at EOF), used as an oracle.
func refScan(in string) []frameSummary {
	in = strings.TrimPrefix(in, "\ufeff")
	in = strings.ReplaceAll(in, "\r\n", "\n")
	in = strings.ReplaceAll(in, "\r", "\n")
	var out []frameSummary
	var name, id string
	var data []string
	retry, has := 0, false
	flush := func() {
		if has {
			out = append(out, frameSummary{name, strings.Join(data, "\n"), id, retry, false})
		}
		name, data, has = "", nil, false
	}
	for _, line := range strings.Split(in, "\n") {
		if line == "" {
			flush()
			continue
		}
		if line[0] == ':' {
			continue
		}
		f, v, ok := strings.Cut(line, ":")
		if ok {
			v = strings.TrimPrefix(v, " ")
		}
		switch f {
		case "data":
			data, has = append(data, v), true
		case "event":
			name = v
		case "id":
			if !strings.Contains(v, "\x00") {
				id = v
			}
		case "retry":
			if n, ok := atoiDigits([]byte(v)); ok {
				retry = n
			}
		}
	}
	flush()
	return out
}

func TestScannerFraming(t *testing.T) {
	cases := []struct {
		name, in string
		want     []frameSummary
	}{
		{"LF", "event: a\ndata: 1\n\ndata: 2\n\n", []frameSummary{{Name: "a", Data: "1"}, {Data: "2"}}},
		{"CRLF", "event: a\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n", []frameSummary{{Name: "a", Data: "1"}, {Data: "2"}}},
		{"CR", "event: a\rdata: 1\r\rdata: 2\r\r", []frameSummary{{Name: "a", Data: "1"}, {Data: "2"}}},
		{"BOM", "\ufeffdata: x\n\n", []frameSummary{{Data: "x"}}},
		{"no space after colon", "event:a\ndata:{\"k\":1}\n\n", []frameSummary{{Name: "a", Data: `{"k":1}`}}},
		{"two spaces keep one", "data:  x\n\n", []frameSummary{{Data: " x"}}},
		{"comments", ": OPENROUTER PROCESSING\n\n:hi\ndata: x\n\n", []frameSummary{{Data: "x"}}},
		{"multi-line data", "data: a\ndata: b\ndata:\n\n", []frameSummary{{Data: "a\nb\n"}}},
		{"last event at EOF", "data: a\n\ndata: b", []frameSummary{{Data: "a"}, {Data: "b"}}},
		{"DONE", "data: {}\n\ndata: [DONE]\n\n", []frameSummary{{Data: "{}"}, {Data: "[DONE]"}}},
		{"id and retry", "id: 7\nretry: 1500\ndata: a\n\ndata: b\n\n", []frameSummary{{Data: "a", ID: "7", Retry: 1500}, {Data: "b", ID: "7", Retry: 1500}}},
		{"bad retry ignored", "retry: 1x\ndata: a\n\n", []frameSummary{{Data: "a"}}},
		{"event without data is dropped", "event: ping\n\ndata: a\n\n", []frameSummary{{Data: "a"}}},
		{"field without colon", "data\n\n", []frameSummary{{Data: ""}}},
		{"unknown fields ignored", "foo: bar\ndata: a\n\n", []frameSummary{{Data: "a"}}},
		{"blank lines only", "\n\n\r\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(c.in), iotest.OneByteReader(strings.NewReader(c.in))} {
				got, err := scanAll(r, 0)
				if err != nil {
					t.Fatal(err)
				}
				if !equalFrames(got, c.want) {
					t.Errorf("got %+v\nwant %+v", got, c.want)
				}
			}
			if ref := refScan(c.in); !equalFrames(ref, c.want) {
				t.Errorf("reference disagrees: %+v", ref)
			}
		})
	}
}

func equalFrames(a, b []frameSummary) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestScannerByteAtATime: every fixture scans the same whole, one byte at a
// time, and with its line endings rewritten to CRLF or CR. Under -short
// the four rewritten readings take one fixture in three (as sweptStreams);
// every fixture is still scanned whole against the reference parser.
func TestScannerByteAtATime(t *testing.T) {
	t.Parallel() // a sweep of every recorded stream; it shares nothing
	for i, path := range fixtures(t) {
		data, _ := os.ReadFile(path)
		whole, err := scanAll(bytes.NewReader(data), 0)
		if err != nil || len(whole) == 0 {
			t.Fatalf("%s: %v, %d frames", path, err, len(whole))
		}
		if ref := refScan(string(data)); !equalFrames(whole, ref) {
			t.Errorf("%s: differs from the reference parser", path)
		}
		if testing.Short() && i%3 != 0 {
			continue
		}
		one, _ := scanAll(iotest.OneByteReader(bytes.NewReader(data)), 0)
		half, _ := scanAll(iotest.HalfReader(bytes.NewReader(data)), 0)
		crlf, _ := scanAll(bytes.NewReader(bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))), 0)
		cr, _ := scanAll(iotest.OneByteReader(bytes.NewReader(bytes.ReplaceAll(data, []byte("\n"), []byte("\r")))), 0)
		for name, got := range map[string][]frameSummary{"one byte": one, "half": half, "CRLF": crlf, "CR": cr} {
			if !equalFrames(whole, got) {
				t.Errorf("%s: %s reading differs (%d vs %d frames)", path, name, len(got), len(whole))
			}
		}
	}
}

func TestScannerOffsets(t *testing.T) {
	in := ": c\n\ndata: a\n\nevent: x\ndata: b\n\n"
	sc := NewScanner(strings.NewReader(in))
	var offs []int64
	var nums []int
	for sc.Scan() {
		offs = append(offs, sc.Frame().Offset)
		nums = append(nums, sc.Frame().Num)
	}
	if len(offs) != 2 || offs[0] != int64(strings.Index(in, "data: a")) || offs[1] != int64(strings.Index(in, "event: x")) {
		t.Errorf("offsets %v", offs)
	}
	if nums[0] != 1 || nums[1] != 2 {
		t.Errorf("nums %v", nums)
	}
}

// TestScannerLargeEvents: a 16 MiB event is accepted; one over the limit is
// reported and skipped without holding it in memory, and the next event is
// read normally.
func TestScannerLargeEvents(t *testing.T) {
	big := strings.Repeat("x", 16<<20)
	in := "data: " + big + "\n\ndata: after\n\n"
	got, err := scanAll(strings.NewReader(in), 0)
	if err != nil || len(got) != 2 || len(got[0].Data) != 16<<20 || got[1].Data != "after" {
		t.Fatalf("16 MiB event: err %v, %d frames", err, len(got))
	}
	sc := NewScanner(strings.NewReader("data: " + strings.Repeat("y", 4096) + "\ndata: more\n\ndata: after\n\n"))
	sc.SetMaxEventSize(1024)
	if !sc.Scan() || !errors.Is(sc.Frame().Err, ErrEventTooLarge) {
		t.Fatalf("oversized event not reported: %+v", sc.Frame())
	}
	if !sc.Scan() || string(sc.Frame().Data) != "after" {
		t.Fatalf("event after the oversized one: %+v", sc.Frame())
	}
	if sc.Scan() {
		t.Error("extra frame")
	}
	if cap(sc.buf) > 64<<10 || cap(sc.data) > 2048 {
		t.Errorf("oversized event grew buffers: buf %d data %d", cap(sc.buf), cap(sc.data))
	}
}

func TestScannerReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("data: a\n\ndata: b"), iotest.ErrReader(boom))
	got, err := scanAll(r, 0)
	if !errors.Is(err, boom) {
		t.Errorf("err %v", err)
	}
	if len(got) != 2 || got[1].Data != "b" {
		t.Errorf("frames %+v: the pending event must still be dispatched", got)
	}
}

func FuzzScanner(f *testing.F) {
	for _, s := range []string{"data: a\n\n", "event: x\r\ndata: y\r\n\r\n", "\ufeffdata:z\r\r", ":c\ndata\n\n", "id: 1\nretry: 5\n"} {
		f.Add([]byte(s))
	}
	if files, err := fixtureSeeds(); err == nil {
		for _, b := range files {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, _ := scanAll(iotest.HalfReader(bytes.NewReader(in)), 0)
		if !bytes.HasPrefix(in, []byte{0xef}) || bytes.HasPrefix(in, []byte("\ufeff")) {
			if ref := refScan(string(in)); !equalFrames(got, ref) {
				t.Errorf("differs from reference:\n got %+v\nwant %+v", got, ref)
			}
		}
	})
}

// TestScannerLongLinesInPieces: lines longer than the buffer, with every
// kind of ending, read in pieces of every size (a line ending split from
// its line, a CR from its LF), give the reference's events.
func TestScannerLongLinesInPieces(t *testing.T) {
	var in strings.Builder
	endings := []string{"\n", "\r\n", "\r"}
	for i := range 12 {
		end := endings[i%3]
		n := []int{10, 40 << 10, 70 << 10, 150 << 10}[i%4]
		in.WriteString("event: e" + strconv.Itoa(i) + end)
		in.WriteString("data: " + strings.Repeat(string(rune('a'+i)), n) + end)
		in.WriteString("data: " + strings.Repeat("z", i) + end + end)
	}
	want := refScan(in.String())
	for _, piece := range []int{1 << 10, 4093, 16 << 10, 64 << 10, 100 << 10} {
		got, err := scanAll(&pieces{r: strings.NewReader(in.String()), n: piece}, 0)
		if err != nil || !equalFrames(got, want) {
			t.Errorf("read %d bytes at a time: %d events (err %v), want %d, or they differ", piece, len(got), err, len(want))
		}
	}
}

// pieces reads at most n bytes at a time, n/2 and n+1/2 in turns.
type pieces struct {
	r   io.Reader
	n   int
	odd bool
}

func (p *pieces) Read(b []byte) (int, error) {
	p.odd = !p.odd
	n := p.n / 2
	if p.odd {
		n = p.n - n
	}
	return p.r.Read(b[:min(len(b), max(n, 1))])
}
