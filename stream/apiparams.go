package stream

// This file reads which request parameters an error body names, by its
// structure rather than its wording: OpenAI's error.param, a FastAPI/
// pydantic detail list's loc, a zod issue list's path (responses.js), and a
// name the message quotes ('previous_response_id', `include`). What a
// refusal means for the request (drop it, send the history, fail) is the
// turn engine's call (session/negotiate.go); this file only reads.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ParamName is one request parameter an error names.
type ParamName struct {
	// Path is the parameter as a path into the request body, dots between
	// fields and [i] for array elements: "previous_response_id",
	// "text.verbosity", "input[1].type". pydantic's leading "body" is
	// dropped. Sanitized, at most 120 runes.
	Path string
	// Message is the server's words about it (one line, sanitized).
	Message string
	// Received is the value the server says it got, when it says one
	// (zod's received: "reasoning"); "" otherwise.
	Received string
}

// maxParamNames bounds how many names one error keeps.
const maxParamNames = 16

// Refusal reports whether the error is of the kind that refuses a
// parameter: a 400 or a 422.
func (e *APIError) Refusal() bool {
	return e.Status == http.StatusBadRequest || e.Status == http.StatusUnprocessableEntity
}

// quotedRE finds a parameter-like name the message quotes: 'x', "x", `x`.
var quotedRE = regexp.MustCompile("['\"`]([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*|\\[[0-9]+\\])*)['\"`]")

// nameMessage adds the names the message quotes, after the structural ones.
func (e *APIError) nameMessage() {
	if e.Param != "" && !slices.ContainsFunc(e.Names, func(n ParamName) bool { return n.Path == e.Param }) {
		e.Names = append([]ParamName{{Path: paramPath(e.Param), Message: e.Message}}, e.Names...)
	}
	said := e.said()
	for _, m := range quotedRE.FindAllStringSubmatch(said, maxParamNames) {
		e.addName(ParamName{Path: paramPath(m[1]), Message: said})
	}
}

func (e *APIError) addName(n ParamName) {
	if n.Path == "" || len(e.Names) >= maxParamNames {
		return
	}
	for _, have := range e.Names {
		if have.Path == n.Path {
			return
		}
	}
	e.Names = append(e.Names, n)
}

// paramPath makes a server's parameter name a path: sanitized, short, and
// without pydantic's "body." prefix.
func paramPath(p string) string {
	p = truncateRunes(SanitizeLine(strings.TrimSpace(p)), 120)
	p = strings.TrimPrefix(p, "body.")
	if p == "body" {
		return ""
	}
	return p
}

// Mentions reports whether the error's message quotes the parameter name
// as a field: as a word of its own (not part of a longer name), as
// OpenRouter's "store: true is not supported" does. The caller asks only
// about parameters it sent.
func (e *APIError) Mentions(name string) bool {
	return mentionAt(e.said(), name) >= 0
}

// MentionAt is where the message first quotes name as a field, -1 if
// nowhere (see Mentions); the earliest of several names is the one meant.
func (e *APIError) MentionAt(name string) int { return mentionAt(e.said(), name) }

func mentionAt(msg, name string) int {
	if name == "" {
		return -1
	}
	m, n := strings.ToLower(msg), strings.ToLower(name)
	for from := 0; from < len(m); {
		i := strings.Index(m[from:], n)
		if i < 0 {
			return -1
		}
		i += from
		if !inLongerName(m, i, i+len(n)) {
			return i
		}
		from = i + 1
	}
	return -1
}

// inLongerName reports whether m[i:end] is part of a longer name: a name
// byte touches it, or a dot joins it to one ("reasoning" in
// "reasoning.summary"; a sentence's full stop, and pydantic's "body.",
// do not).
func inLongerName(m string, i, end int) bool {
	if i > 0 && (nameByte(m[i-1]) || m[i-1] == '.' && i > 1 && nameByte(m[i-2]) && !strings.HasSuffix(m[:i], "body.")) {
		return true
	}
	return end < len(m) && (nameByte(m[end]) || m[end] == '.' && end+1 < len(m) && nameByte(m[end+1]))
}

