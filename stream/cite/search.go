package cite

import (
	"strconv"
	"strings"

	"runnel/stream"
)

// Grouped reports whether an item joins a group of hosted searches drawn
// as one line: the hosted searches (web search and its page actions, file
// search), which list what was searched and found rather than answer.
func Grouped(it *stream.Item) bool {
	return it != nil && (it.Type == "web_search_call" || it.Type == "file_search_call")
}

// Searches counts what a group of consecutive hosted searches did.
type Searches struct {
	Searches, FileSearches, Opened, Finds int
	Sources                               []string // distinct source URLs (cleaned), first seen first
	Results                               int      // file search results
	Queries                               []string // what was searched or opened, cleaned, in order, distinct
}

// Tally counts the Grouped items of items (others are skipped).
func Tally(items []*stream.Item) Searches {
	var t Searches
	seenSrc, seenQ := map[string]bool{}, map[string]bool{}
	query := func(q string) {
		if q = stream.SanitizeLine(q); q != "" && !seenQ[q] {
			seenQ[q] = true
			t.Queries = append(t.Queries, q)
		}
	}
	for _, it := range items {
		if !Grouped(it) {
			continue
		}
		d := it.Details()
		if it.Type == "file_search_call" {
			t.FileSearches++
			t.Results += len(d.Results)
			for _, q := range d.Queries {
				query(q)
			}
			continue
		}
		a := d.Action
		switch a.Type {
		case "open_page":
			t.Opened++
			if u, ok := SafeURL(a.URL); ok {
				query(u)
			}
		case "find_in_page":
			t.Finds++
		default:
			t.Searches++
			for _, q := range it.WebQueries() {
				query(q)
			}
		}
		for _, s := range a.Sources {
			if u := stream.SanitizeLine(s); u != "" && !seenSrc[u] {
				seenSrc[u] = true
				t.Sources = append(t.Sources, u)
			}
		}
	}
	return t
}

// Parts are the counts in words, in the chat's order: "2 searches",
// "21 sources", "1 page opened", "3 finds in pages", "1 file search",
// "4 results"; none for a group that has done nothing yet.
func (t Searches) Parts() []string {
	var parts []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+one)
		case n > 1:
			parts = append(parts, strconv.Itoa(n)+" "+many)
		}
	}
	add(t.Searches, "search", "searches")
	add(len(t.Sources), "source", "sources")
	add(t.Opened, "page opened", "pages opened")
	add(t.Finds, "find in page", "finds in pages")
	add(t.FileSearches, "file search", "file searches")
	add(t.Results, "result", "results")
	return parts
}

// Head names the group: "Web search", "File search" or "Search" (both),
// with "×n" when it holds more than one search, page opened or find.
func (t Searches) Head() string {
	n := t.Searches + t.Opened + t.Finds + t.FileSearches
	what := "Web search"
	if t.FileSearches > 0 && t.Searches+t.Opened+t.Finds == 0 {
		what = "File search"
	} else if t.FileSearches > 0 {
		what = "Search"
	}
	if n > 1 {
		what += " ×" + strconv.Itoa(n)
	}
	return what
}

// Found is what the group found, in words: "12 sources, 1 page opened"
// (the counts of Parts besides the searches themselves), "" for nothing.
func (t Searches) Found() string {
	u := t
	u.Searches, u.FileSearches = 0, 0
	return strings.Join(u.Parts(), ", ")
}

// Line is the group as one plain line for documents and plain output:
// "Web search ×6: query1 · query2 (12 sources)".
func (t Searches) Line() string {
	line := t.Head()
	if len(t.Queries) > 0 {
		line += ": " + strings.Join(t.Queries, " · ")
	}
	if f := t.Found(); f != "" {
		line += " (" + f + ")"
	}
	return line
}
