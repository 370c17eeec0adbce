package stream_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"runnel/stream"
)

// withLimits puts b in force for one test.
func withLimits(t *testing.T, edit func(*stream.Bounds)) stream.Bounds {
	t.Helper()
	old := stream.Limits()
	b := stream.DefaultBounds
	edit(&b)
	stream.SetLimits(b)
	t.Cleanup(func() { stream.SetLimits(old) })
	return b
}

// listServer answers every GET of the items with page(n, after), n
// counting from 1; gets counts them.
func listServer(t *testing.T, page func(w http.ResponseWriter, n int, after string)) (*stream.Client, *atomic.Int32) {
	t.Helper()
	var gets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(gets.Add(1))
		w.Header().Set("Content-Type", "application/json")
		page(w, n, r.URL.Query().Get("after"))
	}))
	t.Cleanup(srv.Close)
	return &stream.Client{BaseURL: srv.URL, MaxRetries: -1}, &gets
}

func item(id string, size int) string {
	return fmt.Sprintf(`{"type":"message","id":%q,"role":"user","content":[{"type":"input_text","text":%q}]}`, id, strings.Repeat("x", size))
}

// oneLineErr wants err to be one line holding want.
func oneLineErr(t *testing.T, name string, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("%s: got %v, want one line holding %q", name, err, want)
	}
}

// A has_more that never ends stops: a cursor that comes back (alternating
// last_id) at once, fresh cursors at import_pages (fed ten times as many).
func TestConversationEndlessListingStops(t *testing.T) {
	b := withLimits(t, func(b *stream.Bounds) { b.ImportPages = 20 })
	cl, gets := listServer(t, func(w http.ResponseWriter, n int, _ string) {
		fmt.Fprintf(w, `{"data":[%s],"has_more":true,"last_id":"msg_%d"}`, item(fmt.Sprintf("it_%d", n), 10), n%2)
	})
	_, err := cl.ConversationItems(t.Context(), "conv_x")
	oneLineErr(t, "alternating", err, "came back to a cursor it gave before (msg_")
	if g := gets.Load(); g > 3 {
		t.Errorf("alternating: %d GETs", g)
	}

	cl, gets = listServer(t, func(w http.ResponseWriter, n int, _ string) {
		if n > 10*b.ImportPages {
			fmt.Fprint(w, `{"data":[],"has_more":false}`)
			return
		}
		fmt.Fprintf(w, `{"data":[%s],"has_more":true,"last_id":"msg_%d"}`, item(fmt.Sprintf("it_%d", n), 10), n)
	})
	_, err = cl.ConversationItems(t.Context(), "conv_x")
	oneLineErr(t, "fresh", err, "passed 20 pages (the server still had more after 20 items), the most runnel takes — raise [limits] import_pages")
	if g := gets.Load(); int(g) != b.ImportPages {
		t.Errorf("fresh: %d GETs, want %d", g, b.ImportPages)
	}

	cl, _ = listServer(t, func(w http.ResponseWriter, n int, _ string) {
		fmt.Fprintf(w, `{"data":[%s],"has_more":true,"last_id":"msg_%d"}`, item("it_same", 10), n)
	})
	_, err = cl.ConversationItems(t.Context(), "conv_x")
	oneLineErr(t, "same item", err, "listed item it_same twice")
}

// A page is checked as it streams in: a page that never ends (the server
// writes items until the client hangs up) stops at import_page_bytes, so
// it is never held whole.
func TestConversationPageBoundedAsItStreams(t *testing.T) {
	withLimits(t, func(b *stream.Bounds) { b.ImportPageBytes = 64 << 10 })
	var wrote atomic.Int64
	cl, _ := listServer(t, func(w http.ResponseWriter, _ int, _ string) {
		fmt.Fprint(w, `{"data":[`)
		for i := 0; ; i++ { // endless, until the client stops reading
			sep := ","
			if i == 0 {
				sep = ""
			}
			n, err := fmt.Fprint(w, sep+item(fmt.Sprintf("it_%d", i), 4<<10))
			wrote.Add(int64(n))
			if err != nil || wrote.Load() > 64<<20 {
				return
			}
		}
	})
	_, err := cl.ConversationItems(t.Context(), "conv_x")
	oneLineErr(t, "endless page", err, "page 1 of conversation conv_x's items passed 64 KiB, the most runnel takes — raise [limits] import_page_bytes")
	if wrote.Load() > 64<<20 {
		t.Errorf("the client read the endless page to %d bytes", wrote.Load())
	}
}

// Items and bytes in all are counted as each item arrives: ten times
// import_items in one page, ten times import_bytes over pages each within
// their bound.
func TestConversationItemsAndBytesBounded(t *testing.T) {
	withLimits(t, func(b *stream.Bounds) { b.ImportItems = 50; b.ImportBytes = 1 << 20; b.ImportPageBytes = 256 << 10 })
	cl, _ := listServer(t, func(w http.ResponseWriter, _ int, _ string) {
		var items []string
		for i := range 500 {
			items = append(items, item(fmt.Sprintf("it_%d", i), 10))
		}
		fmt.Fprintf(w, `{"data":[%s],"has_more":false}`, strings.Join(items, ","))
	})
	_, err := cl.ConversationItems(t.Context(), "conv_x")
	oneLineErr(t, "items", err, "passed 50 items, the most runnel takes — raise [limits] import_items")

	cl, _ = listServer(t, func(w http.ResponseWriter, n int, _ string) {
		if n > 50 {
			fmt.Fprint(w, `{"data":[],"has_more":false}`)
			return
		}
		fmt.Fprintf(w, `{"data":[%s],"has_more":true,"last_id":"msg_%d"}`, item(fmt.Sprintf("it_%d", n), 200<<10), n)
	})
	_, err = cl.ConversationItems(t.Context(), "conv_x")
	oneLineErr(t, "bytes", err, "conversation conv_x's items passed 1 MiB, the most runnel takes — raise [limits] import_bytes")
}
