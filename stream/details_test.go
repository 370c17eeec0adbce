package stream

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestDetailsTyped: the typed accessors read what the kinds carry.
func TestDetailsTyped(t *testing.T) {
	it := StoredItem(json.RawMessage(`{"type":"web_search_call","action":{"type":"search","query":"q1","queries":["a","b"],"sources":[{"url":"https://x"},{"type":"api"}]}}`))
	if a := it.Details().Action; a.Type != "search" || a.Query != "q1" || !reflect.DeepEqual(a.Sources, []string{"https://x"}) {
		t.Errorf("web search action %+v", a)
	}
	if q := it.WebQueries(); !reflect.DeepEqual(q, []string{"a", "b"}) {
		t.Errorf("queries %q", q)
	}

	it = StoredItem(json.RawMessage(`{"type":"file_search_call","queries":["x"],"results":[{"file_id":"f1","filename":"a.md","score":0.5,"text":"hit"},7]}`))
	if d := it.Details(); !d.HasResults || len(d.Results) != 1 || d.Results[0] != (FileResult{FileID: "f1", Filename: "a.md", Text: "hit", Score: "0.5"}) {
		t.Errorf("file search %+v", d)
	}
	if d := StoredItem(json.RawMessage(`{"type":"file_search_call","results":null}`)).Details(); d.HasResults {
		t.Error("null results read as an array")
	}

	it = StoredItem(json.RawMessage(`{"type":"local_shell_call","action":{"type":"exec","command":["ls","-l"]}}`))
	if c := it.ShellCommands(); !reflect.DeepEqual(c, []string{"ls -l"}) {
		t.Errorf("local shell commands %q", c)
	}

	it = StoredItem(json.RawMessage(`{"type":"computer_call","action":{"type":"click","button":"left","x":10,"keys":["CTRL","C"],"path":[{},{}]}}`))
	if a := it.Details().Action; a.Value("button") != "left" || a.Value("x") != "10" || a.Value("keys") != `["CTRL","C"]` || !a.HasPath || a.Points != 2 {
		t.Errorf("computer action %+v", a)
	}

	it = StoredItem(json.RawMessage(`{"type":"shell_call_output","output":[{"stdout":"hi\n","stderr":"warn","outcome":{"type":"exit","exit_code":3}}]}`))
	if c := it.ShellChunks(); len(c) != 1 || c[0] != (ShellChunk{Stdout: "hi\n", Stderr: "warn", Outcome: "exit", ExitCode: "3"}) {
		t.Errorf("shell chunks %+v", c)
	}
	streamed := &Item{Type: "shell_call_output", ShellOutput: []json.RawMessage{json.RawMessage(`"bare"`), json.RawMessage(`{"stderr":"e"}`), json.RawMessage(`[{"stdout":"x"}]`)}}
	if c := streamed.ShellChunks(); len(c) != 3 || c[0].Stdout != "bare" || c[1].Stderr != "e" || c[2].Stdout != "x" {
		t.Errorf("streamed shell chunks %+v", c)
	}

	it = StoredItem(json.RawMessage(`{"type":"apply_patch_call","operation":{"type":"create_file","path":"a.md","diff":"+x"}}`))
	if it.PatchDiff() != "+x" || it.Details().Operation.Path != "a.md" {
		t.Errorf("patch %+v", it.Details().Operation)
	}
	it.Diff = "+streamed"
	if it.PatchDiff() != "+streamed" {
		t.Error("the streamed diff does not win")
	}

	it = StoredItem(json.RawMessage(`{"type":"mcp_approval_response","approve":true,"reason":"ok","approval_request_id":"r1"}`))
	if d := it.Details(); !d.Approve || d.Reason != "ok" || it.ApprovalRequestID != "r1" {
		t.Errorf("approval %+v", d)
	}
}

