package ui

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
	"testing"
)

// rootReaches lists every place where a root function (as rootWrites
// finds them: a method of Model, a function given or making one, a
// function literal given one) calls a method of a child's part: the call's
// receiver is a field of a child, or deeper (m.items.transcript.Follow(),
// m.history.journal.Begin(st), m.turns.conv.Fork(n)), also through a local
// that holds the child (h := m.history; h.journal.Close()) or a field of
// it (j := m.history.journal; t := m.turns.cur; j.Close(); t.apply(b)).
// The root calls the child (m.history.shutdown(), m.turns.fold(msg))
// or sends it a message; the child calls its parts. No part is exempt:
// the turn in flight is driven by the turns child too (flight.go).
func rootReaches(fset *token.FileSet, files []*ast.File) []string {
	children := modelFields(files)
	delete(children, "opts") // the config, not a child: m.opts.Client is the client in use
	var out []string
	seen := map[string]bool{}
	walk := func(fn, root string, body *ast.BlockStmt) {
		depth := map[string]int{root: 0} // how deep into the Model a local holds: 1 a child, 2 its part
		ast.Inspect(body, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				if len(s.Lhs) == len(s.Rhs) {
					for i, r := range s.Rhs {
						if id, ok := s.Lhs[i].(*ast.Ident); ok {
							if d := reachDepth(chain(r), depth, children); d >= 1 {
								depth[id.Name] = d
							}
						}
					}
				}
			case *ast.CallExpr:
				c := chain(s.Fun)
				if len(c) < 2 {
					return true
				}
				if d := reachDepth(c[:len(c)-1], depth, children); d >= 2 {
					f := fmt.Sprintf("%s: %s calls %s on a part of a child: call the child's own method, or send it a message", fset.Position(s.Pos()), fn, strings.Join(c, "."))
					if !seen[f] {
						seen[f] = true
						out = append(out, f)
					}
				}
			}
			return true
		})
	}
	eachRootBody(files, walk)
	return out
}

// reachDepth is how deep into the Model the selector chain c reaches: 1
// for a child (m.items), 2 for a field of a child (m.items.transcript),
// and so on; through a local, its own depth plus the rest of the chain; 0
// for anything else.
func reachDepth(c []string, depth map[string]int, children map[string]bool) int {
	if len(c) == 0 {
		return 0
	}
	d, ok := depth[c[0]]
	if !ok {
		return 0
	}
	if d == 0 && (len(c) < 2 || !children[c[1]]) {
		return 0 // the Model itself, or not a child (m.opts is the config)
	}
	return d + len(c) - 1
}

// modelFields is the names of Model's fields: its children.
func modelFields(files []*ast.File) map[string]bool {
	children := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.Name.Name != "Model" {
				return true
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				for _, fl := range st.Fields.List {
					for _, n := range fl.Names {
						children[n.Name] = true
					}
				}
			}
			return false
		})
	}
	return children
}

// TestRootCallsNoChildPart: no root function calls a method of a child's
// part; planted calls of every shape are caught, and calls on the child
// itself are not.
func TestRootCallsNoChildPart(t *testing.T) {
	t.Parallel()
	const head = "package ui\ntype Model struct{ opts *Options; turns turns; items items; history history }\n"
	cases := []finderCase{
		{"the ui package", "", 0},
		{"planted: a call on a child's field", "func (m *Model) f() { m.items.transcript.Follow() }", 1},
		{"planted: a call that changes the conversation", "func (m *Model) f() { st := m.turns.conv.Begin(\"\", nil); _ = st }", 1},
		{"planted: deeper", "func (m *Model) f() { m.turns.cur.log.End(now, nil) }", 1},
		{"planted: through a local holding the part", "func (m *Model) f() { j := m.history.journal; j.Close() }", 1},
		{"planted: through a local holding the turn in flight", "func (m *Model) f() { t := m.turns.cur; t.apply(b) }", 1},
		{"planted: the turn in flight's record", "func (m *Model) f() { if t := m.turns.cur; t != nil { t.log.Flush(now, nil) } }", 1},
		{"planted: through a local holding the child", "func (m *Model) f() { h := m.history; h.journal.Close() }", 1},
		{"planted: a table of functions given the Model", "var do = map[string]func(m *Model){\"x\": func(m *Model) { m.items.transcript.Follow() }}", 1},
		{"planted: a Model that New makes", "func g() { m := New(); m.items.transcript.Follow() }", 1},
		{"allowed: the child's own methods, the Model's, the config's", "func (m *Model) f() { m.items.follow(); m.turns.begin(\"\"); m.redraw(); m.opts.Client.Compact(); h := m.history; h.close() }", 0},
	}
	checkFinder(t, cases, func(src string) string { return head + src }, rootReaches)
}
