package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/sharedtest"
)

// TestReplayWritesImagesOnlyWhenAsked: `replay --format ansi` of a stream
// with a generated image writes nothing (not in TMPDIR, not in the data
// directory) and its panel says how to ask; with --save-images the image
// lands in <data-dir>/images and the panel shows the path.
func TestReplayWritesImagesOnlyWhenAsked(t *testing.T) {
	f := sharedtest.Real(t, "vercel__ai/azure-image-generation-with-text.sse")
	tmp, data := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	out, stderr, code := runnel(t, "", "replay", f, "--format", "ansi", "--width", "200", "--data-dir", data)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "image not saved: run with --save-images to write it to "+filepath.Join(data, "images")) {
		t.Errorf("the panel does not say the image was not saved:\n%s", out)
	}
	for _, dir := range []string{tmp, data} {
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("replay without --save-images wrote into %s: %v", dir, entries)
		}
	}

	out, stderr, code = runnel(t, "", "replay", f, "--format", "ansi", "--width", "200", "--data-dir", data, "--save-images")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	saved, _ := filepath.Glob(filepath.Join(data, "images", "*.png"))
	if len(saved) == 0 {
		t.Fatal("--save-images wrote no image")
	}
	for _, p := range saved {
		if !strings.Contains(out, p) {
			t.Errorf("the panel does not show %s:\n%s", p, out)
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("images went to TMPDIR: %v", entries)
	}

	// The formats without panels write the final image and say where.
	_, stderr, _ = runnel(t, "", "replay", f, "--format", "markdown", "--data-dir", data, "--save-images")
	if !strings.Contains(stderr, "runnel: image saved: "+filepath.Join(data, "images")) {
		t.Errorf("markdown --save-images: %q", stderr)
	}
	_, stderr, _ = runnel(t, "", "replay", f, "--format", "json", "--data-dir", data)
	if strings.Contains(stderr, "image") {
		t.Errorf("json without --save-images mentions an image: %q", stderr)
	}
}
