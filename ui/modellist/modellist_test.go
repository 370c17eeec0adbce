package modellist_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"runnel/session/models"
	"runnel/stream"
	"runnel/stream/streamtest"
	"runnel/ui/modellist"
)

// run is `runnel models` against a server listing ids, gpt-5 configured.
func run(t *testing.T, asJSON bool, ids ...string) string {
	t.Helper()
	srv := streamtest.New(t)
	srv.SetModels(ids...)
	var out, errOut bytes.Buffer
	e := modellist.Env{Ctx: context.Background(), Stdout: &out, Stderr: &errOut, Configured: "gpt-5",
		Lister: models.Lister{Client: &stream.Client{BaseURL: srv.URL}, CacheDir: t.TempDir()}}
	if err := e.Run(asJSON, false); err != nil || errOut.Len() > 0 {
		t.Fatalf("%v %q", err, errOut.String())
	}
	return out.String()
}

// dots are the columns of a row's decimal points past the id column.
func dots(row string, from int) []int {
	var at []int
	for i, r := range []rune(row) {
		if r == '.' && i >= from {
			at = append(at, i)
		}
	}
	return at
}

// TestTableAlignsAndGroups: `runnel models` prints every price with at
// least two decimals, the decimal points of a column under each other
// (also beside names holding dots, and "-" where nothing is known), and
// lists the models that are not for chat after the chat models, under a
// heading of their own; --json marks them "chat": false.
func TestTableAlignsAndGroups(t *testing.T) {
	ids := []string{"gpt-5", "gpt-5-nano", "o1", "gpt-4.1", "text-embedding-3-small", "my-local", "tts-1", "gpt-5.4-mini"}
	out := run(t, false, ids...)
	lines := strings.Split(out, "\n")
	head := lines[0]
	from := strings.Index(head, "CONTEXT")
	if !strings.HasPrefix(head, "MODEL") || from < 0 || !strings.HasSuffix(head, "OUTPUT $/M") {
		t.Fatalf("heading %q", head)
	}
	var want []int
	group := 0 // 0 chat, 1 the others
	var order [2][]string
	for _, l := range lines[1:] {
		if l == modellist.OtherHead {
			group = 1
			continue
		}
		f := strings.Fields(l)
		if len(f) < 5 || !slices.Contains(ids, f[0]) {
			continue
		}
		order[group] = append(order[group], f[0])
		if f[2] == "-" {
			continue
		}
		for _, p := range []string{f[len(f)-3], f[len(f)-2], f[len(f)-1]} {
			if _, frac, _ := strings.Cut(p, "."); len(frac) < 2 {
				t.Errorf("%s: price %q has fewer than two decimals", f[0], p)
			}
		}
		if d := dots(l, from); want == nil {
			want = d
		} else if !slices.Equal(d, want) {
			t.Errorf("%s: decimal points at %v, the rows above at %v:\n%s", f[0], d, want, out)
		}
	}
	if len(want) != 3 {
		t.Fatalf("decimal points %v:\n%s", want, out)
	}
	if !slices.Equal(order[0], []string{"gpt-4.1", "gpt-5", "gpt-5-nano", "gpt-5.4-mini", "my-local", "o1"}) || !slices.Equal(order[1], []string{"text-embedding-3-small", "tts-1"}) {
		t.Errorf("groups %v:\n%s", order, out)
	}
	if !strings.Contains(out, "gpt-5 *") {
		t.Errorf("the configured model is not marked:\n%s", out)
	}

	var chat = map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(run(t, true, ids...)), "\n") {
		var x modellist.Line
		if err := json.Unmarshal([]byte(l), &x); err != nil {
			t.Fatal(err)
		}
		chat[x.ID] = x.Chat
	}
	if !chat["gpt-5"] || !chat["my-local"] || chat["tts-1"] || chat["text-embedding-3-small"] || len(chat) != len(ids) {
		t.Errorf("--json chat: %v", chat)
	}
}

// TestColumnsAreOneWidth: every cell of a column has one width, at least
// its heading's, whatever figures the models have, so joined rows line up.
func TestColumnsAreOneWidth(t *testing.T) {
	in, out := 1234.5, 0.0001
	tab := models.NewTable(map[string]models.Override{"big": {InputPrice: &in, OutputPrice: &out}}, "config.toml")
	cols := modellist.Columns(tab, []string{"gpt-5", "big", "unknown", "gpt-4.1"})
	heads := modellist.HeadCells(cols)
	for j := range modellist.Heads {
		w := len([]rune(heads[j]))
		for i, r := range cols {
			if n := len([]rune(r[j])); n != w {
				t.Errorf("row %d column %s is %d wide, its heading %d: %q", i, modellist.Heads[j], n, w, r[j])
			}
		}
	}
	if got := strings.Fields(modellist.Join(cols[1])); !slices.Equal(got, []string{"-", "1234.50", "1234.50", "0.0001"}) {
		t.Errorf("big: %q", got)
	}
	if !modellist.Known(cols) || modellist.Known(modellist.Columns(tab, []string{"unknown"})) {
		t.Error("Known")
	}
}
