package block

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"runnel/stream"
	"runnel/ui/itemlook"
)

// TestForItemReadsKindTable: every entry of the item kind table gets its
// block from its class: messages and reasoning their own blocks, every
// other kind a panel whose header shows the icon and (for the kinds titled
// by kind) the title of the type's look in ui/itemlook. A new entry is
// covered without touching this package.
func TestForItemReadsKindTable(t *testing.T) {
	dynamic := map[string]string{ // kinds whose panel title says which server or tool
		"mcp_call":             "mcp.tool",
		"mcp_approval_request": "mcp.tool",
		"mcp_list_tools":       "mcp: listing tools",
	}
	kinds := append(stream.ItemKinds(), stream.KindFor("teleport_call"), stream.KindFor("teleport_call_output"), stream.KindFor("hologram"))
	for _, k := range kinds {
		it := item(t, `{"type":"`+k.Type+`","id":"x1","status":"completed"}`)
		b := ForItem(it, epoch)
		b.End(epoch)
		switch k.Class {
		case stream.ClassMessage:
			if _, ok := b.(*message); !ok {
				t.Errorf("%s: %T, want a message block", k.Type, b)
			}
			continue
		case stream.ClassReasoning:
			if _, ok := b.(*reasoning); !ok {
				t.Errorf("%s: %T, want a reasoning block", k.Type, b)
			}
			continue
		}
		p, ok := b.(*panel)
		if !ok {
			t.Errorf("%s: %T, want a panel", k.Type, b)
			continue
		}
		header, _, _ := strings.Cut(ansi.Strip(p.Render(testCtx(80, epoch))), "\n")
		look := itemlook.For(k.Type)
		title := strings.ToLower(look.Title)
		if k.Generic {
			title = k.Type
		}
		if d, ok := dynamic[k.Type]; ok {
			title = d
		}
		if !strings.Contains(header, " "+look.Icon+" "+title+" ") {
			t.Errorf("%s: header %q lacks icon %q and title %q", k.Type, header, look.Icon, title)
		}
	}
}
