package modellist

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"

	"runnel/session/models"
	"runnel/stream"
)

// Env is what the command needs.
type Env struct {
	Ctx        context.Context
	Stdout     io.Writer
	Stderr     io.Writer
	Lister     models.Lister
	Table      models.Table
	Configured string // the model the config (or --model) names
}

// Line is one model in `runnel models --json`. Figures the table lacks are
// null: nothing is guessed.
type Line struct {
	ID               string   `json:"id"`
	OwnedBy          string   `json:"owned_by,omitempty"`
	Configured       bool     `json:"configured"`
	Listed           bool     `json:"listed"` // false: the server gave no list, this is the configured model
	ContextWindow    *int64   `json:"context_window"`
	InputPrice       *float64 `json:"input_price"`
	CachedInputPrice *float64 `json:"cached_input_price"`
	OutputPrice      *float64 `json:"output_price"`
	Source           string   `json:"source,omitempty"` // where the figures came from
}

// Run lists the models. Without a list (a server without /models, an error,
// the demo) it writes one line to Stderr saying why and lists the
// configured model alone: the exit status is still 0, and Listed says so.
func (e Env) Run(asJSON, refresh bool) error {
	list, err := e.Lister.List(e.Ctx, refresh)
	var lines []Line
	if err != nil {
		fmt.Fprintln(e.Stderr, "runnel: "+models.Why(err, e.Configured))
		if e.Configured != "" {
			lines = append(lines, e.line(stream.ModelEntry{ID: e.Configured}, false))
		}
	} else {
		for _, m := range list.Models {
			lines = append(lines, e.line(m, true))
		}
	}
	if asJSON {
		enc := json.NewEncoder(e.Stdout)
		enc.SetEscapeHTML(false)
		for _, l := range lines {
			if err := enc.Encode(l); err != nil {
				return err
			}
		}
		return nil
	}
	if err == nil && len(lines) == 0 {
		fmt.Fprintln(e.Stdout, "the server lists no models")
		return nil
	}
	rows := [][]string{{"MODEL", "CONTEXT", "INPUT $/M", "CACHED $/M", "OUTPUT $/M"}}
	for _, l := range lines {
		id := l.ID
		if l.Configured {
			id += " *"
		}
		rows = append(rows, []string{id, window(l.ContextWindow), price(l.InputPrice), price(l.CachedInputPrice), price(l.OutputPrice)})
	}
	write(e.Stdout, rows)
	fmt.Fprintln(e.Stdout, "* configured · prices in US dollars per million tokens; - is unknown (see [models.\"NAME\"] in config.example.toml)")
	if err == nil && list.Cached {
		fmt.Fprintf(e.Stdout, "listed %s (cached for %s; --refresh asks again)\n", list.Fetched.Local().Format("2006-01-02 15:04"), models.TTLText)
	}
	return nil
}

func (e Env) line(m stream.ModelEntry, listed bool) Line {
	l := Line{ID: stream.SanitizeLine(m.ID), OwnedBy: stream.SanitizeLine(m.OwnedBy), Configured: m.ID == e.Configured, Listed: listed}
	info, ok := e.Table.Lookup(m.ID)
	if !ok {
		return l
	}
	l.Source = info.Source
	if info.ContextWindow > 0 {
		l.ContextWindow = &info.ContextWindow
	}
	if info.Priced() {
		l.InputPrice, l.OutputPrice = &info.Input, &info.Output
		cached := info.CachedInput
		if cached <= 0 {
			cached = info.Input // priced as input, as the cost is
		}
		l.CachedInputPrice = &cached
	}
	return l
}

func window(n *int64) string {
	if n == nil {
		return "-"
	}
	switch v := *n; {
	case v >= 1_000_000 && v%1_000_000 == 0:
		return strconv.FormatInt(v/1_000_000, 10) + "M"
	case v >= 1000:
		return strconv.FormatInt(v/1000, 10) + "k"
	default:
		return strconv.FormatInt(v, 10)
	}
}

func price(p *float64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatFloat(*p, 'f', -1, 64)
}

// write writes rows as columns two spaces apart, numbers right-aligned.
func write(w io.Writer, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], runewidth.StringWidth(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i == 0 {
				b.WriteString(runewidth.FillRight(c, widths[i]))
			} else {
				b.WriteString("  " + runewidth.FillLeft(c, widths[i]))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
