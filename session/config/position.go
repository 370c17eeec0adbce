package config

// This file finds the line a key is written on, for errors the decoder
// cannot place (enumerations, missing keys, names used twice). It asks
// go-toml itself: decoding into a shadow of Config that has only its tables
// makes the strict decoder report every other key, with its position, in a
// StrictMissingError. Nothing here parses TOML.

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// shadow mirrors Config's tables and arrays of tables, with no values;
// headers mirrors only its tables, so that each [[entry]] header is reported.
// flat leaves tables of strings out too, so that one written inline is
// reported whole (the strict decoder names an inline table's keys without
// their parents).
//
// The named variants leave the top-level key "provider" out, for a file that
// does not write it as a table (provider = "NAME", or a value of the wrong
// type): the strict decoder then reports that line, where it would refuse
// the value for the table.
var (
	shadow  = shadowOf(reflect.TypeFor[Config](), true, true, "")
	flat    = shadowOf(reflect.TypeFor[Config](), true, false, "")
	headers = shadowOf(reflect.TypeFor[Config](), false, false, "")

	shadowNamed  = shadowOf(reflect.TypeFor[Config](), true, true, "provider")
	flatNamed    = shadowOf(reflect.TypeFor[Config](), true, false, "provider")
	headersNamed = shadowOf(reflect.TypeFor[Config](), false, false, "provider")
)

func shadowOf(t reflect.Type, arrays, maps bool, omit string) reflect.Type {
	var fields []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("toml")
		if tag == "" || tag == "-" || tag == omit {
			continue
		}
		ft := f.Type
		switch {
		case ft.Kind() == reflect.Struct && ft != reflect.TypeFor[Duration]():
			ft = shadowOf(ft, arrays, maps, "")
		case arrays && ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			ft = reflect.SliceOf(shadowOf(ft.Elem(), arrays, maps, ""))
		case maps && ft.Kind() == reflect.Map && ft.Elem().Kind() == reflect.Struct:
			ft = reflect.MapOf(ft.Key(), shadowOf(ft.Elem(), arrays, maps, "")) // [models."NAME"]: each entry's keys are reported
		case maps && ft.Kind() == reflect.Map:
			ft = reflect.TypeFor[struct{}]() // its keys are reported too
		default:
			continue
		}
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: ft, Tag: reflect.StructTag(`toml:"` + tag + `"`)})
	}
	return reflect.StructOf(fields)
}

// keyPos is one key as the strict decoder reported it.
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

// find collects the positions.
func (p *positions) find() {
	if p.found {
		return
	}
	p.found = true
	data := p.data
	report := func(t reflect.Type) []keyPos {
		dec := toml.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var strict *toml.StrictMissingError
		if !errors.As(dec.Decode(reflect.New(t).Interface()), &strict) {
			return nil
		}
		out := make([]keyPos, len(strict.Errors))
		for i := range strict.Errors {
			line, _ := strict.Errors[i].Position()
			out[i] = keyPos{keyString(strict.Errors[i].Key()), line}
		}
		return out
	}
	sh, fl, hd := shadow, flat, headers
	if _, table := genericAt(data, "provider").(map[string]any); !table {
		sh, fl, hd = shadowNamed, flatNamed, headersNamed
	}
	p.keys, p.entries = append(report(sh), report(fl)...), map[string][]int{}
	for _, h := range report(hd) {
		p.entries[h.key] = append(p.entries[h.key], h.line)
		if !strings.Contains(h.key, ".") {
			p.keys = append(p.keys, h) // a top-level key: a table, or an array of them
		}
	}
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
