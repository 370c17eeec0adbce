package store

import (
	"fmt"
	"strings"
	"testing"

	"runnel/stream/costtest"
)

func TestPlainMarkdown(t *testing.T) {
	for in, want := range map[string]string{
		"## The plan ##":                         "The plan",
		"**Bold** and *em* and __strong__ _e_":   "Bold and em and strong e",
		"~~gone~~ `code *here*` ``a`b``":         "gone code *here* a`b",
		"see [the docs](https://x.dev/a_b) now":  "see the docs now",
		"![a cat](cat.png) [ref][1] <https://x>": "a cat ref https://x",
		"> quoted **text**":                      "quoted text",
		"- [x] done item":                        "done item",
		"* star bullet":                          "star bullet",
		"1. numbered stays":                      "1. numbered stays",
		"| a | **b** |\n|---|:-:|\n| 1 | 2 |":    "a  b\n1  2",
		"snake_case and 2*3 and a * b":           "snake_case and 2*3 and a * b",
		"escaped \\*stars\\* stay":               "escaped *stars* stay",
		"```go\nx := a*b\n```\nafter":            "x := a*b\nafter",
		"---\ntext":                              "text",
		"cut off [link](https://exa":             "cut off link",
		"cut **bold that never":                  "cut bold that never",
		"plain text":                             "plain text",
	} {
		if got := plainMarkdown(in); got != want {
			t.Errorf("plainMarkdown(%q) = %q, want %q", in, got, want)
		}
	}
	// snippet marks stay around the matched words
	in := "## " + markOpen + "Heading" + markClose + " with **" + markOpen + "bold" + markClose + "** [" + markOpen + "link" + markClose + "](u)"
	got, marks := parseSnippet(plainMarkdown(in))
	if got != "Heading with bold link" || len(marks) != 3 || got[marks[1].Start:marks[1].End] != "bold" || got[marks[2].Start:marks[2].End] != "link" {
		t.Errorf("snippet %q marks %v", got, marks)
	}
}

// TestPreviewsAndSnippetsArePlain: the session list's preview and search
// snippets show an answer's words without its markdown syntax.
func TestPreviewsAndSnippetsArePlain(t *testing.T) {
	db, _ := openTest(t)
	sid := newSession(t, db, `{}`)
	tid := must[TurnID](t)(db.BeginTurn(sid, "plan it", nil, ""))
	answer := "```text\n```\n## The **zebra** plan\n\n- feed the [zebra](https://zoo.example/z) `hay`\n"
	check(t, db.SaveItems(tid, []ItemWrite{{Raw: msg("m1", answer), Done: true}}))
	check(t, db.FinishTurn(tid, TurnEnd{Status: StatusCompleted, ResponseIDs: []string{"r"}}))
	list := must[[]SessionInfo](t)(db.List(0))
	if len(list) != 1 || list[0].Preview != "The zebra plan" {
		t.Errorf("preview %q, want plain text", list[0].Preview)
	}
	hits := must[[]Hit](t)(db.Search("zebra", 0))
	if len(hits) != 1 || strings.ContainsAny(hits[0].Snippet, "#*[]()`") || !strings.Contains(hits[0].Snippet, "feed the zebra hay") {
		t.Fatalf("snippet %+v, want plain text", hits)
	}
	for _, m := range hits[0].Marks {
		if w := hits[0].Snippet[m.Start:m.End]; !strings.EqualFold(w, "zebra") {
			t.Errorf("mark covers %q", w)
		}
	}
	// a preview stored in markdown by an older runnel reads as plain text
	_, err := db.w.Exec(`UPDATE sessions SET preview = ? WHERE id = ?`, "**Old** `style`", string(sid))
	check(t, err)
	if list := must[[]SessionInfo](t)(db.List(0)); list[0].Preview != "Old style" {
		t.Errorf("stored preview read as %q", list[0].Preview)
	}
}

// TestPlainMarkdownLinear: lines of unmatched openers (a hostile answer)
// are made plain in linear time: 64 KB of them costs at most 20 times 8 KB
// (linear is 8, quadratic 64), timed in the same run; and a preview reads
// only the lines it needs. Under -short the lines are half as long
// (32 KB against 4 KB: "![" still takes tens of ms at 32 KB, and costtest
// repeats the smaller to the same span), and every other opener; the
// full run times them all at 64 KB.
func TestPlainMarkdownLinear(t *testing.T) {
	huge := "first line\n" + strings.Repeat("[", 1<<20)
	if got := previewLine(huge); got != "first line" {
		t.Errorf("preview %q", got)
	}
	costtest.SkipIfRace(t)
	small, big := 8<<10, 64<<10
	if testing.Short() {
		small, big = small/2, big/2
	}
	for i, c := range []string{"[", "<", "`", "``` `", "![", "*a"} {
		if testing.Short() && i%2 != 0 {
			continue // -short: every other opener
		}
		plain := func(n int) costtest.Work {
			line := strings.Repeat(c, n/len(c))
			return costtest.Func(func() {
				if got := plainMarkdown(line); len(got) > len(line) {
					t.Fatalf("%q: grew to %d bytes", c, len(got))
				}
			})
		}
		costtest.AtMost(t, fmt.Sprintf("%q: %d KB made plain, against %d KB", c, big>>10, small>>10), plain(small), plain(big), 20)
	}
}
