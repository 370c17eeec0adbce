package theme

import "charm.land/lipgloss/v2"

// Shell is the look of the chat's frame around the transcript: the status
// line, the key hint, the "↓ N new lines" hint, the composer and its slash
// menu, and the "?" overlay. It is derived from Styles (never from raw
// colours), so every palette, NO_COLOR included, gets it for free.
//
// The zero Shell renders plain text; ShellOf(nil) returns it, which lets
// views run in tests and before the terminal's background is known.
type Shell struct {
	Bar    lipgloss.Style // the status line's base; other status pieces inherit from it
	State  lipgloss.Style // "⠋ streaming"
	Alert  lipgloss.Style // the state while an approval waits
	Model  lipgloss.Style
	Detail lipgloss.Style // the reasoning title, "retry in 3s"
	Badge  lipgloss.Style // the "DEMO" badge (carries its own padding)
	Muted  lipgloss.Style // usage, elapsed time, separators, menu rows

	HintKey, HintDesc, HintSep lipgloss.Style // the key hint line
	NewLines                   lipgloss.Style // "↓ N new lines" (carries its own padding)

	HelpTitle, HelpKey, HelpDesc lipgloss.Style // the "?" overlay

	Prompt    lipgloss.Style // the composer's "›"
	Cursor    lipgloss.Style // its foreground is the composer's cursor colour
	Selection lipgloss.Style // the selected slash-menu row
	Marked    lipgloss.Style // text selected with the mouse in the transcript
}

// ShellOf derives the frame's styles from st; nil gives the plain Shell.
func ShellOf(st *Styles) Shell {
	if st == nil {
		return Shell{}
	}
	return Shell{
		Bar:    st.StatusBar,
		State:  st.StatusState,
		Alert:  st.Warning.Bold(true),
		Model:  st.StatusModel,
		Detail: st.ReasoningHeader,
		Badge:  st.StatusDemo,
		Muted:  st.Muted,

		HintKey:  st.HintKey,
		HintDesc: st.Hint,
		HintSep:  st.Hint,
		NewLines: st.NewLines,

		HelpTitle: st.Accent.Underline(true),
		HelpKey:   st.Accent2,
		HelpDesc:  st.Base,

		Prompt:    st.Accent,
		Cursor:    st.Accent,
		Selection: st.Selection,
		Marked:    lipgloss.NewStyle().Reverse(true), // reversed: as terminals show a selection, NO_COLOR too
	}
}
