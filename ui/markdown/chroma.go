package markdown

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sync"

	"charm.land/glamour/v2/ansi"
	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

// chromaMu guards chroma's global style registry, which glamour reads
// without a lock on every code block: renders hold it for reading,
// registering a new palette's colours holds it for writing.
var chromaMu sync.RWMutex

// withOwnChromaStyle returns style with its code colours registered in
// chroma under a name derived from the colours, and referenced by name.
//
// Glamour registers every StyleConfig.CodeBlock.Chroma under the one name
// "charm", once per process, so a light renderer made after a dark one keeps
// the dark code colours (render study §5). Naming the style by a hash of its
// colours gives each palette its own entry. Registration waits for renders
// in progress (chromaMu); a palette already registered (every resize) only
// reads.
func withOwnChromaStyle(style ansi.StyleConfig) (ansi.StyleConfig, error) {
	c := style.CodeBlock.Chroma
	if c == nil {
		return style, nil
	}
	key, err := json.Marshal(c)
	if err != nil {
		return style, fmt.Errorf("encode chroma colours: %w", err)
	}
	h := fnv.New64a()
	_, _ = h.Write(key)
	name := fmt.Sprintf("runnel-%016x", h.Sum64())

	chromaMu.RLock()
	_, ok := chromastyles.Registry[name]
	chromaMu.RUnlock()
	if !ok {
		s, err := chroma.NewStyle(name, chromaEntries(c))
		if err != nil {
			return style, fmt.Errorf("build chroma style: %w", err)
		}
		chromaMu.Lock()
		if _, ok := chromastyles.Registry[name]; !ok {
			chromastyles.Register(s)
		}
		chromaMu.Unlock()
	}
	style.CodeBlock.Theme = name
	style.CodeBlock.Chroma = nil
	return style, nil
}

// chromaEntries maps glamour's chroma settings to chroma style entries, as
// glamour's own code block renderer does.
func chromaEntries(c *ansi.Chroma) chroma.StyleEntries {
	return chroma.StyleEntries{
		chroma.Text:                chromaEntry(c.Text),
		chroma.Error:               chromaEntry(c.Error),
		chroma.Comment:             chromaEntry(c.Comment),
		chroma.CommentPreproc:      chromaEntry(c.CommentPreproc),
		chroma.Keyword:             chromaEntry(c.Keyword),
		chroma.KeywordReserved:     chromaEntry(c.KeywordReserved),
		chroma.KeywordNamespace:    chromaEntry(c.KeywordNamespace),
		chroma.KeywordType:         chromaEntry(c.KeywordType),
		chroma.Operator:            chromaEntry(c.Operator),
		chroma.Punctuation:         chromaEntry(c.Punctuation),
		chroma.Name:                chromaEntry(c.Name),
		chroma.NameBuiltin:         chromaEntry(c.NameBuiltin),
		chroma.NameTag:             chromaEntry(c.NameTag),
		chroma.NameAttribute:       chromaEntry(c.NameAttribute),
		chroma.NameClass:           chromaEntry(c.NameClass),
		chroma.NameConstant:        chromaEntry(c.NameConstant),
		chroma.NameDecorator:       chromaEntry(c.NameDecorator),
		chroma.NameException:       chromaEntry(c.NameException),
		chroma.NameFunction:        chromaEntry(c.NameFunction),
		chroma.NameOther:           chromaEntry(c.NameOther),
		chroma.Literal:             chromaEntry(c.Literal),
		chroma.LiteralNumber:       chromaEntry(c.LiteralNumber),
		chroma.LiteralDate:         chromaEntry(c.LiteralDate),
		chroma.LiteralString:       chromaEntry(c.LiteralString),
		chroma.LiteralStringEscape: chromaEntry(c.LiteralStringEscape),
		chroma.GenericDeleted:      chromaEntry(c.GenericDeleted),
		chroma.GenericEmph:         chromaEntry(c.GenericEmph),
		chroma.GenericInserted:     chromaEntry(c.GenericInserted),
		chroma.GenericStrong:       chromaEntry(c.GenericStrong),
		chroma.GenericSubheading:   chromaEntry(c.GenericSubheading),
		chroma.Background:          chromaEntry(c.Background),
	}
}

func chromaEntry(p ansi.StylePrimitive) string {
	var s string
	add := func(part string) {
		if s != "" {
			s += " "
		}
		s += part
	}
	if p.Color != nil {
		add(*p.Color)
	}
	if p.BackgroundColor != nil {
		add("bg:" + *p.BackgroundColor)
	}
	if p.Italic != nil && *p.Italic {
		add("italic")
	}
	if p.Bold != nil && *p.Bold {
		add("bold")
	}
	if p.Underline != nil && *p.Underline {
		add("underline")
	}
	return s
}
