package markdown

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"runnel/stream/costtest"
	"runnel/theme"
)

// codeSnippets are closed code blocks in many languages, each with tokens
// a lexer matches across lines (block comments, raw and multi-line
// strings, heredocs, continued lines) and ordinary lines around them.
var codeSnippets = map[string]string{
	"go":             "// Package x does y.\npackage x\n\n/* a block\n   comment */\nvar q = `raw\nstring`\n\nfunc f(a, b int) int {\n\tif a > b { // it's bigger\n\t\treturn a << 2\n\t}\n\ts := \"a \\\" quote\"\n\treturn b\n}\n",
	"python":         "def f(x):\n    \"\"\"Return x.\n\n    Longer text here.\n    \"\"\"\n    s = '''multi\n    line'''\n    return x  # done\n\nprint(f(1), \"it's\")\n",
	"javascript":     "const a = `template\n${x} literal`;\n/* c\n */\nfunction g(y) {\n  return y * 2; // twice\n}\n",
	"typescript":     "interface A {\n  x: number;\n}\nconst f = (a: A): string => `${a.x}`;\n",
	"rust":           "fn main() {\n    let s = \"multi\nline\";\n    let r = r#\"raw\n\"#;\n    println!(\"{}\", s);\n}\n",
	"bash":           "cat <<EOF\nhello $USER\nEOF\necho \"a\nb\"\nls -la \\\n  /tmp\nif [[ -f x ]]; then echo yes; fi\n",
	"c":              "#define MAX(a, b) \\\n  ((a) > (b) ? (a) : (b))\nint main(void) {\n  /* multi\n     line */\n  return 0;\n}\n",
	"html":           "<div class=\"a\">\n  <!-- a\n  comment -->\n  <p>text</p>\n</div>\n",
	"css":            "a {\n  color: red;\n}\n.b { margin: 0 }\n",
	"json":           "{\n  \"a\": [1, 2, 3],\n  \"b\": {\"c\": \"d\"}\n}\n",
	"yaml":           "a: 1\nb:\n  - x\n  - y\nc: |\n  block\n  text\n",
	"sql":            "SELECT a, b\nFROM t\nWHERE c = 'x\ny'\nORDER BY a;\n",
	"cpp":            "#include <string>\nint main() {\n  std::string s = R\"(raw\nstring)\";\n  /* c\n */ return 0;\n}\n",
	"java":           "/** Doc\n * comment */\nclass A {\n  String s = \"\"\"\n    text block\n    \"\"\";\n  int x = 1; // ok\n}\n",
	"ruby":           "=begin\ndoc\n=end\ndef f\n  puts \"hi\"\nend\n",
	"lua":            "--[[ long\ncomment ]]\nlocal s = [[long\nstring]]\nprint(s)\n",
	"":               "plain text\n  with \"quotes\n and more\n",
	"nosuchlanguage": "x = 1\ny = \"2\n",
}

var fenceRE = regexp.MustCompile("(?ms)^```([a-z]*)\n(.*?)^```\n")

// TestLinesHighlightAsTheirBlock: a closed code block drawn from its lines'
// rows (each line highlighted once, as a stream highlights them) looks as
// the block highlighted whole: on every code block of the real answers and
// the generated ones, and on snippets in many languages with tokens that
// span lines. The generated Go and Python blocks (the bench's languages)
// must take the lines' path, or it proves nothing.
func TestLinesHighlightAsTheirBlock(t *testing.T) {
	t.Parallel() // a property run with a renderer (or none) of its own; it counts and times nothing
	type block struct {
		lang, code string
		lines      bool // must be drawn from its lines
	}
	var blocks []block
	for lang, code := range codeSnippets {
		blocks = append(blocks, block{lang: lang, code: code})
	}
	for _, m := range fenceRE.FindAllStringSubmatch(realAnswers(t, 64<<10)+genAnswer(64<<10)+"```go\n"+genCode(8<<10)+"```\n", -1) {
		blocks = append(blocks, block{m[1], m[2], m[1] == "go" || m[1] == "python"})
	}
	for _, style := range []string{"dark", "light"} {
		st := theme.Dark()
		if style == "light" {
			st = theme.Light()
		}
		r := newTestRenderer(t, theme.New(st).Glamour(), 80)
		for _, b := range blocks {
			lines := strings.SplitAfter(b.code, "\n")
			if lines[len(lines)-1] == "" {
				lines = lines[:len(lines)-1]
			}
			whole := r.highlightWhole(b.lang, b.code).rows
			got := r.closedRows(b.lang, lines)
			if !slices.Equal(got, whole) {
				t.Errorf("%s: %s block drawn from its lines differs from it highlighted whole:\n%q\nwant\n%q", style, b.lang, got, whole)
			}
			if b.lines && !fromLines(r, b.lang, lines) {
				t.Errorf("%s: a generated %s block was highlighted whole, not from its lines:\n%s", style, b.lang, b.code)
			}
		}
	}
}

