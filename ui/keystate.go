package ui

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/theme"
)

// This file is the keys child: the key map, the "?" overlay of every key
// and its scrolling, and the presses that arm a second one (ctrl+c, esc).

// keyState is the keys' state: the map, the "?" overlay and the presses
// that arm a second one.
type keyState struct {
	keys      KeyMap
	showHelp  bool
	helpTop   int       // first line of the "?" overlay shown, when it is taller than the area
	quitArmed time.Time // ctrl+c pressed once while idle
	escArmed  time.Time // esc pressed once with an empty, idle composer
}

// setHelp shows the "?" overlay, from its top, or hides it.
func (ks *keyState) setHelp(on bool) { ks.showHelp, ks.helpTop = on, 0 }

// armQuit arms ctrl+c's second press at now (quit).
func (ks *keyState) armQuit(now time.Time) { ks.quitArmed = now }

// armEsc arms esc's second press at now (edit the last prompt); the
// zero time disarms it.
func (ks *keyState) armEsc(now time.Time) { ks.escArmed = now }

// armed reports which double presses are armed at now: esc within the
// second, ctrl+c within two.
func (ks *keyState) armed(now time.Time) (esc, quit bool) {
	esc = !ks.escArmed.IsZero() && now.Sub(ks.escArmed) < time.Second
	quit = !ks.quitArmed.IsZero() && now.Sub(ks.quitArmed) < 2*time.Second
	return esc, quit
}

// decide is what key k does in the chat's state f (decideKey, keyfn.go).
func (ks *keyState) decide(k tea.KeyPressMsg, f keyFacts) keyAction {
	return decideKey(&ks.keys, k, f)
}

// helpView is the "?" overlay in the transcript area: when it is taller,
// a window of it from helpTop and a last line saying how to scroll.
func (ks *keyState) helpView(f *frameState, h int) string {
	st := f.styles
	lines := strings.Split(HelpView(f.width, st, ks.keys), "\n")
	if len(lines) <= h || h < 2 {
		return fitHeight(strings.Join(lines, "\n"), h)
	}
	top := min(max(ks.helpTop, 0), len(lines)-(h-1))
	more := theme.DialogOf(st).More.Render(cutLines("↑/↓ pgup/pgdn scroll · lines "+strconv.Itoa(top+1)+"–"+strconv.Itoa(top+h-1)+" of "+strconv.Itoa(len(lines))+" · esc close", f.width))
	return strings.Join(append(lines[top:top+h-1:top+h-1], more), "\n")
}

// helpScroll scrolls the "?" overlay when it is taller than the area, and
// reports whether k was a scrolling key.
func (ks *keyState) helpScroll(k tea.KeyPressMsg, f *frameState, h int) bool {
	page := max(h-2, 1)
	switch {
	case key.Matches(k, ks.keys.LineUp):
		ks.helpTop--
	case key.Matches(k, ks.keys.LineDown):
		ks.helpTop++
	case key.Matches(k, ks.keys.PageUp):
		ks.helpTop -= page
	case key.Matches(k, ks.keys.PageDown):
		ks.helpTop += page
	case key.Matches(k, ks.keys.Top):
		ks.helpTop = 0
	case key.Matches(k, ks.keys.Bottom):
		ks.helpTop = 1 << 20
	default:
		return false
	}
	n := strings.Count(HelpView(f.width, f.styles, ks.keys), "\n") + 1
	ks.helpTop = min(max(ks.helpTop, 0), max(n-(h-1), 0))
	return true
}

// HelpView is the "?" overlay for key map k: one block per FullHelp group
// (the approvals stacked under the dialogs' keys, then how to select text
// with the mouse) plus one for the slash menu's keys and the slash
// commands, packed left to right into rows as width allows. Every line is
// at most width cells; disabled bindings are left out.
func HelpView(width int, st *theme.Styles, k KeyMap) string {
	sh := theme.ShellOf(st)
	table := func(title string, rows [][2]string) string {
		keyW := 0
		for _, r := range rows {
			keyW = max(keyW, ansi.StringWidth(r[0]))
		}
		lines := []string{sh.HelpTitle.Render(title)}
		for _, r := range rows {
			pad := strings.Repeat(" ", keyW-ansi.StringWidth(r[0]))
			lines = append(lines, sh.HelpKey.Render(r[0])+pad+"  "+sh.HelpDesc.Render(r[1]))
		}
		return strings.Join(lines, "\n")
	}
	var blocks []string
	stacked := 0 // the block the approvals and the mouse go under
	for g, group := range k.FullHelp() {
		var rows [][2]string
		for _, b := range group {
			if b.Enabled() {
				rows = append(rows, [2]string{b.Help().Key, b.Help().Desc})
			}
		}
		if g == helpStacked {
			blocks[len(blocks)-1] += "\n\n" + table(helpGroupTitles[g], rows)
			stacked = len(blocks) - 1
			continue
		}
		blocks = append(blocks, table(helpGroupTitles[g], rows))
	}
	mouse := []string{sh.HelpTitle.Render("Mouse")}
	for _, l := range mouseHelp {
		mouse = append(mouse, sh.HelpDesc.Render(l))
	}
	blocks[stacked] += "\n\n" + strings.Join(mouse, "\n")
	// the slash menu's keys, as the composer matches them (its two moves on
	// one row), then the commands
	mk := DefaultCompletionKeys()
	cmds := [][2]string{{"↑↓ ctrl+p/n", "choose a command"}} // mk.List.Up and Down
	for _, b := range []key.Binding{mk.Complete, mk.Run} {
		cmds = append(cmds, [2]string{b.Help().Key, b.Help().Desc})
	}
	for _, c := range slashCommands {
		cmds = append(cmds, [2]string{c.Usage(), c.Desc})
	}
	blocks = append(blocks, table("Slash menu and commands", cmds))
	return cutLines(flow(blocks, width, "   "), width)
}

// flow packs blocks left to right, separated by gap, starting a new row
// (after a blank line) when the next block would pass width.
func flow(blocks []string, width int, gap string) string {
	var rows, row []string
	rowW := 0
	for _, b := range blocks {
		w := lipgloss.Width(b)
		if len(row) > 0 && rowW+len(gap)+w > width {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, rowW = nil, 0
		}
		if len(row) > 0 {
			row = append(row, gap)
			rowW += len(gap)
		}
		row = append(row, b)
		rowW += w
	}
	if len(row) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	}
	return strings.Join(rows, "\n\n")
}
