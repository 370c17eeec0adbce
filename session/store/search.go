package store

import (
	"strings"
	"unicode"

	"runnel/stream"
)

// Hit is one turn that matches a search.
type Hit struct {
	Session  SessionID
	Title    string // the session's, one line, sanitized
	Turn     int    // the turn's Seq (its place in Session.Turns, from 1)
	UserTurn int    // the number of the user turn it is or continues (see UserTurn), as lists count them
	TurnID   TurnID
	Snippet  string  // one line around the best match, plain text (no markdown syntax), sanitized, "…" where cut
	Marks    []Span  // the matched terms in Snippet, in order
	Rank     float64 // bm25 with prompt text weighted highest; lower is better
}

// Span is a byte range [Start, End) of a Snippet.
type Span struct{ Start, End int }

const (
	maxTerms     = 16 // more words than this in a query are ignored
	snippetWords = 16
)

// Search finds turns whose prompt, answer, reasoning summary or tool calls
// and outputs contain every word of query (words are stemmed: "streams"
// finds "streaming"), best first, at most limit (20 when limit <= 0), one hit
// per turn. Query is plain user text: FTS5 syntax in it has no effect, and
// a query with no words returns no hits and no error.
func (db *DB) Search(query string, limit int) ([]Hit, error) {
	if limit <= 0 {
		limit = 20
	}
	match := ftsQuery(query)
	if match == "" {
		return nil, nil
	}
	rows, err := db.r.Query(`SELECT turn, rank, snippet(search, -1, ?, ?, '…', ?)
		FROM search WHERE search MATCH ? ORDER BY rank`, markOpen, markClose, snippetWords, match)
	if err != nil {
		return nil, db.fail("search", err)
	}
	var hits []Hit
	seen := map[TurnID]bool{}
	for rows.Next() && len(hits) < limit {
		var (
			turn int64
			rank float64
			snip string
		)
		if rows.Scan(&turn, &rank, &snip) != nil || seen[TurnID(turn)] {
			continue
		}
		seen[TurnID(turn)] = true
		h := Hit{TurnID: TurnID(turn), Rank: rank}
		h.Snippet, h.Marks = parseSnippet(plainMarkdown(snip))
		hits = append(hits, h)
	}
	if err := closeRows(rows); err != nil {
		return nil, db.fail("search", err)
	}
	return db.placeHits(hits)
}

// placeHits fills in each hit's session and turn number, dropping hits whose
// turn is gone (deleted while searching).
func (db *DB) placeHits(hits []Hit) ([]Hit, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	args := make([]any, len(hits))
	for i, h := range hits {
		args[i] = int64(h.TurnID)
	}
	rows, err := db.r.Query(`SELECT u.id, u.seq, s.id, s.title,
			(SELECT count(*) FROM turns t WHERE t.session_id = u.session_id AND t.seq <= u.seq AND `+userTurnSQL+`)
		FROM turns u JOIN sessions s ON s.id = u.session_id
		WHERE u.id IN (?`+strings.Repeat(", ?", len(hits)-1)+`)`, args...)
	if err != nil {
		return nil, db.fail("search", err)
	}
	type place struct {
		seq, prompt int
		sid, stitle string
	}
	at := map[TurnID]place{}
	for rows.Next() {
		var tid int64
		var p place
		if rows.Scan(&tid, &p.seq, &p.sid, &p.stitle, &p.prompt) == nil {
			at[TurnID(tid)] = p
		}
	}
	if err := closeRows(rows); err != nil {
		return nil, db.fail("search", err)
	}
	out := hits[:0]
	for _, h := range hits {
		p, ok := at[h.TurnID]
		if !ok {
			continue
		}
		h.Session, h.Title, h.Turn, h.UserTurn = SessionID(p.sid), title(p.stitle), p.seq, max(1, p.prompt)
		if n, ok := db.branchUserTurn(h.Session, h.Turn); ok {
			h.UserTurn = max(1, n)
		}
		out = append(out, h)
	}
	return out, nil
}

// ftsQuery turns user text into an FTS5 query that means "all these words":
// each whitespace-separated word becomes a quoted phrase (so "foo-bar" is
// the phrase foo bar and operators, columns and stars are plain text); words
// with no letter or digit are dropped.
func ftsQuery(q string) string {
	var terms []string
	for _, w := range strings.Fields(q) {
		if len(terms) == maxTerms {
			break
		}
		if strings.IndexFunc(w, isTokenRune) < 0 {
			continue
		}
		terms = append(terms, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
	}
	return strings.Join(terms, " ")
}

// isTokenRune reports whether the unicode61 tokenizer keeps r in a token.
func isTokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

// parseSnippet turns the index's marked snippet into one safe line (runs of
// white space fold to one space) and the byte ranges of its marks.
func parseSnippet(s string) (string, []Span) {
	var b strings.Builder
	var marks []Span
	pending, inMark, start := false, false, -1
	for _, r := range stream.Sanitize(s) {
		switch {
		case r == markOpenRune:
			inMark, start = true, -1
		case r == markCloseRune:
			if inMark && start >= 0 {
				marks = append(marks, Span{start, b.Len()})
			}
			inMark = false
		case unicode.IsSpace(r):
			pending = b.Len() > 0
		default:
			if pending {
				b.WriteByte(' ')
				pending = false
			}
			if inMark && start < 0 {
				start = b.Len()
			}
			b.WriteRune(r)
		}
	}
	return b.String(), marks
}
