package modellist

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	Chat             bool     `json:"chat"`   // false: not a chat model by its name (models.Chat); /model leaves it out
	ContextWindow    *int64   `json:"context_window"`
	InputPrice       *float64 `json:"input_price"`
	CachedInputPrice *float64 `json:"cached_input_price"`
	OutputPrice      *float64 `json:"output_price"`
	Source           string   `json:"source,omitempty"` // where the figures came from
}

// OtherHead heads the group of models that are not for chat in the table.
const OtherHead = "not for chat (embeddings, speech, images, moderation…): /model leaves these out"

// Run lists the models: the chat models, then (in a group of their own) the
// others. Without a list (a server without /models, an error, the demo) it
// writes one line to Stderr saying why and lists the configured model
// alone: the exit status is still 0, and Listed says so.
func (e Env) Run(asJSON, refresh bool) error {
	list, err := e.Lister.List(e.Ctx, refresh)
	var lines []Line
	if err != nil {
		fmt.Fprintln(e.Stderr, "runnel: "+models.Why(err, e.Configured))
		if e.Configured != "" {
			lines = append(lines, e.line(stream.ModelEntry{ID: e.Configured}, false))
		}
	} else {
		var others []Line
		for _, m := range list.Models {
			if l := e.line(m, true); l.Chat || l.Configured {
				lines = append(lines, l)
			} else {
				others = append(others, l)
			}
		}
		lines = append(lines, others...)
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
	writeTable(e.Stdout, lines)
	fmt.Fprintln(e.Stdout, "* configured · prices in US dollars per million tokens; - is unknown (see [models.\"NAME\"] in config.example.toml)")
	if err == nil && list.Cached {
		fmt.Fprintf(e.Stdout, "listed %s (cached for %s; --refresh asks again)\n", list.Fetched.Local().Format("2006-01-02 15:04"), models.TTLText)
	}
	return nil
}

func (e Env) line(m stream.ModelEntry, listed bool) Line {
	l := lineOf(e.Table, stream.SanitizeLine(m.ID))
	l.OwnedBy, l.Configured, l.Listed = stream.SanitizeLine(m.OwnedBy), m.ID == e.Configured, listed
	l.Chat = l.Chat || l.Configured
	return l
}

// writeTable writes lines as a table under MODEL and Heads, the chat models
// first and the others (lines ends with them) under OtherHead, every
// column aligned across both groups.
func writeTable(w io.Writer, lines []Line) {
	ids := make([]string, len(lines))
	idW := runewidth.StringWidth("MODEL")
	for i, l := range lines {
		ids[i] = l.ID
		if l.Configured {
			ids[i] += " *"
		}
		idW = max(idW, runewidth.StringWidth(ids[i]))
	}
	row := func(id, figures string) {
		fmt.Fprintln(w, strings.TrimRight(runewidth.FillRight(id, idW)+"  "+figures, " "))
	}
	cols := columns(lines)
	row("MODEL", Join(HeadCells(cols)))
	for i, cells := range cols {
		if !lines[i].Chat && (i == 0 || lines[i-1].Chat) {
			fmt.Fprintln(w, "\n"+OtherHead)
		}
		row(ids[i], Join(cells))
	}
}

// HeadCells are Heads right-aligned over the cells of cols (Columns).
func HeadCells(cols [][]string) []string {
	out := make([]string, len(Heads))
	for j, h := range Heads {
		w := len(h)
		if len(cols) > 0 {
			w = runewidth.StringWidth(cols[0][j])
		}
		out[j] = runewidth.FillLeft(h, w)
	}
	return out
}
