package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"runnel/stream"
	"runnel/stream/sharedtest"
)

func boolp(b bool) *bool { return &b }

func TestChainIgnored(t *testing.T) {
	chained := stream.Request{PreviousResponseID: "resp_a", Store: boolp(true)}
	echo := func(previous bool, id string, store *bool) *stream.Snapshot {
		return &stream.Snapshot{Echoed: true, EchoedPrevious: previous, PreviousResponseID: id, EchoedStore: store}
	}
	tests := []struct {
		name string
		req  stream.Request
		s    *stream.Snapshot
		want bool
	}{
		{"openai echoes the chain", chained, echo(true, "resp_a", boolp(true)), false},
		{"echo without store", chained, echo(true, "resp_a", nil), false},
		{"ollama: null and store false", chained, echo(true, "", boolp(false)), true},
		{"null, store true", chained, echo(true, "", boolp(true)), true},
		{"llama.cpp: no field", chained, echo(false, "", nil), true},
		{"echoes the chain, store false though asked", chained, echo(true, "resp_a", boolp(false)), true},
		{"store left to the server's default", stream.Request{PreviousResponseID: "resp_a"}, echo(true, "resp_a", boolp(false)), true},
		{"store false asked, store false echoed", stream.Request{PreviousResponseID: "resp_a", Store: boolp(false)}, echo(true, "resp_a", boolp(false)), false},
		{"another id echoed", chained, echo(true, "resp_b", boolp(true)), false},
		{"no response object yet", chained, &stream.Snapshot{}, false},
		{"no snapshot", chained, nil, false},
		{"not chained: null", stream.Request{Store: boolp(true)}, echo(true, "", boolp(false)), false},
		{"not chained: no field", stream.Request{}, echo(false, "", nil), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ChainIgnored(tt.req, tt.s); got != tt.want {
				t.Errorf("ChainIgnored = %v, want %v", got, tt.want)
			}
		})
	}
}

// firstEcho replays sse and returns the snapshot as of the first event
// that brought a response object (where the chat and -p decide), and the
// snapshot at the end.
func firstEcho(t *testing.T, sse []byte) (first, last *stream.Snapshot) {
	t.Helper()
	return readEcho(sse, false)
}

// firstEchoOnly is firstEcho's first, read no further than that event.
func firstEchoOnly(t *testing.T, sse []byte) *stream.Snapshot {
	t.Helper()
	first, _ := readEcho(sse, true)
	return first
}

// readEcho is firstEcho, stopping at the first echo when stop says so
// (last is then nil).
func readEcho(sse []byte, stop bool) (first, last *stream.Snapshot) {
	var acc stream.Accumulator
	d := stream.NewDecoder(bytes.NewReader(sse))
	for d.Next() {
		acc.Apply(d.Event()) // malformed events are skipped, as the client does
		if s := acc.Current(); first == nil && s != nil && s.Echoed {
			c := *s // as of this event: the stream goes on into s
			first = &c
			if stop {
				return first, nil
			}
		}
	}
	return first, acc.Current()
}

// echoChain rewrites a recorded stream as the server would have sent it to
// a request chained to id: every response object echoes id.
func echoChain(t *testing.T, sse []byte, id string) []byte {
	t.Helper()
	lines := bytes.Split(sse, []byte("\n"))
	for i, line := range lines {
		data, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r"), []byte("data:"))
		if !ok {
			continue
		}
		var ev map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimSpace(data), &ev) != nil {
			continue
		}
		var resp map[string]json.RawMessage
		if json.Unmarshal(ev["response"], &resp) != nil || resp == nil {
			continue
		}
		resp["previous_response_id"], _ = json.Marshal(id)
		ev["response"], _ = json.Marshal(resp)
		out, _ := json.Marshal(ev)
		lines[i] = append([]byte("data: "), out...)
	}
	return bytes.Join(lines, []byte("\n"))
}

