package theme

import "charm.land/lipgloss/v2"

// Dialog is the look of the chat's dialogs: the session picker, search
// results, the tools menu and the approval prompt. Like Shell it is derived
// from Styles (never from raw colours), so every palette, NO_COLOR included,
// gets it for free.
//
// The selected row is marked by a glyph and bold text, not by a background,
// so rows whose pieces carry their own styling (search matches) read the
// same under every palette.
//
// The zero Dialog renders plain text; DialogOf(nil) returns it.
type Dialog struct {
	Title    lipgloss.Style // the dialog's first line: "Sessions", "Search: …"
	Marker   lipgloss.Style // the "›" before the selected row
	Item     lipgloss.Style // a row's main text
	Selected lipgloss.Style // the selected row's main text
	Meta     lipgloss.Style // age, turn count, model, tool kind
	Preview  lipgloss.Style // dimmed second lines: previews, descriptions
	Match    lipgloss.Style // matched text in a title or snippet
	Empty    lipgloss.Style // "no saved sessions yet"
	Check    lipgloss.Style // a checked box
	Confirm  lipgloss.Style // "delete …? y/n", the approval question
	Label    lipgloss.Style // "command", "arguments"
	Code     lipgloss.Style // a command and its arguments
	More     lipgloss.Style // "… 12 more lines"

	Key, Desc, Sep lipgloss.Style // the footer's key hint

	Prompt lipgloss.Style // a text input's prompt
	Cursor lipgloss.Style // its foreground is the text input's cursor colour
}

// DialogOf derives the dialogs' styles from st; nil gives the plain Dialog.
func DialogOf(st *Styles) Dialog {
	if st == nil {
		return Dialog{}
	}
	return Dialog{
		Title:    st.Accent.Underline(true),
		Marker:   st.Accent,
		Item:     st.Base,
		Selected: st.Base.Bold(true),
		Meta:     st.Muted,
		Preview:  st.Preview,
		Match:    st.Highlight,
		Empty:    st.Notice,
		Check:    st.Success,
		Confirm:  st.Warning.Bold(true),
		Label:    st.PanelLabel,
		Code:     st.Accent2,
		More:     st.Notice,

		Key:  st.HintKey,
		Desc: st.Hint,
		Sep:  st.Hint,

		Prompt: st.Accent,
		Cursor: st.Accent,
	}
}
