package main

import (
	"debug/elf"
	"runtime"
	"testing"
)

// reflectMethodCalls are the reflect functions that look a method up by
// index or by a name known only at run time. When one of them is reachable
// the linker can no longer tell which methods are called, so it keeps every
// exported method of every type in the binary: text/template (a cobra
// version or usage template) made the binary 4.8 MB larger and its resident
// memory 2 MB larger at start-up.
var reflectMethodCalls = []string{
	"reflect.Value.Method",
	"reflect.Value.MethodByName",
	"reflect.(*rtype).Method",
	"reflect.(*rtype).MethodByName",
}

// TestNoReflectMethodCalls reads the built binary's symbol table: none of
// reflectMethodCalls is linked, so the linker drops the methods nothing calls.
func TestNoReflectMethodCalls(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("reads an ELF symbol table")
	}
	f, err := elf.Open(binary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, s := range syms {
		linked[s.Name] = true
	}
	if !linked["main.main"] {
		t.Fatal("the symbol table has no main.main: not the binary it should be")
	}
	for _, name := range reflectMethodCalls {
		if linked[name] {
			t.Errorf("%s is linked: something calls it (text/template? `go build -ldflags=-dumpdep . 2>&1 | grep ReflectMethod` names it), so the linker keeps every exported method", name)
		}
	}
}
