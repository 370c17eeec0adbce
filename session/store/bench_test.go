package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// corpus generates conversation text: words drawn from a technical
// vocabulary with a Zipf distribution (a few words very common, most rare),
// in sentences, paragraphs, lists and code fences, from a fixed seed.
type corpus struct {
	r    *rand.Rand
	zipf *rand.Zipf
}

var vocabulary = strings.Fields(`the a to of and in is it for that you this with on be can are as use
not your if or by an from at will function value error file data type return code example which when
should have more one but all each there we need using set run this call request response server client
string list map key test build model stream token input output config option default user time buffer
memory thread process goroutine channel mutex lock queue cache index query table column row schema
migration transaction commit rollback database connection pool timeout retry backoff latency throughput
parse decode encode json yaml toml markdown render terminal window viewport cursor scroll width height
layout style color theme border padding margin align wrap line word rune byte unicode escape sequence
signal interrupt context cancel deadline goroutines scheduler allocation garbage collector profile
benchmark trace metric log debug warning panic recover defer interface struct method pointer slice
array closure generic constraint compile linker module package import version dependency vendor proxy
checksum release tag branch merge rebase conflict diff patch review pipeline deploy container image
registry kubernetes cluster node pod service ingress nginx proxy certificate tls handshake cipher hash
signature secret credential permission owner group mode directory path symlink inode filesystem mount
disk partition volume snapshot backup restore replica shard leader follower consensus raft election
heartbeat lease quorum partition tolerance availability consistency eventual linearizable isolation
serializable phantom dirty read write skew anomaly vacuum checkpoint journal wal fsync durability crash
recovery corruption checksum page btree heap sort merge join hash nested loop planner optimizer statistics
histogram selectivity cardinality estimate cost plan explain analyze index scan seek range prefix suffix
tokenizer stemmer ranking bm25 relevance snippet highlight fuzzy typo synonym phrase proximity boolean
regex glob wildcard pattern match capture group lookahead backtrack automaton lexer grammar ast visitor
compiler interpreter bytecode jit register stack frame heap escape analysis inline loop unroll vectorize
simd cache line false sharing atomic fence barrier memory model happens before race detector deadlock
livelock starvation fairness priority inversion semaphore condition variable monitor actor message
mailbox supervisor restart strategy circuit breaker bulkhead rate limiter token bucket leaky window sliding
histogram percentile p99 tail latency jitter clock skew monotonic wall time zone daylight leap second epoch
zebra quokka axolotl pangolin narwhal capybara okapi tapir wombat ocelot`)

func newCorpus(seed uint64) *corpus {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return &corpus{r: r, zipf: rand.NewZipf(r, 1.1, 4, uint64(len(vocabulary)-1))}
}

func (c *corpus) words(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vocabulary[c.zipf.Uint64()])
		if c.r.IntN(12) == 0 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// answer is markdown of about n words: paragraphs, a list, a code fence.
func (c *corpus) answer(n int) string {
	var b strings.Builder
	for n > 0 {
		switch c.r.IntN(5) {
		case 0:
			fmt.Fprintf(&b, "## %s\n\n", c.words(4))
			n -= 4
		case 1:
			for i := 0; i < 4; i++ {
				fmt.Fprintf(&b, "- %s\n", c.words(10))
			}
			b.WriteByte('\n')
			n -= 40
		case 2:
			fmt.Fprintf(&b, "```go\nfunc %s() error {\n\treturn %s\n}\n```\n\n", vocabulary[c.r.IntN(len(vocabulary))], c.words(6))
			n -= 8
		default:
			fmt.Fprintf(&b, "%s\n\n", c.words(60))
			n -= 60
		}
	}
	return b.String()
}

