package models

import "sort"

// Row is one entry of the table, for listings.
type Row struct {
	Name string
	Info
}

// Rows lists the table by name.
func (t Table) Rows() []Row {
	var out []Row
	for k, v := range t.table() {
		out = append(out, Row{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
