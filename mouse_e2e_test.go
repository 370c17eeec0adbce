package main

// End-to-end test of the mouse: SGR 1006 events sent into a tmux pane
// select and copy the markdown source of an answer (read back from the
// OSC 52 bytes runnel writes to the pty), a click copies a code block,
// and f2 hands the mouse to the terminal.

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"runnel/stream/streamtest"
)

const mouseAnswer = "Before the **fence**, a paragraph long enough to wrap at a hundred columns, with `inline code` and a [link](https://example.com/docs) in it.\n\n" +
	"```go\nfunc main() {\n\tprintln(\"hello\")\n}\n```\n\nAfter it."

// mouseSGR is the SGR 1006 mouse report of button b at 0-based cell (x, y);
// release ends it with 'm'.
func mouseSGR(b, x, y int, release bool) string {
	end := "M"
	if release {
		end = "m"
	}
	return fmt.Sprintf("\x1b[<%d;%d;%d%s", b, x+1, y+1, end)
}

// cellOn is the 0-based cell of the first s on the screen.
func cellOn(t *testing.T, screen, s string) (x, y int) {
	t.Helper()
	for y, row := range strings.Split(screen, "\n") {
		if i := strings.Index(row, s); i >= 0 {
			return len([]rune(row[:i])), y
		}
	}
	t.Fatalf("%q is not on screen:\n%s", s, screen)
	return 0, 0
}

// osc52 is every OSC 52 payload in the pty recording at path, decoded.
func osc52(t *testing.T, path string) []string {
	t.Helper()
	data, _ := os.ReadFile(path)
	var out []string
	for _, m := range osc52RE.FindAllSubmatch(data, -1) {
		b, err := base64.StdEncoding.DecodeString(string(m[1]))
		if err != nil {
			t.Fatalf("OSC 52 payload %q: %v", m[1], err)
		}
		out = append(out, string(b))
	}
	return out
}

func TestChatMouseCopiesTheSource(t *testing.T) {
	t.Parallel()
	srv := streamtest.New(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_m", chunks(mouseAnswer, 40)...)})
	p := chatPane(t, srv)
	raw := filepath.Join(t.TempDir(), "pty.out")
	p.tmux("pipe-pane", "-o", "-t", "t", "cat >> "+shellQuote(raw))
	p.say("mouse test")
	s := p.waitFor("the turn to end", func(s string) bool {
		return strings.Contains(s, "After it.") && strings.Contains(lastLines(s, 3), "ready")
	})
	copies := func(n int) []string {
		p.waitFor(fmt.Sprintf("%d OSC 52 copies on the pty", n), func(string) bool { return len(osc52(t, raw)) >= n })
		return osc52(t, raw)
	}

	// a drag from "fence" on the first row to "inline" on the next copies
	// the source between: markers and the soft wrap as written
	x0, y0 := cellOn(t, s, "fence")
	x1, y1 := cellOn(t, s, "code")
	p.text(mouseSGR(0, x0, y0, false) + mouseSGR(32, x1+3, y1, false) + mouseSGR(0, x1+3, y1, true))
	got := copies(1)
	want := mouseAnswer[strings.Index(mouseAnswer, "fence") : strings.Index(mouseAnswer, "code`")+4]
	if got[0] != want {
		t.Errorf("drag copied %q, want %q", got[0], want)
	}

	// a click on the code block copies its code
	x, y := cellOn(t, s, "println")
	p.text(mouseSGR(0, x, y, false) + mouseSGR(0, x, y, true))
	if got := copies(2); got[1] != "func main() {\n    println(\"hello\")\n}" {
		t.Errorf("a click on the code copied %q", got[1])
	}

	// f2: the terminal has the mouse; a drag copies nothing
	p.keys("F2")
	p.waitFor("the status line to say mouse off", func(s string) bool { return strings.Contains(lastLines(s, 2), "mouse off") })
	p.text(mouseSGR(0, x0, y0, false) + mouseSGR(32, x1, y1, false) + mouseSGR(0, x1, y1, true))
	p.keys("F2")
	p.waitFor("the mouse back", func(s string) bool { return !strings.Contains(lastLines(s, 2), "mouse off") })
	p.text(mouseSGR(0, x, y, false) + mouseSGR(0, x, y, true))
	if got := copies(3); len(got) != 3 || got[2] != got[1] {
		t.Errorf("copies after f2 twice: %q (the one while off should not be there)", got)
	}
}
