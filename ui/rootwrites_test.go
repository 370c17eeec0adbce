package ui

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The root routes and its children own their state (doc.go): a child is a
// named field of Model, never embedded, and its fields change only through
// its own methods or the messages it handles. rootWrites walks the syntax
// tree and lists every place that breaks this: an embedded field in Model,
// and a write by a root function (a method of Model, or a function given a
// Model) into a field of a child: an assignment, op=, ++/--, a range's
// key or value, & of it, or clear, delete or copy into it, to any
// selector chain m.child.field…, also
// through a local that holds a part of a child (t := m.turns.cur;
// t.ended = true). Replacing a child whole (m.dialog = nil,
// m.composer, cmd = m.composer.Update(msg)) is the root's own business.
func rootWrites(fset *token.FileSet, files []*ast.File) []string {
	var out []string
	children := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if ts.Name.Name != "Model" || !ok {
					continue
				}
				for _, fl := range st.Fields.List {
					if len(fl.Names) == 0 {
						out = append(out, fmt.Sprintf("%s: Model embeds %s: name the child, so the root cannot write its fields by accident", fset.Position(fl.Pos()), types(fl.Type)))
					}
					for _, n := range fl.Names {
						children[n.Name] = true
					}
				}
			}
		}
	}
	seen := map[string]bool{} // a function literal inside a root function is walked twice
	walk := func(fn, root string, body *ast.BlockStmt) {
		w := writeWalker{fset: fset, fn: fn, root: root, children: children, alias: map[string]bool{}}
		ast.Inspect(body, w.visit)
		for _, f := range w.found {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	eachRootBody(files, walk)
	return out
}

// eachRootBody calls walk with every root function's body: a method of
// Model, a function given or making one (rootNames), and every function
// literal given a Model (the tables keyDo and slashDo, a closure inside
// any function), with the name the Model goes by there.
func eachRootBody(files []*ast.File, walk func(fn, root string, body *ast.BlockStmt)) {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				for _, m := range rootNames(fd) {
					walk(fd.Name.Name, m, fd.Body)
				}
			}
			ast.Inspect(d, func(n ast.Node) bool {
				if fl, ok := n.(*ast.FuncLit); ok {
					for _, m := range modelParams(fl.Type.Params.List) {
						walk("a function literal", m, fl.Body)
					}
				}
				return true
			})
		}
	}
}

// modelParams is the names of the parameters that are a Model.
func modelParams(fields []*ast.Field) []string {
	var names []string
	for _, fl := range fields {
		if t := types(fl.Type); t != "Model" && t != "*Model" {
			continue
		}
		for _, n := range fl.Names {
			names = append(names, n.Name)
		}
	}
	return names
}

// types is a field type's source text.
func types(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return "*" + types(t.X)
	case *ast.SelectorExpr:
		return types(t.X) + "." + t.Sel.Name
	}
	return fmt.Sprintf("%T", e)
}

// rootNames is the names fd gives a Model: its receiver, or its parameters.
func rootNames(fd *ast.FuncDecl) []string {
	var fields []*ast.Field
	if fd.Recv != nil {
		fields = fd.Recv.List
	} else {
		fields = fd.Type.Params.List
	}
	names := modelParams(fields)
	if fd.Body == nil {
		return names
	}
	// and the Models it makes: m := New(…), m := &Model{…}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok && a.Tok == token.DEFINE && len(a.Lhs) == len(a.Rhs) {
			for i, r := range a.Rhs {
				if id, ok := a.Lhs[i].(*ast.Ident); ok && makesModel(r) {
					names = append(names, id.Name)
				}
			}
		}
		return true
	})
	return names
}

// makesModel reports whether e makes a Model: New(…), Model{…}, &Model{…}.
func makesModel(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.CallExpr:
		id, ok := x.Fun.(*ast.Ident)
		return ok && id.Name == "New"
	case *ast.UnaryExpr:
		return x.Op == token.AND && makesModel(x.X)
	case *ast.CompositeLit:
		id, ok := x.Type.(*ast.Ident)
		return ok && id.Name == "Model"
	}
	return false
}

