package httppolicy_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"runnel/stream/modsrc"
)

// Nothing outside this package builds an HTTP client or transport, or uses
// net/http's default ones: every request runnel makes goes through the
// policy. A new client written anywhere else fails here (test files, which
// build servers and fakes, are not walked).
func TestNoClientOutsideThePolicy(t *testing.T) {
	var found []string
	modsrc.Walk(t, "../..", []string{"stream/httppolicy"}, func(rel string, fset *token.FileSet, f *ast.File) {
		for _, hit := range clientsIn(fset, f) {
			found = append(found, rel+":"+hit)
		}
	})
	if len(found) > 0 {
		t.Fatalf("HTTP clients built outside stream/httppolicy (use httppolicy.New):\n%s", strings.Join(found, "\n"))
	}
}

// clientsIn lists where f builds a client or transport of net/http, or
// uses its defaults: "line: what".
func clientsIn(fset *token.FileSet, f *ast.File) []string {
	name := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "net/http" {
			name = "http"
			if imp.Name != nil {
				name = imp.Name.Name
			}
		}
	}
	if name == "" || name == "_" {
		return nil
	}
	isHTTP := func(e ast.Expr, sels ...string) (string, bool) {
		s, ok := e.(*ast.SelectorExpr)
		if !ok {
			return "", false
		}
		id, ok := s.X.(*ast.Ident)
		if !ok || id.Name != name {
			return "", false
		}
		for _, want := range sels {
			if s.Sel.Name == want {
				return "http." + want, true
			}
		}
		return "", false
	}
	var out []string
	at := func(n ast.Node, what string) {
		out = append(out, strconv.Itoa(fset.Position(n.Pos()).Line)+": "+what)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			if w, ok := isHTTP(n.Type, "Client", "Transport"); ok {
				at(n, w+"{…}")
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "new" && len(n.Args) == 1 {
				if w, ok := isHTTP(n.Args[0], "Client", "Transport"); ok {
					at(n, "new("+w+")")
				}
			}
			if w, ok := isHTTP(n.Fun, "Get", "Post", "Head", "PostForm"); ok {
				at(n, w+"(…)")
			}
		case *ast.SelectorExpr:
			if w, ok := isHTTP(n, "DefaultClient", "DefaultTransport"); ok {
				at(n, w)
			}
		}
		return true
	})
	return out
}

// The check sees each way of building a client, under any import name.
func TestClientsInSeesEveryForm(t *testing.T) {
	src := `package p
import h "net/http"
var a = &h.Client{}
var b = h.Transport{}
var c = new(h.Client)
var d = h.DefaultClient
var e = h.DefaultTransport
func f() { h.Get("x"); h.Post("x", "", nil); h.Head("x"); h.PostForm("x", nil) }
var ok = h.Header{}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := clientsIn(fset, f); len(got) != 9 {
		t.Fatalf("found %d, want 9: %q", len(got), got)
	}
}
