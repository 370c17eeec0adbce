package ui

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// typeShape is a type's field and method counts, from the syntax tree.
type typeShape struct {
	fields, methods int
	fieldTypes      []string // the names of its fields' types, without * or package
}

// uiShapes parses the package's non-test files and counts, for each named
// struct type, its fields and the methods declared on it (value or pointer
// receiver).
func uiShapes(t *testing.T) map[string]*typeShape {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	shapes := map[string]*typeShape{}
	get := func(name string) *typeShape {
		if shapes[name] == nil {
			shapes[name] = &typeShape{}
		}
		return shapes[name]
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					continue
				}
				if n := baseTypeName(d.Recv.List[0].Type); n != "" {
					get(n).methods++
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					ts, ok := sp.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					s := get(ts.Name.Name)
					for _, fl := range st.Fields.List {
						n := max(len(fl.Names), 1) // an embedded field is one
						s.fields += n
						for range n {
							s.fieldTypes = append(s.fieldTypes, localTypeName(fl.Type))
						}
					}
				}
			}
		}
	}
	return shapes
}

// baseTypeName is the name of a type expression without pointers, generic
// arguments or package: "Composer" for *Composer.
func baseTypeName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.SelectorExpr:
			return x.Sel.Name
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// localTypeName is baseTypeName for a type of this package, "" for one
// of another (textarea.Model).
func localTypeName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// shapeProblems lists the types among names that break the limits, worst
// first.
func shapeProblems(shapes map[string]*typeShape, names []string) []string {
	var out []string
	for _, n := range names {
		s := shapes[n]
		if s == nil {
			continue
		}
		if s.methods > shapeMethods {
			out = append(out, fmt.Sprintf("%s has %d methods (at most %d)", n, s.methods, shapeMethods))
		}
		if s.methods > shapeBehaviour && s.fields > shapeFields {
			out = append(out, fmt.Sprintf("%s has %d fields and %d methods (a type with more than %d methods has at most %d fields)", n, s.fields, s.methods, shapeBehaviour, shapeFields))
		}
	}
	sort.Strings(out)
	return out
}

// composerParts is Composer and the types of its fields declared in ui: the
// parts it delegates to.
func composerParts(shapes map[string]*typeShape) []string {
	out := []string{"Composer"}
	for _, ft := range shapes["Composer"].fieldTypes {
		if _, local := shapes[ft]; local && ft != "Composer" {
			out = append(out, ft)
		}
	}
	return out
}

// TestComposerShape holds Composer and its parts to issue 29's limits: at
// most 15 fields for a type with behaviour, at most 40 methods.
func TestComposerShape(t *testing.T) {
	t.Parallel()
	shapes := uiShapes(t)
	parts := composerParts(shapes)
	if len(parts) < 4 {
		t.Fatalf("Composer's parts: %v — it delegates to fewer parts than expected", parts)
	}
	for _, p := range shapeProblems(shapes, parts) {
		t.Error(p)
	}
	var report []string
	for _, p := range parts {
		report = append(report, fmt.Sprintf("%s %d fields %d methods", p, shapes[p].fields, shapes[p].methods))
	}
	t.Log(strings.Join(report, "; "))
}

// TestShapeCheckCatches proves the check: a planted god object fails it.
func TestShapeCheckCatches(t *testing.T) {
	t.Parallel()
	shapes := map[string]*typeShape{
		"god":   {fields: 19, methods: 63},
		"rec":   {fields: 30, methods: 2}, // a plain record: exempt
		"small": {fields: 3, methods: 6},
	}
	got := shapeProblems(shapes, []string{"god", "rec", "small"})
	if len(got) != 2 || !strings.Contains(got[0], "god has 19 fields") || !strings.Contains(got[1], "god has 63 methods") {
		t.Fatalf("problems %q", got)
	}
}