// TestNoStatefulRecordingSetsOffTheDetection: every stream of real, real2
// and real3 (OpenAI, Azure and other servers that keep state). Unchained,
// none is flagged; chained to the id it echoes, or (as the server would
// have answered a chained request) echoing the chain with the store it
// recorded, none is flagged either.
func TestNoStatefulRecordingSetsOffTheDetection(t *testing.T) {
	dir := sharedtest.Dir(t)
	n := 0
	for _, set := range []string{"real", "real2", "real3"} {
		files, _ := filepath.Glob(filepath.Join(dir, "fixtures", set, "*", "*.sse"))
		for _, f := range files {
			sse, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			n++
			name := set + "/" + filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
			first, last := firstEcho(t, sse)
			for _, s := range []*stream.Snapshot{first, last} {
				if ChainIgnored(stream.Request{Store: boolp(true)}, s) || ChainIgnored(stream.Request{}, s) {
					t.Errorf("%s: flagged although the request did not chain", name)
				}
				if s != nil && s.PreviousResponseID != "" && ChainIgnored(stream.Request{PreviousResponseID: s.PreviousResponseID, Store: s.EchoedStore}, s) {
					t.Errorf("%s: flagged although it echoes the chain %q", name, s.PreviousResponseID)
				}
			}
			if first == nil {
				continue // no response object at all (a fragment): nothing to decide on
			}
			store := first.EchoedStore // the request said what the recording echoes
			chained := stream.Request{PreviousResponseID: "resp_chain", Store: store}
			f2, l2 := firstEcho(t, echoChain(t, sse, "resp_chain"))
			if ChainIgnored(chained, f2) || ChainIgnored(chained, l2) {
				t.Errorf("%s: flagged although it echoes the chain (store %v)", name, store)
			}
		}
	}
	if n < 150 {
		t.Errorf("only %d recordings found", n)
	}
}

// TestStatelessServersSetOffTheDetection: the live Ollama recordings
// (store false, previous_response_id null), Ollama's converter and
// llama.cpp's server code (no previous_response_id): a chained request is
// flagged at the first response object, before any text.
func TestStatelessServersSetOffTheDetection(t *testing.T) {
	dir := sharedtest.Dir(t)
	var files []string
	for _, pattern := range []string{"ollama__ollama-live/*.sse", "ollama__ollama/*.sse", "ggml-org__llama.cpp/*.sse"} {
		m, _ := filepath.Glob(filepath.Join(dir, "fixtures", "servers", pattern))
		if len(m) == 0 {
			t.Fatalf("no %s", pattern)
		}
		files = append(files, m...)
	}
	chained := stream.Request{PreviousResponseID: "resp_1", Store: boolp(true)}
	for _, f := range files {
		sse, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		first, last := firstEcho(t, sse)
		if first == nil {
			t.Errorf("%s: no response object", f)
			continue
		}
		if len(first.Items) > 0 {
			t.Errorf("%s: the first response object came after %d items", f, len(first.Items))
		}
		if !ChainIgnored(chained, first) || !ChainIgnored(chained, last) {
			t.Errorf("%s: a chained request is not flagged", f)
		}
		if ChainIgnored(stream.Request{Store: boolp(true)}, first) {
			t.Errorf("%s: flagged although the request did not chain", f)
		}
	}
}

