package cite

import (
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf8"

	"runnel/stream"
)

// TestWindowMarksAsOfDoes: the marks Window finds in the unwritten tail of
// a text, shifted by the code points already written, are those Of finds
// in the whole text.
func TestWindowMarksAsOfDoes(t *testing.T) {
	a := "([a.example](https://a.example/p?utm_source=x))"
	b := "([b.example](https://b.example/?id=2&utm_medium=y))"
	p1 := "Prémier point. "
	p2 := p1 + a + "\n\nSecond "
	text := p2 + b + " end."
	runes := utf8.RuneCountInString
	ann := func(start, end int, url string) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"type":"url_citation","start_index":%d,"end_index":%d,"url":%q,"title":"t"}`, start, end, url))
	}
	parts := []stream.Part{{Type: "output_text", Text: text, Annotations: []json.RawMessage{
		ann(runes(p1), runes(p1+a), "https://a.example/p?utm_source=x"),
		ann(runes(p2), runes(p2+b), "https://b.example/?id=2&utm_medium=y"),
	}}}
	whole := Of(parts).Marked(text, Plain(false))
	if want := "Prémier point. [1]\n\nSecond [2] end."; whole != want {
		t.Fatalf("Of: got %q, want %q", whole, want)
	}
	cut := len("Prémier point. ([a.example](https://a.example/p?utm_source=x))\n\n")
	head := Window(parts, text[:cut], 0).Marked(text[:cut], Plain(false))
	tail := Window(parts, text[cut:], runes(text[:cut])).Marked(text[cut:], Plain(false))
	if head+tail != whole {
		t.Errorf("Window: got %q, want %q", head+tail, whole)
	}
	if got := Of(parts).Sources[1].URL; got != "https://b.example/?id=2" {
		t.Errorf("source URL %q keeps its tracking parameter", got)
	}
}

func TestDropTrackingIn(t *testing.T) {
	for in, want := range map[string]string{
		"see https://a.example/x?utm_source=openai.":                "see https://a.example/x.",
		"[s](https://a.example/?q=1&UTM_medium=m#top) and more":     "[s](https://a.example/?q=1#top) and more",
		"no urls, utm_source=x stays":                               "no urls, utm_source=x stays",
		"<https://b.example/?utm_source=a&utm_campaign=b&keep=yes>": "<https://b.example/?keep=yes>",
	} {
		if got := DropTrackingIn(in); got != want {
			t.Errorf("DropTrackingIn(%q) = %q, want %q", in, got, want)
		}
	}
}
