package stream

import (
	"os"
	"path/filepath"

	"runnel/stream/sharedtest"
)

// fixtureSeeds returns the real fixtures' bytes for seeding fuzz tests; the
// fuzzers still run (on their built-in seeds) when shared/ is absent.
func fixtureSeeds() ([][]byte, error) {
	dir, err := sharedtest.Find()
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "fixtures", "real", "*", "*.sse"))
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil && len(b) < 64<<10 {
			out = append(out, b)
		}
	}
	return out, nil
}

func mustRead(t interface{ Fatal(...any) }, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
