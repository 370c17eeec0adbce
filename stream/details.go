package stream

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Details are the kind-specific members of an item that Item's own fields do
// not cover: what a web search looked for, a file search's results, a code
// interpreter's outputs, a patch's operation, the tools an MCP server lists,
// a generated image. They are decoded leniently from Raw (see Item.Details):
// a member of an unexpected JSON type reads as its zero value and never
// makes the item malformed. Strings are as received (not sanitized).
type Details struct {
	Action     Action       // web_search_call, shell_call, local_shell_call, computer_call
	Queries    []string     // file_search_call
	Results    []FileResult // file_search_call
	HasResults bool         // results is an array (it is null while searching)
	Outputs    []CodeOutput // code_interpreter_call
	Operation  Operation    // apply_patch_call
	Tools      []ToolInfo   // mcp_list_tools, tool_search_output
	HasTools   bool         // tools is an array

	Result        string // image_generation_call: the final image, base64; program_output: what the program returned
	OutputFormat  string // image_generation_call: png, webp, jpeg…
	Size          string // image_generation_call, as written (a string or a number)
	Quality       string
	Background    string
	RevisedPrompt string

	Approve bool   // mcp_approval_response
	Reason  string // mcp_approval_response

	Encrypted bool // reasoning, compaction: carries encrypted_content
}

// Action is the action of a web search, shell or computer call.
type Action struct {
	Type     string   // search, open_page, find_in_page; exec; click, type…
	Query    string   // web search
	Queries  []string // web search
	URL      string   // web search open_page / find_in_page
	Pattern  string   // web search find_in_page
	Sources  []string // web search: the sources' URLs
	Commands []string // shell_call: commands
	Argv     []string // local_shell_call: one command as an argv array (action.command)

	Points  int  // computer_call: the length of path
	HasPath bool // computer_call: path is an array
	values  map[string]json.RawMessage
}

// Value returns a member of the action as text: a string as is, a number or
// boolean as written, anything else as compact JSON; "" when absent. It is
// for the action members that differ by action type (computer_call's button,
// x, y, text, keys, scroll_x…).
func (a Action) Value(key string) string { return JSONText(a.values[key]) }

// FileResult is one result of a file search.
type FileResult struct {
	FileID, Filename, Text string
	Score                  string // as written, "" when absent
}

// CodeOutput is one output of a code interpreter call.
type CodeOutput struct {
	Type string // logs, image, …
	Logs string
	URL  string
}

// Operation is an apply_patch_call's operation.
type Operation struct {
	Type, Path, Diff string
}

// ToolInfo is one tool an MCP server or a tool search lists.
type ToolInfo struct {
	Name, Type, Description string
}

// wireDetails is every member Details reads, each kept raw so that any JSON
// type decodes.
type wireDetails struct {
	Action           json.RawMessage `json:"action"`
	Queries          json.RawMessage `json:"queries"`
	Results          json.RawMessage `json:"results"`
	Outputs          json.RawMessage `json:"outputs"`
	Operation        json.RawMessage `json:"operation"`
	Tools            json.RawMessage `json:"tools"`
	Result           json.RawMessage `json:"result"`
	OutputFormat     json.RawMessage `json:"output_format"`
	Size             json.RawMessage `json:"size"`
	Quality          json.RawMessage `json:"quality"`
	Background       json.RawMessage `json:"background"`
	RevisedPrompt    json.RawMessage `json:"revised_prompt"`
	Approve          json.RawMessage `json:"approve"`
	Reason           json.RawMessage `json:"reason"`
	EncryptedContent json.RawMessage `json:"encrypted_content"`
}

