package ui

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"runnel/stream/streamtest"
)

// TestApprovalVocabularyAgrees: the approval dialog, the status line's hint
// under it, the main "?" overlay and the dialog's own "?" name each answer
// with the same key and the same words (issue 21: the panel said
// "approve: y", the dialog "a approve once", "?" "a ask again"), and the
// root matches the dialog's keys, aliases included.
func TestApprovalVocabularyAgrees(t *testing.T) {
	t.Parallel()
	st := newTestModel(t, Options{}).frame.styles
	dk := DefaultApprovalKeys()
	rk := DefaultKeyMap()
	choices := dk.approvalChoices()

	a := NewApproval(testApprovalRequest(), st)
	foot := ansi.Strip(a.View(100, 20))
	main := ansi.Strip(HelpView(100, st, rk))
	a, _ = a.Update(keyPress("?"))
	own := ansi.Strip(a.View(100, 40))
	hint := ansi.Strip(rk.Hint(200, st, AwaitingApproval))

	for _, b := range choices {
		k, words := b.Help().Key, b.Help().Desc
		pair := regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(k) + ` +` + regexp.QuoteMeta(words) + `(\s|$| ·)`)
		for where, text := range map[string]string{"the dialog": foot, "the main ?": main, "the dialog's ?": own, "the status hint": hint} {
			if !pair.MatchString(text) {
				t.Errorf("%s does not name %q as %q:\n%s", where, k, words, text)
			}
		}
	}
	for _, gone := range []*regexp.Regexp{regexp.MustCompile(`(^|\s)a +ask again`), regexp.MustCompile(`approve: y|deny: n`), regexp.MustCompile(`(^|\s)[yn] +(approve|deny)`)} {
		if gone.MatchString(main + own + hint + foot) {
			t.Errorf("a second vocabulary is left: %s", gone)
		}
	}
	// every key the dialog's foot names is in its "?" with the same words
	for _, b := range a.choices() {
		if b.Help().Key == "ctrl+c" || b.Help().Key == "?" {
			continue // the root's, listed in the dialog's "?" as "deny and stop" and "these keys"
		}
		if !strings.Contains(own, b.Help().Key) || !strings.Contains(own, b.Help().Desc) {
			t.Errorf("the dialog's ? lacks %q %q:\n%s", b.Help().Key, b.Help().Desc, own)
		}
	}
	for _, c := range []struct{ root, dialog []string }{
		{rk.Approve.Keys(), dk.Approve.Keys()},
		{rk.ApproveSession.Keys(), dk.Session.Keys()},
		{rk.Deny.Keys(), dk.Deny.Keys()},
	} {
		if !slices.Equal(c.root, c.dialog) {
			t.Errorf("the root matches %v where the dialog matches %v", c.root, c.dialog)
		}
	}
	for _, alias := range []struct{ key, of string }{{"y", "a"}, {"n", "d"}} {
		if !slices.Contains(dk.Approve.Keys(), alias.key) && !slices.Contains(dk.Deny.Keys(), alias.key) {
			t.Errorf("%s is not an alias of %s", alias.key, alias.of)
		}
	}
}

// TestApprovalKeysWithoutTheDialog: a hosted request that came while
// another dialog was open waits with no dialog; the same keys answer it
// there: y (as a) opens the dialog on it and approves once, n (as d) opens
// it asking for the reason.
func TestApprovalKeysWithoutTheDialog(t *testing.T) {
	t.Parallel()
	m, srv := hostedAsking(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_ok", "done")})
	m.dialog = nil // the request was asked while another dialog was open
	_, cmd := m.Update(keyPress("y"))
	runCmd(m, cmd)
	if len(m.approvals.pending) != 0 || m.dialog != nil {
		t.Fatalf("y did not approve: %d pending, dialog open %v", len(m.approvals.pending), m.dialog != nil)
	}
	pump(t, m, nil)
	if reqs := srv.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), `"approve":true`) {
		t.Fatalf("%d requests; last: %s", len(reqs), reqs[len(reqs)-1].Body)
	}

	m, _ = hostedAsking(t)
	m.dialog = nil
	m.Update(keyPress("n"))
	ap, ok := m.dialog.(dlg[Approval])
	if !ok || !ap.v.Denying() || len(m.approvals.pending) != 1 {
		t.Fatalf("n should open the dialog asking why: %T, pending %d", m.dialog, len(m.approvals.pending))
	}
	if v := plain(m); !strings.Contains(v, "reason:") {
		t.Errorf("no reason prompt:\n%s", v)
	}
}

// TestHostedDenialShowsTheReason: a hosted request denied with a reason
// shows "denied: <reason>" on its panel, once; the reason goes to the
// server.
func TestHostedDenialShowsTheReason(t *testing.T) {
	t.Parallel()
	m, srv := hostedAsking(t)
	srv.Enqueue(streamtest.Reply{SSE: streamtest.Text("resp_no", "fine, I will not")})
	m.Update(keyPress("d"))
	for _, r := range "not on fridays" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	runCmd(m, cmd)
	if m.dialog != nil || len(m.approvals.pending) != 0 {
		t.Fatalf("not answered: dialog %T, %d pending", m.dialog, len(m.approvals.pending))
	}
	pump(t, m, nil)
	v := plain(m)
	if strings.Count(v, "denied: not on fridays") != 1 {
		t.Errorf("the reason is not on the panel once:\n%s", v)
	}
	for l := range strings.Lines(v) {
		if strings.Contains(l, "denied: not on fridays") && !strings.HasPrefix(l, "│") {
			t.Errorf("the reason is shown outside the panel: %q", l)
		}
	}
	if last := srv.Requests()[len(srv.Requests())-1]; !strings.Contains(string(last.Body), `"reason":"not on fridays"`) || !strings.Contains(string(last.Body), `"approve":false`) {
		t.Errorf("the denial sent: %s", last.Body)
	}
}

// TestApprovalDialogScrollsTheTranscript: the arguments are in the panel
// above the dialog, so pgup and home scroll the transcript while it is
// open (the dialog stays), and end follows again. (The transcript scrolls
// at its own height: one that fits the whole area but not the room above
// the dialog does not scroll.)
func TestApprovalDialogScrollsTheTranscript(t *testing.T) {
	t.Parallel()
	m, _ := hostedAsking(t)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 16})
	m.Update(resizeMsg{seq: m.frame.resizeSeq})
	m.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	if m.items.transcript.follow || m.dialog == nil {
		t.Fatalf("home: following %v, dialog open %v", m.items.transcript.follow, m.dialog != nil)
	}
	if v := plain(m); !strings.Contains(v, "shorten https://ai-sdk.dev/") || !strings.Contains(v, "Allow this tool call?") {
		t.Errorf("home does not show the top above the dialog:\n%s", v)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	if !m.items.transcript.follow || m.dialog == nil {
		t.Errorf("end: following %v, dialog open %v", m.items.transcript.follow, m.dialog != nil)
	}
}
