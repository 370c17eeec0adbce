package tools

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"runnel/stream/modsrc"
)

// Every process runnel starts gets its environment from ChildEnv: each
// exec.Command and exec.CommandContext outside test files is assigned to a
// variable whose Env the same function sets from a ChildEnv call (or from
// a parameter of type Environ, which only ChildEnv makes). A child started
// anywhere with Env left nil inherits runnel's whole environment, the API
// key with it, and fails here.
func TestNoChildOutsideChildEnv(t *testing.T) {
	var found []string
	modsrc.Walk(t, "../..", nil, func(rel string, fset *token.FileSet, f *ast.File) {
		for _, hit := range childrenWithoutChildEnv(fset, f, rel == filepath.Join("session", "tools", "toolrun", "childenv.go")) {
			found = append(found, rel+":"+hit)
		}
	})
	if len(found) > 0 {
		t.Fatalf("processes started without the one child environment (set cmd.Env = tools.ChildEnv(hidden)):\n%s", strings.Join(found, "\n"))
	}
}

// childrenWithoutChildEnv lists where f starts a process whose environment
// does not come from ChildEnv: "line: what". home is childenv.go itself,
// the one place an Environ may be made.
func childrenWithoutChildEnv(fset *token.FileSet, f *ast.File, home bool) []string {
	names := map[string]string{} // import name → path, for os/exec, os and syscall
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p != "os/exec" && p != "os" && p != "syscall" {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = p
	}
	pkgSel := func(e ast.Expr, pkg string, sels ...string) (string, bool) {
		s, ok := e.(*ast.SelectorExpr)
		if !ok {
			return "", false
		}
		id, ok := s.X.(*ast.Ident)
		if !ok || names[id.Name] != pkg {
			return "", false
		}
		for _, want := range sels {
			if s.Sel.Name == want {
				return pkg + "." + want, true
			}
		}
		return "", false
	}
	var out []string
	at := func(n ast.Node, what string) {
		out = append(out, strconv.Itoa(fset.Position(n.Pos()).Line)+": "+what)
	}
	isEnviron := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.Ident:
			return e.Name == "Environ"
		case *ast.SelectorExpr:
			id, ok := e.X.(*ast.Ident)
			return ok && (id.Name == "tools" || id.Name == "toolrun") && e.Sel.Name == "Environ"
		}
		return false
	}
	isChildEnv := func(e ast.Expr) bool {
		c, ok := e.(*ast.CallExpr)
		if !ok {
			return false
		}
		switch fn := c.Fun.(type) {
		case *ast.Ident:
			return fn.Name == "ChildEnv"
		case *ast.SelectorExpr:
			id, ok := fn.X.(*ast.Ident)
			return ok && (id.Name == "tools" || id.Name == "toolrun") && fn.Sel.Name == "ChildEnv"
		}
		return false
	}
	// Each function on its own: its commands, and whose Env it sets well.
	check := func(typ *ast.FuncType, body *ast.BlockStmt) {
		if body == nil {
			return
		}
		envParams := map[string]bool{}
		if typ != nil && typ.Params != nil {
			for _, p := range typ.Params.List {
				if isEnviron(p.Type) {
					for _, n := range p.Names {
						envParams[n.Name] = true
					}
				}
			}
		}
		commands := map[string]ast.Node{} // variable → where a command was assigned to it
		setEnv := map[string]bool{}       // variable → its Env set from ChildEnv
		assigned := map[ast.Node]bool{}
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false // checked on its own
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				r := as.Rhs[i]
				if c, ok := r.(*ast.CallExpr); ok {
					if _, ok := pkgSel(c.Fun, "os/exec", "Command", "CommandContext"); ok {
						assigned[c] = true
						if id, ok := l.(*ast.Ident); ok {
							commands[id.Name] = c
						}
					}
				}
				sel, ok := l.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Env" {
					continue
				}
				id, ok := sel.X.(*ast.Ident)
				if !ok {
					continue
				}
				if p, ok := r.(*ast.Ident); isChildEnv(r) || ok && envParams[p.Name] {
					setEnv[id.Name] = true
				}
			}
			return true
		})
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok {
				if w, ok := pkgSel(c.Fun, "os/exec", "Command", "CommandContext"); ok && !assigned[c] {
					at(c, w+"(…) not held in a variable whose Env is set")
				}
			}
			return true
		})
		for v, n := range commands {
			if !setEnv[v] {
				at(n, v+" := exec.Command(…) without "+v+".Env = ChildEnv(…)")
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			check(n.Type, n.Body)
		case *ast.FuncLit:
			check(n.Type, n.Body)
		case *ast.CompositeLit:
			if w, ok := pkgSel(n.Type, "os/exec", "Cmd"); ok {
				at(n, w+"{…}")
			}
			if isEnviron(n.Type) && !home {
				at(n, "Environ{…} made outside ChildEnv")
			}
		case *ast.CallExpr:
			if w, ok := pkgSel(n.Fun, "os", "StartProcess"); ok {
				at(n, w+"(…)")
			}
			if w, ok := pkgSel(n.Fun, "syscall", "Exec", "ForkExec", "StartProcess"); ok {
				at(n, w+"(…)")
			}
			if isEnviron(n.Fun) && !home {
				at(n, "a conversion to Environ outside ChildEnv")
			}
		}
		return true
	})
	return out
}

// The check sees each way of starting a process without ChildEnv, under
// any import name, and passes the ways that use it.
func TestChildrenWithoutChildEnvSeesEveryForm(t *testing.T) {
	src := `package p
import (
	x "os/exec"
	"os"
	"syscall"
	"runnel/session/tools"
)
func bad1() { x.Command("a").Run() }
func bad2() { c := x.Command("a"); c.Run() }
func bad3() { c := x.CommandContext(nil, "a"); c.Env = os.Environ(); c.Run() }
func bad4() { c := x.Command("a"); d := x.Command("b"); d.Env = tools.ChildEnv(nil); c.Run() }
func bad5(env []string) { c := x.Command("a"); c.Env = env; c.Run() }
var bad6 = &x.Cmd{Path: "a"}
func bad7() { os.StartProcess("a", nil, nil); syscall.Exec("a", nil, nil) }
func bad8() { c := x.Command("a"); func() { c.Env = tools.ChildEnv(nil) }() }
var bad9 = tools.Environ(os.Environ())
func good1() { c := x.Command("a"); c.Env = tools.ChildEnv(nil); c.Run() }
func good2(env tools.Environ) { c := x.CommandContext(nil, "a"); c.Dir, c.Env = "", env; c.Run() }
func good3() { var c *x.Cmd; if true { c = x.Command("a") } else { c = x.Command("b") }; c.Env = tools.ChildEnv(nil) }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := childrenWithoutChildEnv(fset, f, false)
	want := []string{"8:", "9:", "10:", "11:", "12:", "13:", "14:", "14:", "15:", "16:"}
	var lines []string
	for _, g := range got {
		lines = append(lines, g[:strings.Index(g, ":")+1])
	}
	slices.SortFunc(lines, func(a, b string) int {
		x, _ := strconv.Atoi(strings.TrimSuffix(a, ":"))
		y, _ := strconv.Atoi(strings.TrimSuffix(b, ":"))
		return x - y
	})
	if strings.Join(lines, " ") != strings.Join(want, " ") {
		t.Fatalf("found %q; want lines %q", got, want)
	}
}
