package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"runnel/stream"
)

// hostileName is the name of entry i of a hostile page: brackets, braces,
// quotes, an escaped quote and a backslash, each of which a scanner that
// does not read strings takes for structure.
func hostileName(i int) string {
	return fmt.Sprintf(`t%d]}"\"[{,:\\`, i)
}

// hostileTools is a tools/list result of n tools named hostileName(i), whose
// descriptions and schemas are full of the same, as JSON.
func hostileTools(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n ")
		}
		name, _ := json.Marshal(hostileName(i))
		fmt.Fprintf(&b, `{"name":%s,"description":"]]}} \"tools\":[1,2]","inputSchema":{"type":"object","properties":{"tools":{"type":"array","default":[[],{},"]"]}}}}`, name)
	}
	b.WriteString(`],"nextCursor":"]}\""}`)
	return b.Bytes()
}

// listed decodes a tools/list response's tools' names, nil when it is not
// one.
func listed(t *testing.T, msg []byte) []string {
	t.Helper()
	var m struct {
		Result struct {
			Tools []struct{ Name string } `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatalf("the filtered message is not JSON: %v\n%.300s", err, msg)
	}
	var names []string
	for _, tool := range m.Result.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// chunked reads r in reads of 1 to 7 bytes, as a pipe may hand them over.
type chunked struct {
	r io.Reader
	i int
}

func (c *chunked) Read(p []byte) (int, error) {
	c.i++
	return c.r.Read(p[:min(len(p), 1+c.i%7)])
}

// The reader of a server's stdout drops a listing's entries past its bound
// as they stream in, whatever their names hold (brackets, braces, quotes,
// escapes), wherever the id stands, with keys written in escapes, in a
// batch, over reads of a few bytes; it leaves a page within the bound, a
// request's params and anything below result untouched.
func TestListingPageCutAsItStreams(t *testing.T) {
	withListingBound(t, 5)
	page := hostileTools(12)
	want := make([]string, 5)
	for i := range want {
		want[i] = hostileName(i)
	}
	all := make([]string, 12)
	for i := range all {
		all[i] = hostileName(i)
	}
	withID := func(pre, post string) string { return pre + string(page) + post }
	for _, c := range []struct {
		name, msg string
		want      []string
		cut       bool
	}{
		{"id first", withID(`{"jsonrpc":"2.0","id":3,"result":`, `}`), want, true},
		{"id last", withID(`{"result":`, `,"jsonrpc":"2.0","id":3}`), want, true},
		{"escaped keys", withID(`{"jsonrpc":"2.0","id":3,"r\u0065sult":`, `}`), want, true},
		{"pretty", withID("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 3,\n  \"result\" :\n ", "\n}"), want, true},
		{"within the bound", `{"jsonrpc":"2.0","id":3,"result":` + string(hostileTools(5)) + `}`, want, false},
		{"a request's params", withID(`{"jsonrpc":"2.0","id":3,"method":"x","params":`, `}`), nil, false},
		{"below result", withID(`{"jsonrpc":"2.0","id":3,"result":{"structuredContent":`, `}}`), nil, false},
	} {
		for _, batch := range []bool{false, true} {
			in := c.msg
			if batch {
				in = "[" + in + "," + c.msg + "]"
			}
			cuts := &listingCuts{}
			var cut error
			m := &messageBound{r: &chunked{r: strings.NewReader(in + "\n")}, limit: 1 << 20, cut: func(err error) { cut = err }, f: jsonFollow{cuts: cuts}}
			out, err := io.ReadAll(m)
			if err != nil || cut != nil {
				t.Fatalf("%s: %v, %v", c.name, err, cut)
			}
			if batch {
				var two []json.RawMessage
				if err := json.Unmarshal(out, &two); err != nil || len(two) != 2 {
					t.Fatalf("%s batch: %v: %.300s", c.name, err, out)
				}
				out = two[1]
			}
			got := listed(t, out)
			if c.want == nil { // untouched
				if batch && string(out) != c.msg || !batch && strings.TrimSpace(string(out)) != c.msg {
					t.Errorf("%s: changed: %.300s", c.name, out)
				}
			} else if !slices.Equal(got, c.want) {
				t.Errorf("%s (batch %t): names %q\nwant %q", c.name, batch, got, c.want)
			}
			if cuts.was(listTools) != c.cut {
				t.Errorf("%s (batch %t): cut %t, want %t", c.name, batch, cuts.was(listTools), c.cut)
			}
		}
	}

	// prompts and resources are held to theirs, the next message is read whole
	prompts := `{"jsonrpc":"2.0","id":4,"result":{"prompts":[` + strings.Repeat(`{"name":"p]"},`, stream.Limits().MCPPrompts+5) + `{"name":"last"}]}}`
	next := `{"jsonrpc":"2.0","id":5,"result":{"resources":[{"uri":"a"}]}}`
	cuts := &listingCuts{}
	m := &messageBound{r: strings.NewReader(prompts + "\n" + next + "\n"), limit: 1 << 20, cut: func(error) {}, f: jsonFollow{cuts: cuts}}
	out, _ := io.ReadAll(m)
	first, rest, _ := bytes.Cut(out, []byte("\n"))
	var p struct {
		Result struct{ Prompts []struct{ Name string } }
	}
	if err := json.Unmarshal(first, &p); err != nil || len(p.Result.Prompts) != stream.Limits().MCPPrompts || !cuts.was(listPrompts) || cuts.was(listResources) {
		t.Errorf("prompts: %v, %d kept, cuts %t %t", err, len(p.Result.Prompts), cuts.was(listPrompts), cuts.was(listResources))
	}
	if got := strings.TrimSpace(string(rest)); got != next {
		t.Errorf("the next message: %q", got)
	}
}

// withListingBound puts mcp_tools at n for the test.
func withListingBound(t *testing.T, n int) {
	withBounds(t, func(b *stream.Bounds) { b.MCPTools = n })
}

// An event stream's data lines are followed as the SDK joins them: a page
// spread over many data lines, with "\r\n" endings, comments and other
// fields between, is cut at the bound; the next event is read whole.
func TestListingEventCutAsItStreams(t *testing.T) {
	withListingBound(t, 5)
	msg := `{"jsonrpc":"2.0","id":3,"result":` + string(hostileTools(12)) + `}`
	var ev strings.Builder
	ev.WriteString(": a comment\r\nevent: message\r\nid: 1\r\n")
	for line := range strings.Lines(msg) { // hostileTools puts a line break between tools
		ev.WriteString("data: " + strings.TrimSuffix(line, "\n") + "\r\n")
	}
	ev.WriteString("\r\nevent: message\ndata: " + strings.ReplaceAll(msg, "\n", "") + "\n\n") // on one line
	cuts := &listingCuts{}
	b := &listingBody{rc: io.NopCloser(&chunked{r: strings.NewReader(ev.String())}), f: jsonFollow{cuts: cuts}, events: true, onlyCR: true}
	out, err := io.ReadAll(b)
	if err != nil {
		t.Fatal(err)
	}
	events := strings.Split(strings.ReplaceAll(string(out), "\r\n", "\n"), "\n\n")
	want := make([]string, 5)
	for i := range want {
		want[i] = hostileName(i)
	}
	for i, e := range events[:2] {
		var data []string
		for l := range strings.Lines(e) {
			if v, ok := strings.CutPrefix(strings.TrimSuffix(l, "\n"), "data:"); ok {
				data = append(data, strings.TrimSpace(v))
			}
		}
		if got := listed(t, []byte(strings.Join(data, "\n"))); !slices.Equal(got, want) {
			t.Errorf("event %d: names %q\nwant %q", i, got, want)
		}
	}
	if !cuts.was(listTools) {
		t.Error("the cut was not recorded")
	}
}

// rawMCP serves MCP over streamable HTTP from bytes: it answers initialize
// and tools/list, the latter with page (a ListToolsResult's JSON) as it
// is, as application/json or, with events, as one event spread over the
// page's lines. It builds nothing per request, so the heap a start grows
// is the client's.
func rawMCP(t *testing.T, page []byte, events bool) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.ID == nil {
			w.WriteHeader(http.StatusAccepted) // a notification
			return
		}
		w.Header().Set("Content-Type", "application/json")
		head := `{"jsonrpc":"2.0","id":` + string(req.ID) + `,`
		switch req.Method {
		case "initialize":
			fmt.Fprintf(w, `%s"result":{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}}`, head, req.Params.ProtocolVersion)
		case "tools/list":
			if !events {
				io.WriteString(w, head+`"result":`)
				w.Write(page)
				io.WriteString(w, "}")
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: message\ndata: "+head+`"result":`)
			for line := range bytes.Lines(page) {
				w.Write(bytes.TrimSuffix(line, []byte("\n")))
				io.WriteString(w, "\ndata: ")
			}
			io.WriteString(w, "}\n\n")
		default:
			fmt.Fprintf(w, `%s"error":{"code":-32601,"message":"no"}}`, head)
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// A page of tools with hostile names, past mcp_tools, over streamable HTTP
// as one JSON body and as an event stream: the server starts with the
// first mcp_tools of them, their names whole, and one line says the rest
// were left out, naming the key.
func TestListingHostilePageOverHTTP(t *testing.T) {
	withListingBound(t, 5)
	page := hostileTools(40)
	for _, events := range []bool{false, true} {
		r := newReports()
		m := NewMCP(Config{Servers: []Server{{Name: "h", URL: rawMCP(t, page, events), StartupTimeout: 10 * time.Second}}}, StartHooks{Report: r.add})
		m.Start(t.Context())
		var names []string
		for _, tool := range m.tools {
			names = append(names, tool.tool)
		}
		m.Close()
		want := make([]string, 5)
		for i := range want {
			want[i] = hostileName(i)
		}
		if !slices.Equal(names, want) {
			t.Errorf("events %t: tools %q\nwant %q", events, names, want)
		}
		r.mu.Lock()
		line := "mcp server h: it offers more than 5 tools: the rest are left out — raise [limits] mcp_tools in the config to take more"
		if len(r.errs) != 1 || r.errs[0].Error() != line {
			t.Errorf("events %t: reports %q\nwant %q", events, r.errs, line)
		}
		r.mu.Unlock()
	}
}

// One tools/list page just under mcp_message_bytes, of about 129,000 tiny
// tools (a tenth under -short, with mcp_tools and mcp_message_bytes a
// tenth): over stdio and over streamable HTTP (as JSON and as an event)
// the heap grows by a small multiple of the page, not the 35 times the
// SDK's decoding of every tool costs: the reader cut the page at mcp_tools
// before the SDK read it. The start ends with the tools and one line.
func TestListingPageHeapHeld(t *testing.T) {
	lim := shortListingBounds(t)
	n := onePageTools()
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"t%06d","description":"one of many tools","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`, i)
		if i%1000 == 999 {
			b.WriteString("\n") // the event stream spreads it over data lines
		}
	}
	b.WriteString("]}")
	page := b.Bytes()
	pageBytes := uint64(len(page))
	bin := mcpServerBinary(t)
	capped := fmt.Sprintf("mcp server many: it offers more than %d tools: the rest are left out — raise [limits] mcp_tools in the config to take more", lim.MCPTools)
	for _, c := range []struct {
		name string
		srv  Server
	}{
		{"stdio", Server{Name: "many", Command: bin, Args: []string{"many", strconv.Itoa(n), strconv.Itoa(n)}, StartupTimeout: time.Minute}},
		{"http", Server{Name: "many", URL: rawMCP(t, page, false), StartupTimeout: time.Minute}},
		{"http events", Server{Name: "many", URL: rawMCP(t, page, true), StartupTimeout: time.Minute}},
	} {
		d, errs, grew := timedStart(t, c.srv)
		t.Logf("%s: %d tools in a page of %s: %s, heap +%s (%.1f× the page): %v", c.name, n, stream.FormatBytes(len(page)), d, stream.FormatBytes(int(grew)), float64(grew)/float64(pageBytes), errs)
		if grew > 4*pageBytes {
			t.Errorf("%s: the heap grew %s for a page of %s", c.name, stream.FormatBytes(int(grew)), stream.FormatBytes(len(page)))
		}
		if len(errs) != 1 || errs[0].Error() != capped {
			t.Errorf("%s: reports %q\nwant one: %q", c.name, errs, capped)
		}
	}
	runtime.KeepAlive(page)
}