// writeWalker finds the writes into a child in one root function's body.
type writeWalker struct {
	fset     *token.FileSet
	fn       string
	root     string          // the Model's name in fn
	children map[string]bool // Model's fields
	alias    map[string]bool // locals that hold a part of a child
	found    []string
}

// chain is the selector chain an expression writes through, stripped of
// indexes, derefs, slices and parentheses: "m.turns.cur.ended" for
// (*m.turns.cur).ended, "m.items.entries" for m.items.entries[k].
func chain(e ast.Expr) []string {
	switch x := e.(type) {
	case *ast.Ident:
		return []string{x.Name}
	case *ast.SelectorExpr:
		if c := chain(x.X); c != nil {
			return append(c, x.Sel.Name)
		}
	case *ast.IndexExpr:
		return chain(x.X)
	case *ast.IndexListExpr:
		return chain(x.X)
	case *ast.SliceExpr:
		return chain(x.X)
	case *ast.StarExpr:
		return chain(x.X)
	case *ast.ParenExpr:
		return chain(x.X)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return chain(x.X)
		}
	}
	return nil
}

// intoChild reports whether a write through c changes a child's field.
func (w *writeWalker) intoChild(c []string) bool {
	if len(c) >= 3 && c[0] == w.root && w.children[c[1]] {
		return true
	}
	return len(c) >= 2 && w.alias[c[0]]
}

// partOfChild reports whether e holds a child or a part of one (the
// child, a pointer to it, a field of it, or a local that does), so a
// write through it writes the child.
func (w *writeWalker) partOfChild(e ast.Expr) bool {
	c := chain(e)
	return (len(c) >= 2 && c[0] == w.root && w.children[c[1]]) || (len(c) >= 1 && w.alias[c[0]])
}

func (w *writeWalker) report(n ast.Node, what string, e ast.Expr) {
	w.found = append(w.found, fmt.Sprintf("%s: %s %s %s: give the child a method that does it", w.fset.Position(n.Pos()), w.fn, what, strings.Join(chain(e), ".")))
}

func (w *writeWalker) visit(n ast.Node) bool {
	switch s := n.(type) {
	case *ast.AssignStmt:
		w.assign(s)
	case *ast.IncDecStmt:
		if w.intoChild(chain(s.X)) {
			w.report(s, "writes", s.X)
		}
	case *ast.RangeStmt:
		w.rangeOver(s)
	case *ast.UnaryExpr:
		if s.Op == token.AND && w.intoChild(chain(s.X)) {
			w.report(s, "takes the address of", s.X)
		}
	case *ast.CallExpr:
		w.builtin(s)
	case *ast.ValueSpec:
		for i, v := range s.Values {
			if i < len(s.Names) && w.partOfChild(v) {
				w.alias[s.Names[i].Name] = true
			}
		}
	}
	return true
}

// assign reports writes into a child on s's left, and notes the locals it
// makes hold a part of one.
func (w *writeWalker) assign(s *ast.AssignStmt) {
	for _, l := range s.Lhs {
		if w.intoChild(chain(l)) {
			w.report(s, "writes", l)
		}
	}
	if len(s.Lhs) != len(s.Rhs) {
		return
	}
	for i, r := range s.Rhs {
		if id, ok := s.Lhs[i].(*ast.Ident); ok && w.partOfChild(r) {
			w.alias[id.Name] = true
		}
	}
}

// rangeOver reports a range that assigns its key or value into a child,
// and notes the key and value of a range over a part of one.
func (w *writeWalker) rangeOver(s *ast.RangeStmt) {
	for _, l := range []ast.Expr{s.Key, s.Value} {
		if l == nil {
			continue
		}
		if s.Tok == token.ASSIGN && w.intoChild(chain(l)) {
			w.report(s, "writes", l)
		}
		if id, ok := l.(*ast.Ident); ok && w.partOfChild(s.X) {
			w.alias[id.Name] = true
		}
	}
}

