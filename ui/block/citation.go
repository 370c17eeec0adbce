package block

import (
	"strconv"

	"runnel/stream/cite"
	"runnel/ui/markdown"
)

// The numbering of sources, the placing of markers and the cleaning of
// cited URLs are package cite's (shared with the exports and the plain
// output); the chat only chooses how a marker is written (markerText) and
// draws the Sources list (sourceRows).

// citations reads the annotations of a message's parts (cite.Of).
var citations = cite.Of

// markerText is the markdown of a marker: "[n]" (escaped, so markdown never
// takes it for a link), and for a cited URL a link that ui/markdown draws as
// that text alone, hyperlinked (markdown.CiteTitle). The URL is SafeURL's:
// no spaces, controls, angle brackets or backslashes.
func markerText(n int, url string) string {
	text := `\[` + strconv.Itoa(n) + `\]`
	if url == "" {
		return text
	}
	return "[" + text + "](<" + url + "> \"" + markdown.CiteTitle + "\")"
}