// decodeDetails reads the Details of a raw item; anything that is not an
// object has none.
func decodeDetails(raw json.RawMessage) Details {
	var w wireDetails
	if json.Unmarshal(raw, &w) != nil {
		return Details{}
	}
	d := Details{
		Action:        decodeAction(w.Action),
		Queries:       strings1(w.Queries),
		Result:        JSONString(w.Result),
		OutputFormat:  JSONString(w.OutputFormat),
		Size:          JSONText(w.Size),
		Quality:       JSONText(w.Quality),
		Background:    JSONText(w.Background),
		RevisedPrompt: JSONString(w.RevisedPrompt),
		Approve:       string(bytes.TrimSpace(w.Approve)) == "true",
		Reason:        JSONString(w.Reason),
		Encrypted:     !isJSONNull(w.EncryptedContent),
	}
	if isArray(w.Results) {
		d.HasResults = true
		for _, r := range objects(w.Results) {
			d.Results = append(d.Results, FileResult{FileID: JSONString(r["file_id"]), Filename: JSONString(r["filename"]), Text: JSONString(r["text"]), Score: numberText(r["score"])})
		}
	}
	for _, o := range objects(w.Outputs) {
		d.Outputs = append(d.Outputs, CodeOutput{Type: JSONString(o["type"]), Logs: JSONString(o["logs"]), URL: JSONString(o["url"])})
	}
	if op := object(w.Operation); op != nil {
		d.Operation = Operation{Type: JSONString(op["type"]), Path: JSONString(op["path"]), Diff: JSONString(op["diff"])}
	}
	if isArray(w.Tools) {
		d.HasTools = true
		for _, t := range objects(w.Tools) {
			d.Tools = append(d.Tools, ToolInfo{Name: JSONString(t["name"]), Type: JSONString(t["type"]), Description: JSONString(t["description"])})
		}
	}
	return d
}

func decodeAction(raw json.RawMessage) Action {
	m := object(raw)
	if m == nil {
		return Action{}
	}
	a := Action{
		Type: JSONString(m["type"]), Query: JSONString(m["query"]), Queries: strings1(m["queries"]),
		URL: JSONString(m["url"]), Pattern: JSONString(m["pattern"]),
		Commands: strings1(m["commands"]), Argv: strings1(m["command"]), values: m,
	}
	for _, s := range objects(m["sources"]) {
		if u := JSONString(s["url"]); u != "" {
			a.Sources = append(a.Sources, u)
		}
	}
	if isArray(m["path"]) {
		var pts []json.RawMessage
		_ = json.Unmarshal(m["path"], &pts)
		a.Points, a.HasPath = len(pts), true
	}
	return a
}

// Details returns the item's Details, decoded from Raw on the first call
// after Raw changed (not while decoding the stream, which most items never
// need). An item without Raw has none. Like every Item method it is for the
// goroutine that owns the item.
func (it *Item) Details() *Details {
	if it.details == nil || !sameSlice(it.detailsOf, it.Raw) {
		d := decodeDetails(it.Raw)
		it.details, it.detailsOf = &d, it.Raw
	}
	return it.details
}

func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// ShellCommands returns the commands of a shell call: streamed, else from
// the action; a local shell call's argv is one command, its words joined.
func (it *Item) ShellCommands() []string {
	switch {
	case len(it.Commands) > 0:
		return it.Commands
	case len(it.Details().Action.Commands) > 0:
		return it.Details().Action.Commands
	case len(it.Details().Action.Argv) > 0:
		return []string{strings.Join(it.Details().Action.Argv, " ")}
	}
	return nil
}

// PatchDiff returns an apply_patch_call's diff: streamed, else from its
// operation.
func (it *Item) PatchDiff() string {
	if it.Diff != "" {
		return it.Diff
	}
	return it.Details().Operation.Diff
}

// WebQueries returns what a web search looked for: its queries, else its
// one query.
func (it *Item) WebQueries() []string {
	a := it.Details().Action
	if len(a.Queries) > 0 {
		return a.Queries
	}
	if a.Query != "" {
		return []string{a.Query}
	}
	return nil
}

// OutputText returns a tool output as text (see OutputText), from Output,
// else from the streamed shell output chunks; an output item with neither
// that writes its result instead (program_output) gives that.
func (it *Item) OutputText() string {
	if it.Output == nil && len(it.ShellOutput) == 0 && strings.HasSuffix(it.Type, "_output") {
		return it.Details().Result
	}
	if it.Output != nil || len(it.ShellOutput) == 0 {
		return OutputText(it.Output)
	}
	var out []string
	for _, c := range it.ShellOutput {
		if t := OutputText(c); t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "")
}

// ErrorText returns the item's error as one line (see ErrorText).
func (it *Item) ErrorText() string { return ErrorText(it.Error) }

// ShellChunk is one piece of shell output: what the command wrote and, on
// the last piece, how it ended.
type ShellChunk struct {
	Stdout, Stderr string
	Outcome        string // exit, timeout or ""
	ExitCode       string // as written, for Outcome exit
}

