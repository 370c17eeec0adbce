package markdown

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"charm.land/glamour/v2/styles"

	"runnel/theme"
)

// TestTrimPaddingKeepsVisibleText compares trimmed glamour output with the
// raw output row by row: same visible text up to trailing spaces, far fewer
// bytes, and a reset closing every row that used SGR.
func TestRenderHasNoBlankEdges(t *testing.T) {
	r := newTestRenderer(t, styles.DarkStyleConfig, 60)
	for _, src := range []string{"", "a", "```\ncode\n```", "- x\n- y\n\n", "\n\n# H\n\n"} {
		out, err := r.Render(src)
		if err != nil {
			t.Fatalf("Render(%q): %v", src, err)
		}
		if strings.HasPrefix(out, "\n") || strings.HasSuffix(out, "\n") {
			t.Errorf("Render(%q) = %q: blank edge rows", src, out)
		}
	}
}

func TestWidthBelowMinimumIsRaised(t *testing.T) {
	r := newTestRenderer(t, styles.NoTTYStyleConfig, 3)
	if r.width != MinWidth {
		t.Errorf("width %d, want %d", r.width, MinWidth)
	}
}

// TestLightAfterDarkKeepsItsCodeColours guards against glamour registering
// every palette's code colours under one name (render study §5).
func TestLightAfterDarkKeepsItsCodeColours(t *testing.T) {
	const code = "```go\nfunc main() { return 42 }\n```"
	dark := newTestRenderer(t, theme.New(theme.Dark()).Glamour(), 60)
	light := newTestRenderer(t, theme.New(theme.Light()).Glamour(), 60)
	d, err := dark.Render(code)
	if err != nil {
		t.Fatal(err)
	}
	l, err := light.Render(code)
	if err != nil {
		t.Fatal(err)
	}
	if d == l {
		t.Errorf("dark and light code blocks render identically: %q", d)
	}
}

// TestRendererIsSafeForConcurrentUse runs whole renders (as the final render
// does, in a tea.Cmd) beside a stream using the same renderer, while new
// renderers with other code colours are made. Run with -race to check.
func TestRendererIsSafeForConcurrentUse(t *testing.T) {
	r := newTestRenderer(t, theme.New(theme.Dark()).Glamour(), 72)
	doc := genAnswer(2 << 10)
	code := "```go\nfunc main() {}\n```"
	want, err := r.Render(doc)
	if err != nil {
		t.Fatal(err)
	}
	registered := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if _, err := r.Render(code); err != nil {
					t.Errorf("concurrent Render: %v", err)
				}
				select {
				case <-registered:
					if got, err := r.Render(doc); err != nil || got != want {
						t.Errorf("concurrent Render differs (err %v)", err)
					}
					return
				default:
				}
			}
		}()
	}
	// Renderers with other code colours are made while those renders run.
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(registered)
		for i := 0; i < 20; i++ {
			style := theme.New(theme.Light()).Glamour()
			chroma := *style.CodeBlock.Chroma
			colour := fmt.Sprintf("#0102%02x", i)
			chroma.Text.Color = &colour
			style.CodeBlock.Chroma = &chroma
			if _, err := NewRenderer(style, 50); err != nil {
				t.Errorf("NewRenderer: %v", err)
			}
		}
	}()
	s := NewStream(r)
	for _, d := range chunks(doc) {
		s.Append(d)
		_ = s.View()
	}
	wg.Wait()
	if diff := diffVisible(s.View(), want); diff != "" {
		t.Error(diff)
	}
}
