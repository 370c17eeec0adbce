// Package modsrc walks the module's own Go source for the guard tests that
// hold a rule over every file (no HTTP client outside the policy, no child
// process outside the one environment). It parses each non-test .go file;
// the rule is the caller's.
//
// It is imported only by tests; it imports nothing of runnel.
package modsrc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Walk parses every .go file of the module at root but test files, and
// those under hidden folders, testdata, vendor and the folders in skip
// (relative to root), and calls visit with each one's path relative to
// root. It fails t when a file does not parse, or when it found fewer than
// 50 files: root is then not the module, and a guard would pass on
// nothing.
func Walk(t testing.TB, root string, skip []string, visit func(rel string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	walked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			for _, s := range skip {
				if rel == filepath.FromSlash(s) {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		walked++
		visit(rel, fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if walked < 50 {
		t.Fatalf("walked %d files from %s: not the module", walked, root)
	}
}