// TestDetailsFollowRaw: the decoded details follow the item's Raw.
func TestDetailsFollowRaw(t *testing.T) {
	it := StoredItem(json.RawMessage(`{"type":"mcp_list_tools","tools":null}`))
	if it.Details().HasTools {
		t.Fatal("no tools yet")
	}
	it.Raw = json.RawMessage(`{"type":"mcp_list_tools","tools":[{"name":"a"},{"name":"b","description":"d"}]}`)
	if d := it.Details(); !d.HasTools || len(d.Tools) != 2 || d.Tools[1] != (ToolInfo{Name: "b", Description: "d"}) {
		t.Errorf("tools %+v", d.Tools)
	}
}

// TestDetailsLenient: members of unexpected JSON types read as empty and
// never make an item unreadable.
func TestDetailsLenient(t *testing.T) {
	for _, raw := range []string{
		`{"type":"web_search_call","action":"search"}`,
		`{"type":"web_search_call","action":{"queries":{"a":1},"sources":"x","query":5}}`,
		`{"type":"file_search_call","queries":3,"results":{"a":1}}`,
		`{"type":"code_interpreter_call","outputs":[1,"x",{"type":7}]}`,
		`{"type":"apply_patch_call","operation":[1]}`,
		`{"type":"mcp_list_tools","tools":[1,{"name":2}]}`,
		`{"type":"image_generation_call","result":12,"size":1024,"approve":"yes"}`,
	} {
		it := StoredItem(json.RawMessage(raw))
		if it == nil {
			t.Fatalf("%s: unreadable", raw)
		}
		_ = it.Details()
		_ = KindFor(it.Type).Text(it)
	}
	if StoredItem(json.RawMessage(`[1]`)) != nil || StoredItem(json.RawMessage(`nope`)) != nil {
		t.Error("a non-object read as an item")
	}
}

func TestOutputAndErrorText(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`"plain"`, "plain"},
		{`null`, ""},
		{`{"b":1, "a":2}`, `{"b":1,"a":2}`},
		{`[{"type":"input_text","text":"t"},{"type":"refusal","refusal":"no"},{"stdout":"o\n","stderr":"e\n"},{"type":"input_image"},{"type":"input_file","filename":"f.pdf"},"s",3]`,
			"t\nRefused: no\no\ne\n[image]\n[file f.pdf]\ns\n3"},
	} {
		if got := OutputText(json.RawMessage(c.raw)); got != c.want {
			t.Errorf("OutputText(%s) = %q, want %q", c.raw, got, c.want)
		}
	}
	for _, c := range []struct{ raw, want string }{
		{`"boom"`, "boom"},
		{`{"code":-32602,"message":"bad"}`, "-32602: bad"},
		{`{"type":"http_error","message":"gone"}`, "http_error: gone"},
		{`{"message":"only"}`, "only"},
		{`{"detail":"x"}`, `{"detail":"x"}`},
		{`null`, ""},
	} {
		if got := ErrorText(json.RawMessage(c.raw)); got != c.want {
			t.Errorf("ErrorText(%s) = %q, want %q", c.raw, got, c.want)
		}
	}
}

// FuzzStoredItem: no stored item makes reading it, its details or its
// searchable text panic, and the text is sanitized.
func FuzzStoredItem(f *testing.F) {
	for _, s := range []string{
		`{"type":"mcp_call","server_label":"s","name":"n","arguments":{"a":1},"output":[{"type":"text","text":"x"}],"error":{"code":1}}`,
		`{"type":"shell_call_output","output":[{"stdout":"a","outcome":{"type":"exit","exit_code":0}}]}`,
		`{"role":"user","content":"hi"}`,
		`{"type":"computer_call","action":{"type":"drag","path":[{"x":1}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		it := StoredItem(data)
		if it == nil {
			return
		}
		_ = it.Details()
		_, _, _, _ = it.ShellCommands(), it.ShellChunks(), it.OutputText(), it.ErrorText()
		txt := KindFor(it.Type).Text(it)
		if Sanitize(txt.Tool) != txt.Tool || Sanitize(txt.Prompt) != txt.Prompt {
			t.Fatalf("text %+v", txt)
		}
	})
}