// fromLines reports whether closedRows draws a block from its lines.
func fromLines(r *Renderer, lang string, lines []string) bool {
	if !lineLexers[r.lexer(lang).Config().Name] {
		return false
	}
	for _, l := range lines {
		if !r.lines.get(lang, l, r.highlightLine).clean || mayGoOn(l) {
			return false
		}
	}
	return true
}

// TestMayGoOn: lines that may open a token going on past them, and lines
// that close what they open.
func TestMayGoOn(t *testing.T) {
	for line, want := range map[string]bool{
		"x := 1\n":                    false,
		"s := \"a \\\" b\"\n":         false,
		"/* one line */\n":            false,
		"\"\"\"Docstring.\"\"\"\n":    false,
		"if [[ -f x ]]; then\n":       false,
		"/* opens\n":                  true,
		"\"\"\"Opens a docstring\n":   true,
		"q := `raw\n":                 true,
		"s = '''\n":                   true,
		"// it's a comment\n":         true, // an apostrophe: a yes that costs only the whole highlight
		"cat <<EOF\n":                 true,
		"#define A \\\n":              true,
		"<!-- opens\n":                true,
		"local s = [[long\n":          true,
		"=begin\n":                    true,
		"let s = \"multi\r\n":         true,
		"x := 1 // no quote here\r\n": false,
	} {
		if got := mayGoOn(line); got != want {
			t.Errorf("mayGoOn(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestStreamHighlightsEachLineOnce: the lines of a code block are
// highlighted once each as they stream, though a frame is drawn after
// every byte (a line still coming is drawn in the plain code style), and
// the block's close, its whole render when the next block settles it, and
// a whole render of the message highlight nothing again; the view equals
// the whole render.
func TestStreamHighlightsEachLineOnce(t *testing.T) {
	r := newTestRenderer(t, theme.New(theme.Dark()).Glamour(), 80)
	code := "func f(a int) int {\n\tif a > 1 {\n\t\treturn a * 2\n\t}\n\treturn a\n}\n"
	src := "Some code:\n\n```go\n" + code + "```\n\nAfter it, a paragraph.\n\n## Next\n\nMore"
	s := NewStream(r)
	closing := strings.Index(src, "```\n\nAfter")
	for i := range closing {
		s.Append(src[i : i+1])
		s.View()
	}
	streamed := r.lines.misses
	if lines := strings.Count(code, "\n"); streamed != lines {
		t.Fatalf("streaming the block highlighted %d times, want once per line (%d)", streamed, lines)
	}
	s.Append(src[closing:])
	got := s.View()
	want, err := r.Render(src)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("the view is not the whole render:\n%s\nwant\n%s", got, want)
	}
	if r.lines.misses != streamed {
		t.Fatalf("closing the block and rendering it whole highlighted %d more times, want none", r.lines.misses-streamed)
	}
}

// TestStreamingCodeCostsOneRender: streaming two 16 KB Go blocks at the
// chat's pace, with a new renderer, costs at most 1.7 whole renders of
// them (1.1–1.2 measured; 2.1–2.3 while a closed block was highlighted
// again whole).
func TestStreamingCodeCostsOneRender(t *testing.T) {
	costtest.SkipIfRace(t)
	block := "Some code:\n\n```go\n" + genCode(16<<10) + "```\n\nAfter it, a paragraph.\n\n"
	doc := block + block
	costtest.AtMost(t, "streaming code, in whole renders", wholeFresh(t, doc), streamFreshWork(t, doc, chatPerFrame), 1.7)
}