// ShellChunks returns a shell output item's chunks: from Output (an array of
// chunks), else from the streamed deltas (each an object with stdout /
// stderr, an array of them, or a bare string taken as stdout).
func (it *Item) ShellChunks() []ShellChunk {
	var raws []json.RawMessage
	if isArray(it.Output) {
		raws = []json.RawMessage{it.Output}
	} else {
		raws = it.ShellOutput
	}
	var out []ShellChunk
	for _, raw := range raws {
		if s, ok := stringOf(raw); ok {
			if s != "" {
				out = append(out, ShellChunk{Stdout: s})
			}
			continue
		}
		objs := objects(raw)
		if objs == nil {
			if m := object(raw); m != nil {
				objs = []map[string]json.RawMessage{m}
			}
		}
		for _, o := range objs {
			c := ShellChunk{Stdout: JSONString(o["stdout"]), Stderr: JSONString(o["stderr"])}
			if oc := object(o["outcome"]); oc != nil {
				c.Outcome, c.ExitCode = JSONString(oc["type"]), JSONText(oc["exit_code"])
			}
			out = append(out, c)
		}
	}
	return out
}

// OutputText returns a tool output value as text: a string as is; an array
// of parts or shell chunks as one line per element (a part's text, "Refused:
// " and its refusal, a chunk's stdout and stderr, "[image]", "[file name]",
// else the element's JSON); any other value as compact JSON.
func OutputText(raw json.RawMessage) string {
	if !isArray(raw) {
		return JSONText(raw) // null, a string, any other value
	}
	var elems []json.RawMessage
	_ = json.Unmarshal(raw, &elems)
	lines := make([]string, 0, len(elems))
	for _, e := range elems {
		lines = append(lines, PartText(e))
	}
	return strings.Join(lines, "\n")
}

// PartText is the text of one content part or output element: a string, a
// part's text, "Refused: " and a refusal, a shell chunk's stdout and stderr,
// "[image]", "[file name]", else its JSON.
func PartText(raw json.RawMessage) string {
	if s, ok := stringOf(raw); ok {
		return s
	}
	p := object(raw)
	if p == nil {
		return JSONText(raw)
	}
	switch typ := JSONString(p["type"]); {
	case JSONString(p["text"]) != "":
		return JSONString(p["text"])
	case JSONString(p["refusal"]) != "":
		return "Refused: " + JSONString(p["refusal"])
	case p["stdout"] != nil || p["stderr"] != nil:
		return strings.TrimRight(JSONString(p["stdout"])+JSONString(p["stderr"]), "\n")
	case strings.Contains(typ, "image"):
		return "[image]"
	case strings.Contains(typ, "file"):
		return "[file " + JSONString(p["filename"]) + "]"
	}
	return JSONText(raw)
}

// ErrorText returns an error value as one line: a string, or an object's
// message (with its code or type in front when present), or compact JSON.
func ErrorText(raw json.RawMessage) string {
	if isJSONNull(raw) {
		return ""
	}
	if obj := object(raw); obj != nil {
		msg := JSONText(obj["message"])
		kind := JSONText(obj["code"])
		if kind == "" {
			kind = JSONText(obj["type"])
		}
		switch {
		case msg != "" && kind != "":
			return kind + ": " + msg
		case msg != "":
			return msg
		}
	}
	return JSONText(raw)
}

// JSONText returns a JSON value as text: a string's value, a number or
// boolean as written, anything else as compact JSON; "" for null or nothing.
func JSONText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if isJSONNull(raw) {
		return ""
	}
	if s, ok := stringOf(raw); ok {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// numberText returns a JSON number as written, else "".
func numberText(raw json.RawMessage) string {
	var n json.Number
	if raw = bytes.TrimSpace(raw); len(raw) == 0 || raw[0] == '"' || json.Unmarshal(raw, &n) != nil {
		return ""
	}
	return n.String()
}

// stringOf returns raw's value when it is a JSON string.
func stringOf(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// JSONString returns raw's value when it is a JSON string, else "".
func JSONString(raw json.RawMessage) string {
	s, _ := stringOf(raw)
	return s
}

// strings1 returns a JSON array's string elements, or a lone string as one.
func strings1(raw json.RawMessage) []string {
	if s, ok := stringOf(raw); ok {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil {
		return nil
	}
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		if s := JSONString(e); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func isArray(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '[' && json.Valid(raw)
}

// object returns a JSON object's members, nil for anything else.
func object(raw json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// objects returns the object elements of a JSON array, nil when raw is not
// an array.
func objects(raw json.RawMessage) []map[string]json.RawMessage {
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil {
		return nil
	}
	out := make([]map[string]json.RawMessage, 0, len(elems))
	for _, e := range elems {
		if m := object(e); m != nil {
			out = append(out, m)
		}
	}
	return out
}
