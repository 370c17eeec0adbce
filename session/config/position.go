package config

// This file finds the line a key is written on, for errors the decoder
// cannot place (enumerations, missing keys, names used twice). It asks
// go-toml's own parser (package unstable, its public AST) for every key
// and the line it starts on, in one pass: nothing here parses TOML.

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// keyPos is one key and the line it is written on.
type keyPos struct {
	key  string // dotted, no entry index
	line int
}

// positions are the keys of one document in order, and the lines of the
// headers of each array of tables. They are collected on first use, so a
// file without errors costs nothing more. A nil *positions knows no lines
// (a Config built by hand).
type positions struct {
	data    []byte
	found   bool
	keys    []keyPos
	entries map[string][]int
}

// locate returns the positions of a document that decodes cleanly.
func locate(data []byte) *positions { return &positions{data: data} }

// find collects the positions in one pass of go-toml's parser over the
// document, so a file of N keys costs O(N log N), not N times the file.
// Every key is recorded under its full dotted path (a table's header and
// an inline table's keys too), and each [[array]] entry's header line (an
// inline array of tables: its key's line, once) under the array's path.
func (p *positions) find() {
	if p.found {
		return
	}
	p.found = true
	p.entries = map[string][]int{}
	starts := []int{0} // the offset where each line starts
	for i, c := range p.data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	lineOf := func(n *unstable.Node) int {
		return sort.Search(len(starts), func(i int) bool { return starts[i] > int(n.Raw.Offset) })
	}
	var parser unstable.Parser
	parser.Reset(p.data)
	table := ""
	for parser.NextExpression() {
		e := parser.Expression()
		key, line := nodeKey(e, lineOf)
		switch e.Kind {
		case unstable.Table:
			table = key
			p.keys = append(p.keys, keyPos{key, line})
		case unstable.ArrayTable:
			table = key
			p.entries[key] = append(p.entries[key], line)
			p.keys = append(p.keys, keyPos{key, line})
		case unstable.KeyValue:
			p.keyValue(joinKey(table, key), line, e.Value(), lineOf)
		}
	}
}

// MaxConfigKeys bounds the keys of one config file. go-toml checks each key
// against every key before it, so its decode costs the square of the keys:
// a file past this many is refused by a linear count before it is decoded.
// A real config holds a few hundred.
const MaxConfigKeys = 4096

// pastKeyBound returns the line of the first key past MaxConfigKeys in
// data, counted in one pass (inline tables' keys too), or 0 when there are
// not that many (or the document does not parse: the decoder says why).
func pastKeyBound(data []byte) int {
	var parser unstable.Parser
	parser.Reset(data)
	n, line := 0, 1
	var count func(v *unstable.Node)
	count = func(v *unstable.Node) {
		for it := v.Children(); it.Next(); {
			c := it.Node()
			if c.Kind == unstable.KeyValue {
				n++
				count(c.Value())
			} else if c.Kind == unstable.InlineTable || c.Kind == unstable.Array {
				count(c)
			}
		}
	}
	offset := 0
	for parser.NextExpression() && n <= MaxConfigKeys {
		e := parser.Expression()
		if e.Kind == unstable.KeyValue {
			n++
			count(e.Value())
		}
		for it := e.Key(); it.Next(); {
			k := it.Node()
			line += bytes.Count(data[offset:k.Raw.Offset], []byte{'\n'})
			offset = int(k.Raw.Offset)
			break
		}
	}
	if n > MaxConfigKeys {
		return line
	}
	return 0
}

// keyValue records key (written on line) and, for an inline table or an
// array of them, the keys inside.
func (p *positions) keyValue(key string, line int, v *unstable.Node, lineOf func(*unstable.Node) int) {
	p.keys = append(p.keys, keyPos{key, line})
	switch v.Kind {
	case unstable.InlineTable:
		for it := v.Children(); it.Next(); {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				sub, l := nodeKey(kv, lineOf)
				p.keyValue(key+"."+sub, l, kv.Value(), lineOf)
			}
		}
	case unstable.Array:
		tables := false
		for it := v.Children(); it.Next(); {
			if el := it.Node(); el.Kind == unstable.InlineTable {
				tables = true
				p.keyValue(key, lineOf(el), el, lineOf)
			}
		}
		if tables {
			p.entries[key] = append(p.entries[key], line) // an inline array: its entries share lines
		}
	}
}

// nodeKey is the dotted key of a table header or key-value node, and the
// line its first part is written on.
func nodeKey(n *unstable.Node, lineOf func(*unstable.Node) int) (string, int) {
	var parts []string
	line := 0
	for it := n.Key(); it.Next(); {
		k := it.Node()
		if line == 0 {
			line = lineOf(k)
		}
		parts = append(parts, string(k.Data))
	}
	return keyString(parts), line
}

func joinKey(table, key string) string {
	if table == "" {
		return key
	}
	return table + "." + key
}

// at is "name:line" for key (dotted, no index), or for key of entry i of
// array when array is not "": the key's own line, else its nearest written
// parent's, else the entry's header; name alone when none is known.
func (p *positions) at(name, array string, i int, key string) string {
	if p == nil {
		return name
	}
	p.find()
	lo, hi := 0, int(^uint(0)>>1)
	if array != "" {
		key = array + "." + key
		if hs := p.entries[array]; len(hs) > i && i >= 0 {
			lo = hs[i]
			if len(hs) > i+1 {
				hi = hs[i+1]
			}
		} else if len(hs) > 0 {
			lo = hs[0] // an inline array: its entries share lines
		}
	}
	for k := key; k != ""; {
		for _, kp := range p.keys {
			if kp.key == k && kp.line >= lo && kp.line < hi {
				return fmt.Sprintf("%s:%d", name, kp.line)
			}
		}
		cut := strings.LastIndexByte(k, '.')
		if cut < 0 || k == array {
			break
		}
		k = k[:cut]
	}
	if lo > 0 {
		return fmt.Sprintf("%s:%d", name, lo)
	}
	return name
}