// fill writes sessions × turns generated turns (a few KB each: prompt,
// reasoning summary, answer, and a tool call with output every fourth turn)
// in one transaction, indexed as finished turns are.
func fill(tb testing.TB, db *DB, sessions, turns int, seed uint64) []SessionID {
	c := newCorpus(seed)
	var ids []SessionID
	err := db.write("bench fill", func(tx *sql.Tx) error {
		now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		for s := 0; s < sessions; s++ {
			sid := SessionID(fmt.Sprintf("0bench%04d", s))
			ids = append(ids, sid)
			if _, err := tx.Exec(`INSERT INTO sessions (id, title, created, updated, settings, model) VALUES (?, ?, ?, ?, '{"model":"gpt-bench"}', 'gpt-bench')`,
				string(sid), c.words(6), ms(now), ms(now)); err != nil {
				return err
			}
			for n := 1; n <= turns; n++ {
				now = now.Add(time.Minute)
				prompt := c.words(10 + c.r.IntN(30))
				in, _ := json.Marshal([]any{map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": prompt}}}})
				res, err := tx.Exec(`INSERT INTO turns (session_id, seq, prompt, input, response_ids, status, usage, started, ended, owner)
					VALUES (?, ?, ?, ?, ?, 'completed', '{"input_tokens":100,"output_tokens":400}', ?, ?, '')`,
					string(sid), n, prompt, in, fmt.Sprintf(`["resp_%d_%d"]`, s, n), ms(now), ms(now.Add(20*time.Second)))
				if err != nil {
					return err
				}
				tid, _ := res.LastInsertId()
				items := []map[string]any{
					{"id": "rs", "type": "reasoning", "summary": []any{map[string]any{"type": "summary_text", "text": "**" + c.words(4) + "**\n\n" + c.words(60)}}, "encrypted_content": strings.Repeat("gAAAAB", 80)},
				}
				if n%4 == 0 {
					items = append(items,
						map[string]any{"id": "fc", "type": "function_call", "call_id": "call", "name": "search_docs", "arguments": `{"query":"` + c.words(5) + `"}`, "status": "completed"},
						map[string]any{"id": "sho", "type": "shell_call_output", "call_id": "call2", "output": []any{map[string]any{"stdout": c.words(80), "stderr": ""}}})
				}
				text := c.answer(300 + c.r.IntN(150))
				if c.r.IntN(1000) == 0 { // a rare word: about ten turns in 10,000
					text += "\n\nAs a xylophone player would say, " + c.words(20)
				}
				items = append(items, map[string]any{"id": "msg", "type": "message", "role": "assistant", "status": "completed",
					"content": []any{map[string]any{"type": "output_text", "annotations": []any{}, "text": text}}})
				for i, it := range items {
					raw, _ := json.Marshal(it)
					if _, err := tx.Exec(`INSERT INTO items (turn_id, response_idx, output_idx, raw, done, updated) VALUES (?, 0, ?, ?, 1, ?)`,
						tid, i, raw, ms(now)); err != nil {
						return err
					}
				}
				if err := foldTurn(tx, TurnID(tid), nil); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return ids
}

// benchDB is built once per test binary run, however many times the
// benchmark function is called.
type benchDB struct {
	db    *DB
	dir   string
	bytes int64
	err   error
}

var (
	searchOnce sync.Once
	searchDB   benchDB
)

func searchCorpus(b *testing.B) *DB {
	searchOnce.Do(func() {
		dir, err := mkTemp()
		if err != nil {
			searchDB.err = err
			return
		}
		db, err := open(filepath.Join(dir, "bench.db"), options{})
		if err != nil {
			searchDB.err = err
			return
		}
		start := time.Now()
		fill(b, db, 100, 100, 1)
		var pages, size int64
		db.r.QueryRow("PRAGMA page_count").Scan(&pages)
		db.r.QueryRow("PRAGMA page_size").Scan(&size)
		searchDB = benchDB{db: db, dir: dir, bytes: pages * size}
		b.Logf("built 10,000 turns in %v; database %.1f MB", time.Since(start).Round(time.Millisecond), float64(pages*size)/1e6)
	})
	if searchDB.err != nil {
		b.Fatal(searchDB.err)
	}
	return searchDB.db
}

// likeSearch is the baseline: what a store without an index does, a scan of
// every prompt and raw item for each word, ordered by recency. It returns
// how many turns match. (raw is a BLOB, on which LIKE never matches: it is
// cast to text.)
func likeSearch(db *DB, query string) (int, error) {
	words := strings.Fields(query)
	var conds []string
	var args []any
	for _, w := range words {
		conds = append(conds, "(t.prompt LIKE ? OR EXISTS (SELECT 1 FROM items i WHERE i.turn_id = t.id AND CAST(i.raw AS TEXT) LIKE ?))")
		args = append(args, "%"+w+"%", "%"+w+"%")
	}
	rows, err := db.r.Query(`SELECT t.id FROM turns t WHERE `+strings.Join(conds, " AND ")+` ORDER BY t.started DESC`, args...)
	if err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		n++
	}
	return n, closeRows(rows)
}

// The queries, from rare to common, with the turns (of 10,000) they match:
// xylophone 9, capybara zebra 407, checkpoint journal 943, quokka 2,017,
// deadlock 2,201, goroutine channel mutex 4,098, memory 7,796, the 10,000.
var benchQueries = []string{"xylophone", "capybara zebra", "checkpoint journal", "quokka", "deadlock", "goroutine channel mutex", "memory", "the"}

func BenchmarkSearch(b *testing.B) {
	db := searchCorpus(b)
	var fts, like time.Duration
	per := make([]time.Duration, len(benchQueries))
	runs := make([]int, len(benchQueries))
	hits := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(benchQueries)
		t0 := time.Now()
		h, err := db.Search(benchQueries[k], 20)
		d := time.Since(t0)
		fts, per[k], runs[k] = fts+d, per[k]+d, runs[k]+1
		if err != nil {
			b.Fatal(err)
		}
		hits += len(h)
		t0 = time.Now()
		n, err := likeSearch(db, benchQueries[k])
		like += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		if n < len(h) || (n > 0) != (len(h) > 0) {
			b.Fatalf("%q: the baseline found %d turns, the index %d: they do not search the same text", benchQueries[k], n, len(h))
		}
	}
	worst := 0.0
	for k := range per {
		if runs[k] > 0 {
			worst = max(worst, msOf(per[k], runs[k]))
		}
	}
	b.ReportMetric(msOf(fts, b.N), "ms/search")
	b.ReportMetric(worst, "worst-ms/search")
	b.ReportMetric(msOf(like, b.N), "like-ms/search")
	b.ReportMetric(msOf(like, b.N)/msOf(fts, b.N), "x-like")
	b.ReportMetric(float64(hits)/float64(b.N), "hits/search")
}

func msOf(d time.Duration, n int) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }

var (
	loadOnce sync.Once
	loadDB   benchDB
	loadID   SessionID
)

func BenchmarkLoad1000(b *testing.B) {
	loadOnce.Do(func() {
		dir, err := mkTemp()
		if err == nil {
			loadDB.db, err = open(filepath.Join(dir, "load.db"), options{})
		}
		if err != nil {
			loadDB.err = err
			return
		}
		loadID = fill(b, loadDB.db, 1, 1000, 2)[0]
	})
	if loadDB.err != nil {
		b.Fatal(loadDB.err)
	}
	db := loadDB.db
	var load, raw time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		s, warn, err := db.Load(loadID)
		load += time.Since(t0)
		if err != nil || len(warn) > 0 || len(s.Turns) != 1000 {
			b.Fatalf("load: %v %v", err, warn)
		}
		t0 = time.Now()
		if err := rawRead(db, loadID); err != nil {
			b.Fatal(err)
		}
		raw += time.Since(t0)
	}
	b.ReportMetric(msOf(load, b.N), "ms/load")
	b.ReportMetric(msOf(raw, b.N), "raw-ms/load")
	b.ReportMetric(msOf(load, b.N)/msOf(raw, b.N), "x-raw")
}

// rawRead is the baseline: the same rows read as bytes, nothing decoded.
func rawRead(db *DB, id SessionID) error {
	rows, err := db.r.Query(`SELECT id, seq, prompt, input, response_ids, status, usage, error, started, ended FROM turns WHERE session_id = ? ORDER BY seq`, string(id))
	if err != nil {
		return err
	}
	for rows.Next() {
		var a, b, i, j sql.RawBytes
		var c, d, e, f, g, h sql.RawBytes
		if err := rows.Scan(&a, &b, &c, &d, &e, &f, &g, &h, &i, &j); err != nil {
			return err
		}
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	rows, err = db.r.Query(`SELECT i.turn_id, i.response_idx, i.output_idx, i.raw, i.done FROM items i JOIN turns t ON t.id = i.turn_id
		WHERE t.session_id = ? ORDER BY t.seq, i.response_idx, i.output_idx`, string(id))
	if err != nil {
		return err
	}
	for rows.Next() {
		var a, b, c, d, e sql.RawBytes
		if err := rows.Scan(&a, &b, &c, &d, &e); err != nil {
			return err
		}
	}
	return closeRows(rows)
}

// mkTemp makes a directory for a benchmark database that outlives one call
// of the benchmark function (b.TempDir is removed after each); TestMain
// removes it when the run ends.
func mkTemp() (string, error) {
	dir, err := os.MkdirTemp("", "runnel-store-bench-")
	if err == nil {
		benchDirs = append(benchDirs, dir)
	}
	return dir, err
}

var benchDirs []string

// cleanBench closes the benchmark databases and removes their directories.
func cleanBench() {
	for _, d := range []*DB{searchDB.db, loadDB.db} {
		if d != nil {
			d.Close()
		}
	}
	for _, dir := range benchDirs {
		os.RemoveAll(dir)
	}
}