// nameByte reports whether b may be part of a parameter name (m is lower case).
func nameByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

// zodIssue is one issue of a zod error list (responses.js answers a body
// its schema refuses with {"success":false,"error":[issues…]}).
type zodIssue struct {
	Code        string          `json:"code"`
	Path        []any           `json:"path"`
	Message     string          `json:"message"`
	Received    json.RawMessage `json:"received"`
	Keys        []string        `json:"keys"`
	UnionErrors []struct {
		Issues []zodIssue `json:"issues"`
	} `json:"unionErrors"`
}

// valueCodes are zod's codes for a value the client sent that is not
// allowed (as opposed to one that is missing or of another type): the
// issue that names what was sent.
var valueCodes = []string{"invalid_enum_value", "invalid_literal", "unrecognized_keys", "invalid_union_discriminator"}

// zodNames reads a zod issue list: the leaf issues, those about a value
// the client sent first, then the deepest path first. The message of the
// first is the error's message (the first issue in a union's body is often
// about another branch: "Expected string, received array").
func zodNames(raw json.RawMessage) (names []ParamName, message string) {
	var issues []zodIssue
	if len(raw) == 0 || json.Unmarshal(raw, &issues) != nil {
		return nil, ""
	}
	type leaf struct {
		ParamName
		value bool
		depth int
	}
	var leaves []leaf
	var walk func([]zodIssue, int)
	walk = func(list []zodIssue, depth int) {
		if depth > 8 {
			return
		}
		for _, is := range list {
			if len(is.UnionErrors) > 0 {
				for _, u := range is.UnionErrors {
					walk(u.Issues, depth+1)
				}
				continue
			}
			base := zodPath(is.Path)
			received := jsonScalar(is.Received)
			value := slices.Contains(valueCodes, is.Code)
			if is.Code == "unrecognized_keys" {
				for _, k := range is.Keys {
					p := strings.TrimPrefix(base+"."+k, ".")
					leaves = append(leaves, leaf{ParamName{Path: paramPath(p), Message: SanitizeLine(is.Message)}, true, len(is.Path) + 1})
				}
				continue
			}
			if is.Code == "invalid_type" {
				received = "" // a type's name, not the value sent
			}
			leaves = append(leaves, leaf{ParamName{Path: paramPath(base), Message: SanitizeLine(is.Message), Received: truncateRunes(SanitizeLine(received), 80)}, value, len(is.Path)})
			if len(leaves) > 256 {
				return
			}
		}
	}
	walk(issues, 0)
	slices.SortStableFunc(leaves, func(a, b leaf) int {
		if a.value != b.value {
			if a.value {
				return -1
			}
			return 1
		}
		return b.depth - a.depth
	})
	seen := map[string]bool{}
	for _, l := range leaves {
		if l.Path == "" || seen[l.Path] || len(names) == maxParamNames {
			continue
		}
		seen[l.Path] = true
		names = append(names, l.ParamName)
	}
	if len(names) > 0 {
		message = names[0].Path + ": " + names[0].Message
	}
	return names, message
}

// zodPath renders a zod path: ["input",1,"type"] is "input[1].type".
func zodPath(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch p := p.(type) {
		case float64:
			b.WriteString("[" + strconv.FormatFloat(p, 'f', -1, 64) + "]")
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(fmt.Sprint(p))
		}
	}
	return b.String()
}

// pydanticNames reads a FastAPI/pydantic detail list's locs as paths.
func pydanticNames(raw json.RawMessage) []ParamName {
	var list []struct {
		Loc []any  `json:"loc"`
		Msg string `json:"msg"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []ParamName
	for _, d := range list {
		if len(out) == maxParamNames {
			break
		}
		if p := paramPath(zodPath(d.Loc)); p != "" {
			out = append(out, ParamName{Path: p, Message: SanitizeLine(d.Msg)})
		}
	}
	return out
}