func TestStatelessConversationSendsHistory(t *testing.T) {
	c := &Conversation{Settings: Settings{Model: "m", Store: true}}
	t1 := c.Say("one")
	c.Finish(t1, []*stream.Snapshot{{ID: "resp_1", Status: "completed", Terminal: true,
		Items: []*stream.Item{{Type: "message", Role: "assistant", Raw: json.RawMessage(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"first answer"}]}`)}}}}, nil, false)
	t2 := c.Say("two")
	if t2.Request.PreviousResponseID != "resp_1" {
		t.Fatalf("a stateful conversation chains: %+v", t2.Request)
	}
	req := c.ResendStateless(t2)
	if req.PreviousResponseID != "" || len(req.Input) != 3 || !t2.Fallback || !c.Stateless {
		t.Fatalf("resend %+v", req)
	}
	c.Finish(t2, []*stream.Snapshot{snap("resp_2", "completed")}, nil, false)
	t3 := c.Say("three")
	in := string(mustJSON(t, t3.Request.Input))
	if t3.Request.PreviousResponseID != "" || !strings.Contains(in, `"one"`) || !strings.Contains(in, "first answer") || !strings.Contains(in, `"two"`) || !strings.Contains(in, `"three"`) {
		t.Errorf("third request %s, chain %q", in, t3.Request.PreviousResponseID)
	}
	if t3.Request.Store == nil || !*t3.Request.Store || len(t3.Request.Include) != 0 {
		t.Errorf("store is kept as configured: %v %v", t3.Request.Store, t3.Request.Include)
	}
	if !c.Fork(2).Stateless {
		t.Error("a fork forgets that the server keeps no state")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestKeepsNoState(t *testing.T) {
	notFound := &stream.APIError{Status: 404, Message: "Response with id 'resp_1' not found.", Param: "response_id"}
	refused := &stream.APIError{Status: 400, Message: "property 'previous_response_id' is unsupported"}

	live := &Conversation{Settings: Settings{Store: true}}
	t1 := live.Say("one")
	live.Finish(t1, []*stream.Snapshot{snap("resp_1", "completed")}, nil, false)
	t2 := live.Say("two")
	if !ChainLost(notFound) || !live.KeepsNoState(t2, notFound) {
		t.Error("a server that lost a response it gave in this run keeps no state")
	}
	if !live.KeepsNoState(t2, refused) {
		t.Error("a server that refuses previous_response_id keeps no state")
	}
	if live.KeepsNoState(t2, errors.New("boom")) || ChainLost(errors.New("boom")) {
		t.Error("any error is not a lost chain")
	}

	resumed := &Conversation{Settings: Settings{Store: true}}
	old := resumed.Say("one")
	resumed.Finish(old, []*stream.Snapshot{snap("resp_1", "completed")}, nil, false)
	old.Stored = "completed" // loaded from the history: it may have expired
	t2 = resumed.Say("two")
	expired := &stream.APIError{Status: 400, Code: "previous_response_not_found", Param: "previous_response_id", Message: "Previous response with id 'resp_1' not found."}
	if resumed.KeepsNoState(t2, expired) {
		t.Error("a response from the history that expired does not make the provider stateless")
	}
	if !resumed.KeepsNoState(t2, notFound) {
		t.Error("vLLM's 404 does: it keeps responses in memory, if at all")
	}
	if !resumed.KeepsNoState(t2, refused) {
		t.Error("a refusal of the parameter does")
	}
	if StatelessWhy(refused) != WhyRefused || StatelessWhy(notFound) != WhyLost {
		t.Error("StatelessWhy")
	}
}

func TestProviderKey(t *testing.T) {
	tests := map[string]string{
		"":                                      "https://api.openai.com/v1",
		" http://localhost:11434/v1/ ":          "http://localhost:11434/v1",
		"https://u:secret@example.com/v1?k=x#f": "https://example.com/v1",
	}
	for in, want := range tests {
		if got := ProviderKey(in); got != want {
			t.Errorf("ProviderKey(%q) = %q, want %q", in, got, want)
		}
	}
	if got := ProviderName("http://localhost:11434/v1"); got != "localhost:11434" {
		t.Errorf("ProviderName = %q", got)
	}
	if got := StatelessNotice("host\x1b[2J", WhyIgnored); strings.Contains(got, "\x1b") || !strings.HasPrefix(got, "host") {
		t.Errorf("notice %q", got)
	}
}

// TestProviderMemory: one record per provider, read by a later run,
// forgotten past StatelessTTL or on Forget; the files of older runnels are
// read; a bad file counts as nothing.
func TestProviderMemory(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	m := ProviderMemory{Dir: t.TempDir()}
	key := ProviderKey("http://localhost:11434/v1")
	if !m.Load(key, now).Empty() {
		t.Fatal("known before it was remembered")
	}
	rec := m.Load(key, now)
	rec.MarkStateless(WhyRefused, now)
	rec.MarkRefused("verbosity", now) // an older name
	rec.MarkRefused("bogus", now)
	rec.MarkRefused(ParamInclude, now)
	if err := m.Save(rec); err != nil {
		t.Fatal(err)
	}
	got := (ProviderMemory{Dir: m.Dir}).Load(key, now.Add(time.Hour))
	if !got.KeepsNoState() || !slices.Equal(got.RefusedNames(), []string{ParamInclude, KnobVerbosity}) {
		t.Fatalf("a later run reads %+v", got)
	}
	if s := got.Summary(); s != "keeps no state (learned "+now.Local().Format("2 Jan")+"); refuses include, text.verbosity" {
		t.Errorf("summary %q", s)
	}
	if !m.Load(ProviderKey("https://api.openai.com/v1"), now).Empty() {
		t.Error("another provider is remembered too")
	}
	if !m.Load(key, now.Add(StatelessTTL)).Empty() || !m.Load(key, now.Add(-time.Hour)).Empty() {
		t.Error("remembered past its TTL, or before it was written")
	}
	if !(ProviderMemory{}).Load(key, now).Empty() || (ProviderMemory{}).Save(rec) != nil {
		t.Error("a memory without a directory remembers")
	}
	entries, _ := filepath.Glob(filepath.Join(m.Dir, "providers", "*"))
	if len(entries) != 1 {
		t.Errorf("files %v: a temporary file was left", entries)
	}
	path := m.path("providers", key)
	data, _ := os.ReadFile(path)
	if !bytes.Contains(data, []byte(`"key":"http://localhost:11434/v1"`)) {
		t.Errorf("file %s", data)
	}
	c := &Conversation{Settings: Settings{Model: "m", Store: true, Verbosity: "low"}}
	got.Recall(c)
	if r := c.Say("hi").Request; !c.Stateless || r.Text != nil || r.Include != nil {
		t.Fatalf("sent what was refused: %+v", r)
	}

	for name, write := range map[string]func() error{
		"corrupt": func() error { return os.WriteFile(path, []byte("{not json"), 0o600) },
		"too big": func() error {
			return os.WriteFile(path, append(data, bytes.Repeat([]byte(" "), maxMemoryFile)...), 0o600)
		},
		"other key": func() error {
			return os.WriteFile(path, []byte(`{"key":"http://elsewhere","stateless":"2026-11-01T12:00:00Z"}`), 0o600)
		},
		"directory":  func() error { return os.Mkdir(path, 0o700) },
		"symlink":    func() error { return os.Symlink(filepath.Join(m.Dir, "target.json"), path) },
		"empty file": func() error { return os.WriteFile(path, nil, 0o600) },
	} {
		t.Run(name, func(t *testing.T) {
			os.RemoveAll(path)
			os.WriteFile(filepath.Join(m.Dir, "target.json"), data, 0o600)
			if err := write(); err != nil {
				t.Fatal(err)
			}
			if !m.Load(key, now).Empty() {
				t.Error("a bad file counts")
			}
		})
	}
	os.RemoveAll(path)
	if err := m.Save(rec); err != nil || !m.Load(key, now).KeepsNoState() {
		t.Errorf("written again after a bad file: %v", err)
	}
	if err := m.Forget(key); err != nil || !m.Load(key, now).Empty() {
		t.Errorf("forget: %v", err)
	}

	// an older runnel's two files
	old := ProviderMemory{Dir: t.TempDir()}
	os.MkdirAll(filepath.Join(old.Dir, "stateless"), 0o700)
	os.MkdirAll(filepath.Join(old.Dir, "knobs"), 0o700)
	os.WriteFile(old.path("stateless", key), []byte(`{"key":"`+key+`","since":"2026-11-01T12:00:00Z","reason":"it ignored previous_response_id"}`), 0o600)
	os.WriteFile(old.path("knobs", key), []byte(`{"key":"`+key+`","since":"2026-11-01T12:00:00Z","refused":["service_tier","verbosity"]}`), 0o600)
	if r := old.Load(key, now); !r.KeepsNoState() || r.Why != WhyIgnored || !slices.Equal(r.RefusedNames(), []string{KnobServiceTier, KnobVerbosity}) {
		t.Errorf("older files read as %+v", r)
	}
	if err := old.Forget(key); err != nil || !old.Load(key, now).Empty() {
		t.Errorf("forget leaves the older files: %v", err)
	}
}
