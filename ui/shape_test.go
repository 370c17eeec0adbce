package ui

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fzipp/gocyclo"
)

// Issue 29's limits on the shape of code in ui/ and its subpackages. They
// hold for non-test code only: test files (*_test.go) are exempt, and so are
// testdata folders.
//   - A type with behaviour (more than shapeBehaviour declared methods) has
//     at most shapeFields fields; plain records with at most shapeBehaviour
//     methods (KeyMap, Options) are exempt.
//   - No type declares more than shapeMethods methods.
//   - No function has a cyclomatic complexity over shapeComplexity
//     (gocyclo's measure; its //gocyclo:ignore directive is not honoured).
const (
	shapeBehaviour  = 5
	shapeFields     = 15
	shapeMethods    = 40
	shapeComplexity = 25
)

// The three rules, as a shapeKey names them.
const (
	ruleFields     = "fields"
	ruleMethods    = "methods"
	ruleComplexity = "complexity"
)

// shapeKey names one breach: the rule and what breaks it, "ui.Model" for a
// type or "ui.(*Model).update" for a function.
type shapeKey struct{ rule, name string }

// shapeFigure is one measure of a type or function, and where it is.
type shapeFigure struct {
	shapeKey
	figure int
	pos    string // file:line
	note   string // more about the figure: "6 methods" beside a field count
}

// shapeTypeCount is what a type declares: its fields and its methods.
type shapeTypeCount struct {
	fields, methods int
	pos             string
}

// measureShapes parses every non-test .go file under fsys (skipping testdata
// and folders the go tool ignores) and returns, for every type, its field
// count (rule "fields", noted with its method count) and method count (rule
// "methods"), and every function's complexity (rule "complexity"). root
// names the package at fsys's top; a subpackage is named by its folder.
func measureShapes(fsys fs.FS, root string) ([]shapeFigure, error) {
	fset := token.NewFileSet()
	types := map[string]*shapeTypeCount{}
	typeOf := func(name string) *shapeTypeCount {
		if types[name] == nil {
			types[name] = &shapeTypeCount{}
		}
		return types[name]
	}
	var out []shapeFigure
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if b := d.Name(); p != "." && (b == "testdata" || strings.HasPrefix(b, ".") || strings.HasPrefix(b, "_")) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := root
		if dir := path.Dir(p); dir != "." {
			pkg = dir
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) > 0 {
					recv := d.Recv.List[0].Type
					typeOf(pkg+"."+receiverBase(recv)).methods++
					name = "(" + receiverString(recv) + ")." + name
				}
				out = append(out, shapeFigure{
					shapeKey: shapeKey{ruleComplexity, pkg + "." + name},
					figure:   gocyclo.Complexity(d),
					pos:      position(fset, d.Pos()),
				})
			case *ast.GenDecl:
				out = append(out, packageFuncLits(fset, pkg, d)...)
				for _, sp := range d.Specs {
					ts, ok := sp.(*ast.TypeSpec)
					if !ok || ts.Assign.IsValid() {
						continue // an alias declares nothing of its own
					}
					tc := typeOf(pkg + "." + ts.Name.Name)
					tc.pos = position(fset, ts.Pos())
					if st, ok := ts.Type.(*ast.StructType); ok {
						for _, fl := range st.Fields.List {
							tc.fields += max(len(fl.Names), 1) // "a, b int" is two; an embedded field one
						}
					}
				}
			}
		}
		return nil
	})
	for name, tc := range types {
		out = append(out,
			shapeFigure{shapeKey{ruleFields, name}, tc.fields, tc.pos, fmt.Sprintf("%d methods", tc.methods)},
			shapeFigure{shapeKey{ruleMethods, name}, tc.methods, tc.pos, ""})
	}
	return out, err
}

