package stream

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runnel/stream/sharedtest"
	"sort"
	"strings"
	"testing"
)

// deliberatelyGeneric are the spec's item types the table leaves to the
// generic entry, with the reason.
var deliberatelyGeneric = map[string]string{
	"item_reference": "input only: a reference to an item the server holds; nothing to show or search",
}

// specItemTypes returns the item types the Open Responses spec defines: the
// type enum of every schema in the output item union (ItemField) and the
// input item union (ItemParam).
func specItemTypes(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedtest.Dir(t), "fixtures", "spec", "openresponses-openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	type schema struct {
		OneOf []struct {
			Ref string `json:"$ref"`
		} `json:"oneOf"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	var spec struct {
		Components struct {
			Schemas map[string]schema `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}
	// enums collects every "enum" under a type property (plain, or in anyOf).
	var enums func(raw json.RawMessage) []string
	enums = func(raw json.RawMessage) []string {
		var p struct {
			Enum  []string          `json:"enum"`
			AnyOf []json.RawMessage `json:"anyOf"`
		}
		_ = json.Unmarshal(raw, &p)
		out := p.Enum
		for _, a := range p.AnyOf {
			out = append(out, enums(a)...)
		}
		return out
	}
	seen := map[string]bool{}
	for _, union := range []string{"ItemField", "ItemParam"} {
		u, ok := spec.Components.Schemas[union]
		if !ok || len(u.OneOf) == 0 {
			t.Fatalf("spec has no %s union", union)
		}
		for _, ref := range u.OneOf {
			name := ref.Ref[strings.LastIndex(ref.Ref, "/")+1:]
			types := enums(spec.Components.Schemas[name].Properties["type"])
			if len(types) == 0 {
				t.Fatalf("%s member %s has no type enum", union, name)
			}
			for _, typ := range types {
				seen[typ] = true
			}
		}
	}
	var out []string
	for typ := range seen {
		out = append(out, typ)
	}
	sort.Strings(out)
	return out
}

// TestItemKindsCoverSpec: every item type of the Open Responses spec has an
// entry in the kind table, or is one of the deliberate generic ones.
func TestItemKindsCoverSpec(t *testing.T) {
	types := specItemTypes(t)
	if len(types) < 5 {
		t.Fatalf("found only %d item types in the spec: %v", len(types), types)
	}
	for _, typ := range types {
		k := KindFor(typ)
		if why, ok := deliberatelyGeneric[typ]; ok {
			if !k.Generic {
				t.Errorf("%s has a table entry now; drop it from deliberatelyGeneric (%s)", typ, why)
			}
			continue
		}
		if k.Generic {
			t.Errorf("spec item type %q has no entry in the kind table", typ)
		}
	}
}

// TestItemKindTableEntries: every entry names its type and is its type's
// entry. (Its title, icon and summary are the UI's: ui/itemlook's tests hold
// that table to this one's types.)
func TestItemKindTableEntries(t *testing.T) {
	for _, k := range ItemKinds() {
		if k.Type == "" || k.Generic {
			t.Errorf("entry %+v: needs a type and Generic unset", k)
		}
		if got := KindFor(k.Type); got.Type != k.Type || got.Generic {
			t.Errorf("KindFor(%q) is not its entry", k.Type)
		}
	}
}

// TestItemKindGenericEntries: a type not in the table still gets a class
// by its name, and searchable text by what it carries.
func TestItemKindGenericEntries(t *testing.T) {
	for _, c := range []struct {
		typ   string
		class Class
		tool  string
	}{
		{"hologram_call", ClassCall, "beam\n{\"to\":\"mars\"}\nok"},
		{"hologram_call_output", ClassOutput, "ok"},
		{"hologram", ClassOther, ""},
		{"", ClassOther, ""},
	} {
		k := KindFor(c.typ)
		if !k.Generic || k.Class != c.class {
			t.Errorf("KindFor(%q) = %+v", c.typ, k)
		}
		it := StoredItem(json.RawMessage(`{"type":"` + c.typ + `","name":"beam","arguments":"{\"to\":\"mars\"}","output":"ok"}`))
		if got := k.Text(it).Tool; got != c.tool {
			t.Errorf("%q: tool text %q, want %q", c.typ, got, c.tool)
		}
	}
}

// TestNewItemKindIsOneEntry: adding a kind is one entry in the table; the
// lookups, the list and the searchable text all follow it. (The UI and
// export tests iterate ItemKinds, so they cover a new entry too: it needs
// its look in ui/itemlook and its heading in session/export.)
func TestNewItemKindIsOneEntry(t *testing.T) {
	const typ = "hologram_call"
	if !KindFor(typ).Generic {
		t.Fatalf("%s is already in the table", typ)
	}
	kinds[typ] = ItemKind{Type: typ, Class: ClassCall} // the class: the rest follows
	t.Cleanup(func() { delete(kinds, typ) })

	k := KindFor(typ)
	if k.Generic || k.Class != ClassCall {
		t.Errorf("KindFor ignores the new entry: %+v", k)
	}
	listed := false
	for _, e := range ItemKinds() {
		listed = listed || e.Type == typ
	}
	if !listed {
		t.Error("ItemKinds does not list the new entry")
	}
	it := StoredItem(json.RawMessage(`{"type":"hologram_call","arguments":"mars","status":"completed"}`))
	if got := k.Text(it).Tool; got != "mars" {
		t.Errorf("text %q: a call is searchable by its arguments", got)
	}

	kinds[typ] = ItemKind{Type: typ, Class: ClassCall,
		text: func(it *Item) Searchable { return Searchable{Tool: "beam " + it.Arguments} }}
	k = KindFor(typ)
	if got := k.Text(it).Tool; got != "beam mars" {
		t.Errorf("own text %q", got)
	}
}

