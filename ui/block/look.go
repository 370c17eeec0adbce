package block

import (
	"charm.land/lipgloss/v2"

	"runnel/theme"
)

// look is the set of styles blocks draw with, taken from theme.Styles (the
// only source of colour). A nil *theme.Styles gives plain text.
type look struct {
	border         lipgloss.Style // panel edges: the colour of theme's Panel border
	title, icon    lipgloss.Style
	running, done  lipgloss.Style
	failed, warn   lipgloss.Style
	muted, label   lipgloss.Style
	output         lipgloss.Style // previews of arguments and output
	errorText      lipgloss.Style
	diffAdd        lipgloss.Style
	diffDel        lipgloss.Style
	diffHunk       lipgloss.Style
	user           lipgloss.Style // a block style (border, padding), applied per row
	refusal        lipgloss.Style
	commentary     lipgloss.Style
	reasonHeader   lipgloss.Style
	reasonBody     lipgloss.Style // a block style, applied per row
	link           lipgloss.Style
	sourcesHeading lipgloss.Style
	notices        [len(noticeNames)]lipgloss.Style
}

// look returns the look for the context's styles, made once per Styles by
// its Renderers (a render asks for it every frame; a look is a few kilobytes
// of styles); without Renderers (tests) a new one.
func (c Context) look() *look { return c.Markdown.look(c.Styles) }

// look returns the look for st, kept with the renderers; a nil set makes a
// new one.
func (rs *Renderers) look(st *theme.Styles) *look {
	if rs == nil {
		return newLook(st)
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if lk, ok := rs.looks[st]; ok {
		return lk
	}
	if len(rs.looks) >= maxRenderers { // styles are made per theme change: few
		clear(rs.looks)
	}
	lk := newLook(st)
	rs.looks[st] = lk
	return lk
}

func newLook(st *theme.Styles) *look {
	if st == nil {
		st = &theme.Styles{}
	}
	return &look{
		border:         lipgloss.NewStyle().Foreground(st.Panel.GetBorderTopForeground()),
		title:          st.PanelTitle,
		icon:           st.PanelIcon,
		running:        st.PanelRunning,
		done:           st.PanelDone,
		failed:         st.PanelFailed,
		warn:           st.Warning,
		muted:          st.Muted,
		label:          st.PanelLabel,
		output:         st.Preview,
		errorText:      st.Error,
		diffAdd:        st.DiffAdd,
		diffDel:        st.DiffDel,
		diffHunk:       st.Accent2,
		user:           st.User,
		refusal:        st.Refusal,
		commentary:     st.Commentary,
		reasonHeader:   st.ReasoningHeader,
		reasonBody:     st.ReasoningBody,
		link:           st.Link.Underline(false), // lipgloss underlines rune by rune; the hyperlink marks it enough
		sourcesHeading: st.PanelLabel.Bold(true),
		notices:        [...]lipgloss.Style{Info: st.Notice, Warning: st.Warning, Error: st.Error, Retry: st.Warning},
	}
}

// state returns the style of a panel state.
func (lk *look) state(s state) lipgloss.Style {
	switch s {
	case stateRunning:
		return lk.running
	case stateDone:
		return lk.done
	case stateFailed:
		return lk.failed
	}
	return lk.warn
}

func (lk *look) notice(k NoticeKind) lipgloss.Style { return lk.notices[k] }