// packageFuncLits measures the function literals of a package-level
// declaration (var f = func…, or a table of them), each on its own.
func packageFuncLits(fset *token.FileSet, pkg string, d *ast.GenDecl) []shapeFigure {
	var out []shapeFigure
	ast.Inspect(d, func(n ast.Node) bool {
		fl, ok := n.(*ast.FuncLit)
		if !ok {
			return true
		}
		pos := position(fset, fl.Pos())
		out = append(out, shapeFigure{
			shapeKey: shapeKey{ruleComplexity, pkg + ".func@" + pos},
			figure:   gocyclo.Complexity(fl),
			pos:      pos,
		})
		return false // its nested literals count in its own figure
	})
	return out
}

// receiverBase is a receiver's type name: "Model" for *Model or List[T].
func receiverBase(e ast.Expr) string {
	return strings.TrimPrefix(receiverString(e), "*")
}

// receiverString spells a receiver's type as gocyclo does: "*Model", "List".
func receiverString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return "*" + receiverString(x.X)
	case *ast.IndexExpr:
		return receiverString(x.X)
	case *ast.IndexListExpr:
		return receiverString(x.X)
	case *ast.ParenExpr:
		return receiverString(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

func position(fset *token.FileSet, p token.Pos) string {
	pos := fset.Position(p)
	return fmt.Sprintf("%s:%d", pos.Filename, pos.Line)
}

// shapeBreaches returns the figures that break a rule, worst first within
// each rule (rules in the order fields, methods, complexity).
func shapeBreaches(figs []shapeFigure) []shapeFigure {
	var out []shapeFigure
	for _, f := range figs {
		switch f.rule {
		case ruleFields:
			if f.figure > shapeFields && methodsOf(figs, f.name) > shapeBehaviour {
				out = append(out, f)
			}
		case ruleMethods:
			if f.figure > shapeMethods {
				out = append(out, f)
			}
		case ruleComplexity:
			if f.figure > shapeComplexity {
				out = append(out, f)
			}
		}
	}
	sortFigures(out)
	return out
}

// methodsOf is the method count of the type name among figs.
func methodsOf(figs []shapeFigure, name string) int {
	for _, f := range figs {
		if f.rule == ruleMethods && f.name == name {
			return f.figure
		}
	}
	return 0
}

var ruleOrder = map[string]int{ruleFields: 0, ruleMethods: 1, ruleComplexity: 2}

func sortFigures(figs []shapeFigure) {
	slices.SortFunc(figs, func(a, b shapeFigure) int {
		return cmp.Or(
			cmp.Compare(ruleOrder[a.rule], ruleOrder[b.rule]),
			cmp.Compare(b.figure, a.figure),
			cmp.Compare(a.name, b.name))
	})
}

// limitOf is the limit a rule sets.
func limitOf(rule string) int {
	switch rule {
	case ruleFields:
		return shapeFields
	case ruleMethods:
		return shapeMethods
	}
	return shapeComplexity
}

func (f shapeFigure) String() string {
	s := fmt.Sprintf("%s: %s %d (at most %d)", f.pos, f.name, f.figure, limitOf(f.rule))
	if f.note != "" {
		s += ", " + f.note
	}
	return s
}

// TestShapeLimits holds ui/ and its subpackages to issue 29's limits (see
// shapeFields, shapeMethods, shapeComplexity): a type with behaviour has at
// most 15 fields, a type at most 40 methods, a function a complexity of at
// most 25. Test files are exempt. On failure it lists every offender of each
// rule, worst first.
func TestShapeLimits(t *testing.T) {
	t.Parallel()
	figs, err := measureShapes(os.DirFS("."), "ui")
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) < 1000 {
		t.Fatalf("measured %d figures — the walk missed ui/", len(figs))
	}
	fail := shapeBreaches(figs)
	for _, rule := range []string{ruleFields, ruleMethods, ruleComplexity} {
		var lines []string
		for _, f := range fail {
			if f.rule == rule {
				lines = append(lines, "\t"+f.String())
			}
		}
		if len(lines) > 0 {
			t.Errorf("%d over the %s limit, worst first:\n%s", len(lines), rule, strings.Join(lines, "\n"))
		}
	}
}