// TestItemKindsOnRealFixtures: every item of every recorded stream (real,
// real2, real3) has its searchable text sanitized, and the stored form of the
// item (its JSON, read back leniently) has the same kind and the same text.
func TestItemKindsOnRealFixtures(t *testing.T) {
	items, types := 0, map[string]bool{}
	eachRealItem(t, func(path string, it *Item) {
		items++
		types[it.Type] = true
		where := filepath.Base(path) + " " + it.Type
		k := KindFor(it.Type)
		txt := k.Text(it)
		for _, col := range []string{txt.Prompt, txt.Answer, txt.Reasoning, txt.Tool} {
			if Sanitize(col) != col || strings.ContainsAny(col, "\x1b\x07\u009b") {
				t.Errorf("%s: searchable text not sanitized: %q", where, col)
			}
		}
		stored := StoredItem(it.JSON())
		if stored == nil {
			t.Errorf("%s: its JSON does not read back", where)
			return
		}
		if KindFor(stored.Type).Type != k.Type {
			t.Errorf("%s: stored as kind %q", where, stored.Type)
		}
		if got := KindFor(stored.Type).Text(stored); got != txt {
			t.Errorf("%s: stored text differs\n live %+v\nstored %+v", where, txt, got)
		}
	})
	if items < 300 || len(types) < 15 {
		t.Errorf("only %d items of %d types: the fixtures did not replay", items, len(types))
	}
}

// TestItemKindTextHostile: names, arguments and errors holding escape
// sequences and newlines make sanitized searchable text.
func TestItemKindTextHostile(t *testing.T) {
	evil := "\x1b]52;c;cHduZWQ=\x07a\x1b[2J\nb\u202e\x9b31m"
	q, _ := json.Marshal(evil)
	for _, k := range append(ItemKinds(), KindFor("hologram_call"), KindFor("x_output"), KindFor("x")) {
		raw := `{"type":"` + k.Type + `","role":"assistant","name":` + string(q) + `,"server_label":` + string(q) +
			`,"arguments":` + string(q) + `,"input":` + string(q) + `,"code":` + string(q) + `,"status":` + string(q) +
			`,"output":` + string(q) + `,"error":{"message":` + string(q) + `},"content":[{"type":"output_text","text":` + string(q) + `}]` +
			`,"summary":[{"type":"summary_text","text":` + string(q) + `}],"action":{"commands":[` + string(q) + `],"query":` + string(q) + `}` +
			`,"operation":{"path":` + string(q) + `,"diff":` + string(q) + `},"revised_prompt":` + string(q) + `}`
		txt := k.Text(StoredItem(json.RawMessage(raw)))
		for _, col := range []string{txt.Prompt, txt.Answer, txt.Reasoning, txt.Tool} {
			if Sanitize(col) != col || strings.Contains(col, "\x1b") {
				t.Errorf("%s: text %q", k.Type, col)
			}
		}
	}
}

// TestProgramAndVendorItems: programmatic tool calling's program is a call
// searchable by its code and its output answers it by call_id with its
// result; a provider's own item ("openrouter:web_search") is a call
// searchable by what its action names; a type that only looks like one is
// not.
func TestProgramAndVendorItems(t *testing.T) {
	prog := StoredItem(json.RawMessage(`{"type":"program","call_id":"call_p","code":"text(await tools.f({}))"}`))
	out := StoredItem(json.RawMessage(`{"type":"program_output","call_id":"call_p","result":"{\"units\":42}"}`))
	if KindFor("program").Class != ClassCall || KindFor("program_output").Class != ClassOutput || out.CallID != prog.CallID {
		t.Errorf("program %v, program_output %v", KindFor("program").Class, KindFor("program_output").Class)
	}
	if got := KindFor(prog.Type).Text(prog).Tool; got != "text(await tools.f({}))" {
		t.Errorf("program text %q", got)
	}
	if got := out.OutputText(); got != `{"units":42}` || KindFor(out.Type).Text(out).Tool != got {
		t.Errorf("program_output text %q", got)
	}
	ws := StoredItem(json.RawMessage(`{"type":"openrouter:web_search","status":"completed","action":{"type":"search","query":"tallest \u001b[2Jpeak"}}`))
	if k := KindFor(ws.Type); k.Class != ClassCall || k.Text(ws).Tool != "tallest peak" {
		t.Errorf("openrouter:web_search: class %v, text %q", k.Class, k.Text(ws).Tool)
	}
	for _, typ := range []string{"openrouter:", ":x", "weird\x1b]8;;https://e.example/:x", "Open Router:x"} {
		if KindFor(typ).Class == ClassCall {
			t.Errorf("%q is taken for a provider's tool call", typ)
		}
	}
}
