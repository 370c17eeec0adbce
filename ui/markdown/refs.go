package markdown

import (
	"slices"

	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// definitions is what a Stream knows of its message's link reference
// definitions ([label]: destination "title"): those of the unsettled tail,
// and those its settled blocks were last rendered with.
//
// Invariants:
//   - tail is the definitions in the tail at its last parse, in order.
//   - known maps each label (normalized, util.ToLinkReference) to its first
//     definition's destination and title, joined by a NUL, as the settled
//     blocks were last rendered; a value is never "".
type definitions struct {
	tail  []parser.Reference
	known map[string]string
}

// sync takes the definitions of the settled blocks (settled, in order; the
// tail's follow them, and the first definition of a label wins) as known,
// and returns the labels added, changed or gone since the last sync.
func (d *definitions) sync(settled []parser.Reference) []string {
	refs := append(settled, d.tail...)
	if len(refs) == 0 && len(d.known) == 0 {
		return nil
	}
	now := map[string]string{}
	for _, r := range refs {
		k := util.ToLinkReference(r.Label())
		if _, ok := now[k]; !ok {
			now[k] = string(r.Destination()) + "\x00" + string(r.Title())
		}
	}
	var changed []string
	for _, m := range [...]map[string]string{now, d.known} {
		for k := range m {
			if now[k] != d.known[k] && !slices.Contains(changed, k) {
				changed = append(changed, k)
			}
		}
	}
	d.known = now
	return changed
}