// builtin reports clear, delete or copy into a child: the builtins that
// write what their first argument holds.
func (w *writeWalker) builtin(s *ast.CallExpr) {
	id, ok := s.Fun.(*ast.Ident)
	if !ok || len(s.Args) == 0 || (id.Name != "clear" && id.Name != "delete" && id.Name != "copy") {
		return
	}
	if c := chain(s.Args[0]); w.intoChild(c) || (len(c) == 1 && w.alias[c[0]]) {
		w.report(s, id.Name+"s", s.Args[0])
	}
}

// TestRootWritesNoChild: no root function writes a child's field, and
// Model embeds none; planted writes of every shape are caught.
func TestRootWritesNoChild(t *testing.T) {
	t.Parallel()
	const head = "package ui\ntype Model struct{ dialog any; turns turns; items items; composer Composer; tools *toolKit }\n"
	cases := []finderCase{
		{"the ui package", "", 0},
		{"planted: a field of a child", "func (m *Model) f() { m.turns.cur = nil }", 1},
		{"planted: a field of a child's field", "func (m *Model) f() { m.turns.status.State = 1 }", 1},
		{"planted: an element of a child's field", "func (m *Model) f() { m.items.entries[k] = nil }", 1},
		{"planted: op= and ++", "func (m Model) f() { m.turns.usage += 1; m.turns.gen++ }", 2},
		{"planted: a pointer to a child's field", "func (m *Model) f() { p := &m.turns.gen; *p = 1 }", 1},
		{"planted: through a local", "func (m *Model) f() { t := m.turns.cur; t.ended = true }", 1},
		{"planted: through a local holding the child", "func (m *Model) f() { k := m.tools; k.cancel = nil; p := &m.items; p.list = nil }", 2},
		{"planted: through a range value", "func (m *Model) f() { for _, e := range m.items.list { e.dirty = true } }", 1},
		{"planted: clear, delete and copy", "func (m *Model) f() { clear(m.items.dirty); delete(m.items.entries, k); t := m.turns.cur; copy(t.buf, b); clear(t.changed) }", 4},
		{"planted: a table of functions given the Model", "var do = map[string]func(m *Model){\"x\": func(m *Model) { m.turns.cur = nil }}", 1},
		{"planted: a closure inside a root method", "func (m *Model) f() { g := func() { m.turns.cur = nil }; g() }", 1},
		{"planted: a Model that New makes", "func g() { m := New(); m.items.images.support = 1 }", 1},
		{"planted: a function given the Model", "func f(x *Model) { x.turns.cur = nil }", 1},
		{"planted: an embedded child", "type Model struct{ turns }", 1},
		{"allowed: replacing a child whole, reading, calling", "func (m *Model) f() { m.dialog = nil; m.composer, _ = m.composer.Update(nil); t := m.turns.cur; _ = t.ended; m.items.add(1) }", 0},
	}
	checkFinder(t, cases, func(src string) string {
		if strings.HasPrefix(src, "type Model") {
			return "package ui\n" + src
		}
		return head + src
	}, rootWrites)
}

// finderCase is one row of a syntax-tree finder's table: src is planted
// source ("" is the ui package itself), want how many findings it gives.
type finderCase struct {
	name string
	src  string
	want int
}

// checkFinder runs find over each case's files (the planted source, made
// whole by source) and wants c.want findings.
func checkFinder(t *testing.T, cases []finderCase, source func(string) string, find func(*token.FileSet, []*ast.File) []string) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fset := token.NewFileSet()
			var files []*ast.File
			if c.src == "" {
				files = parseUI(t, fset)
			} else {
				f, err := parser.ParseFile(fset, "planted.go", source(c.src), 0)
				if err != nil {
					t.Fatal(err)
				}
				files = []*ast.File{f}
			}
			if got := find(fset, files); len(got) != c.want {
				t.Errorf("%d findings, want %d:\n%s", len(got), c.want, strings.Join(got, "\n"))
			}
		})
	}
}

// parseUI parses the ui package's own files (not its tests).
func parseUI(t *testing.T, fset *token.FileSet) []*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	names = slices.DeleteFunc(names, func(n string) bool { return strings.HasSuffix(n, "_test.go") })
	var files []*ast.File
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, n, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}