// TestShapeLimitsCatchPlanted proves the check on planted source: a type
// with behaviour one field over (counting "a, b int" as two and an embedded
// field as one), a type one method over, and a function one decision over
// fail, whatever its receivers and //gocyclo:ignore say, and so does a
// function literal in a package-level table; the same shapes at the limits,
// a plain record, a test file and testdata pass; an allow-list entry passes
// only while its figure is no worse.
func TestShapeLimitsCatchPlanted(t *testing.T) {
	t.Parallel()
	var god, fine strings.Builder
	god.WriteString("package x\n\ntype embedded struct{}\n\ntype God struct {\n\tembedded\n\ta, b int\n")
	fine.WriteString("package x\n\ntype Fine struct {\n\tembedded\n\ta, b int\n")
	for i := range 13 {
		fmt.Fprintf(&god, "\tf%d int\n", i)
		if i < 12 {
			fmt.Fprintf(&fine, "\tf%d int\n", i)
		}
	}
	fine.WriteString("}\n\ntype Narrow struct{}\n\n")
	god.WriteString("}\n\ntype Record struct {\n")
	for i := range 30 {
		fmt.Fprintf(&god, "\tr%d int\n", i)
	}
	god.WriteString("}\n\nfunc (Record) A() {}\n\ntype Wide struct{}\n\n")
	for i := range 6 {
		fmt.Fprintf(&god, "func (g *God) M%d() {}\n", i)
		fmt.Fprintf(&fine, "func (g Fine) M%d() {}\n", i)
	}
	for i := range 41 {
		recv := "*Wide"
		if i%2 == 1 {
			recv = "Wide" // value and pointer receivers both count
		}
		fmt.Fprintf(&god, "func (%s) W%d() {}\n", recv, i)
		if i < 40 {
			fmt.Fprintf(&fine, "func (Narrow) N%d() {}\n", i)
		}
	}
	body := func(n int) string {
		var b strings.Builder
		b.WriteString("(x int) int {\n")
		for i := range n {
			fmt.Fprintf(&b, "\tif x == %d {\n\t\treturn %d\n\t}\n", i, i)
		}
		b.WriteString("\treturn -1\n}")
		return b.String()
	}
	branches := func(name string, n int) string { return "\nfunc " + name + body(n) + "\n" }
	god.WriteString("\n//gocyclo:ignore\n" + branches("Tangle", 25)) // the directive waives nothing
	god.WriteString("\nvar table = map[string]func(int) int{\n\t\"a\": func" + body(25) + ",\n}\n")
	fine.WriteString(branches("Straight", 24))
	fsys := fstest.MapFS{
		"god.go":             {Data: []byte(god.String())},
		"sub/fine.go":        {Data: []byte(fine.String())},
		"sub/fine_test.go":   {Data: []byte("package x\n\ntype T struct{}\n" + strings.Repeat("func (T) M() {}\n", 50) + branches("Tested", 40))},
		"testdata/x/skip.go": {Data: []byte("package x\n" + branches("Data", 40))},
	}
	figs, err := measureShapes(fsys, "x")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	breaches := shapeBreaches(figs)
	for _, b := range breaches {
		got = append(got, fmt.Sprintf("%s %s %d", b.rule, b.name, b.figure))
	}
	want := []string{"fields x.God 16", "methods x.Wide 41", "complexity x.Tangle 26", "complexity x.func@god.go:"}
	if len(got) != len(want) || !slices.Equal(got[:3], want[:3]) || !strings.HasPrefix(got[3], want[3]) || !strings.HasSuffix(got[3], " 26") {
		t.Fatalf("breaches %q, want %q", got, want)
	}
	if n := methodsOf(figs, "sub.Fine"); n != 6 {
		t.Errorf("sub.Fine has %d methods measured, want 6", n)
	}
}
