package ui

// This file is the queue child: a message sent (enter) while a reply
// streams or its tools run waits here, shown under the composer, and goes
// out when the turn ends, once, in order. ↑ or esc on an empty composer
// takes the last one back into the composer (to edit it, or keep it);
// ctrl+enter (send_now) stops the reply and sends at once. A turn that
// fails or is stopped sends nothing: the first queued message comes back
// into the composer (it stays queued when the composer holds text), so
// nothing is lost and nothing goes out after an error unasked.

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"runnel/session"
	"runnel/session/attach"
	"runnel/stream"
	"runnel/theme"
	"runnel/ui/block"
)

// queued is one message waiting for the turn to end.
type queued struct {
	text   string
	files  []*attach.File
	prompt *session.Override
}

// msgQueue is the messages waiting for the turn in flight to end.
//
// Invariants:
//   - msgs are in the order they were sent; each leaves the queue once,
//     either sent (next) or taken back (takeLast, next after a failure).
//   - urgent is true only between a send_now and the end of the turn it
//     stopped.
type msgQueue struct {
	msgs   []queued
	urgent bool // send_now stopped the reply: its end sends the queue's first
}

// queueShown is how many queued messages the lines under the composer name.
const queueShown = 3

func (q *msgQueue) len() int { return len(q.msgs) }

// hurry is send_now: the reply stops, and its end sends the queue's first.
func (q *msgQueue) hurry() { q.urgent = true }

// takeUrgent reports whether send_now stopped the reply that ended, and
// forgets it.
func (q *msgQueue) takeUrgent() bool {
	u := q.urgent
	q.urgent = false
	return u
}

// add queues msg; after send_now (hurry) it goes ahead of the rest.
func (q *msgQueue) add(msg queued) {
	if q.urgent {
		q.msgs = append([]queued{msg}, q.msgs...)
		return
	}
	q.msgs = append(q.msgs, msg)
}

// takeLast takes the last queued message out.
func (q *msgQueue) takeLast() (queued, bool) {
	n := len(q.msgs)
	if n == 0 {
		return queued{}, false
	}
	msg := q.msgs[n-1]
	q.msgs = q.msgs[:n-1]
	return msg, true
}

// next takes the first queued message out.
func (q *msgQueue) next() (queued, bool) {
	if len(q.msgs) == 0 {
		return queued{}, false
	}
	msg := q.msgs[0]
	q.msgs = q.msgs[1:]
	return msg, true
}

// view is the queued messages, one line each under the composer (the
// first queueShown, then how many more), or "".
func (q *msgQueue) view(width int, st *theme.Styles) string {
	if len(q.msgs) == 0 {
		return ""
	}
	sh := theme.ShellOf(st)
	var lines []string
	for i, msg := range q.msgs {
		if i == queueShown {
			lines = append(lines, sh.HelpDesc.Render("  … "+strconv.Itoa(len(q.msgs)-queueShown)+" more queued"))
			break
		}
		text := stream.SanitizeLine(strings.Join(strings.Fields(msg.text), " "))
		if n := len(msg.files); n > 0 {
			text += " (+" + strconv.Itoa(n) + " file" + map[bool]string{true: "s"}[n > 1] + ")"
		}
		hint := ""
		if i == len(q.msgs)-1 {
			hint = " · goes out when the reply ends · esc/↑ takes it back"
		}
		lines = append(lines, sh.HelpKey.Render("⏸ queued: ")+sh.HelpDesc.Render(text+hint))
	}
	return cutLines(strings.Join(lines, "\n"), width)
}

// enqueue queues a message sent while the chat is busy with a turn; it
// reports whether it did (the chat was busy).
func (m *Model) enqueue(msg SubmitMsg) bool {
	if p := m.activity().phase; p != phStreaming && p != phTools {
		return false
	}
	if strings.TrimSpace(msg.Text) == "" && len(msg.Files) == 0 {
		return true
	}
	m.queue.add(queued{text: msg.Text, files: msg.Files, prompt: msg.Prompt})
	m.relayout()
	return true
}

// queueTurnEnded is the queue's side of a turn's end (turnEndMsg): once the
// chat is idle, the first queued message goes out; after a failed or
// stopped turn it comes back into the composer instead.
func (m *Model) queueTurnEnded(msg turnEndMsg) tea.Cmd {
	urgent := m.queue.takeUrgent()
	if m.queue.len() == 0 || m.activity().phase != phIdle {
		return nil
	}
	if (msg.failed || msg.stopped) && !urgent {
		if m.composer.Value() != "" || len(m.composer.Attachments()) > 0 {
			m.items.notice(block.Info, "the turn did not finish: your queued message stays queued (esc or ↑ takes it back)")
			return nil
		}
		q, _ := m.queue.next()
		m.relayout()
		m.composer.putBack(q.text, q.files)
		m.items.notice(block.Info, "the turn did not finish: your queued message is back in the composer — enter sends it")
		return nil
	}
	q, _ := m.queue.next()
	m.relayout()
	m.turns.Update(overrideMsg{q.prompt})
	return m.submit(q.text, q.files)
}

// unqueue takes the last queued message back into the (empty) composer.
func (m *Model) unqueue() {
	q, ok := m.queue.takeLast()
	if !ok {
		return
	}
	m.relayout()
	m.composer.putBack(q.text, q.files) // a prompt file's /NAME as typed
	m.items.notice(block.Info, "taken back from the queue — enter queues it again")
}

// sendNow is send_now while a reply streams: the reply stops, and the
// composer's message goes out as soon as it has (ahead of the queue).
func (m *Model) sendNow() tea.Cmd {
	if m.activity().phase == phStreaming {
		m.queue.hurry()
		return tea.Batch(m.turns.interrupt(), m.composer.send())
	}
	return m.composer.send()
}

// relayout sizes the transcript after the lines under it changed.
func (m *Model) relayout() {
	m.items.Update(layoutMsg{height: m.transcriptHeight()})
}
