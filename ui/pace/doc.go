// Package pace is the chat's frame pacing: when to take a stream's next
// batch, when to draw (whole or as a draft), and when the next frame tick
// comes. It is one pure state machine, Pacer, asked at every decision point
// with the Facts the UI knows and the time now; it answers with a Plan. It
// reads no clock, starts no timer and imports no Bubble Tea: the UI turns a
// Plan into Cmds, and every time it passes comes from a message or the
// UI's injected clock.
//
// The policy, as the chat has run it since drafts (see README's Design):
//
//   - A streaming turn's batches are its frames. The stream hands over a
//     batch when the UI asks (Plan.Take) and holds what comes meanwhile for
//     up to Plan.Hold: none before the first delta and none after a full
//     batch (the rest of a burst is taken at once); once deltas flow, as
//     long as they have flowed, up to StreamInterval (10 frames a second).
//     So the first words of a turn are drawn as they come, and the holds
//     double from none to the batch rate within a few frames: batching is
//     for a flood, never for a trickle. The stream bounds a batch (32 KB,
//     512 events) and hands over a full one, the end of a text, an item or
//     the response, or a retry at once, whatever the hold; and a delta that
//     comes more than Pause after the event before it (stream.Batch.Fresh,
//     Facts.Fresh), which begins a new flow: drawn at once (the holds do
//     not ramp again: a server that stalls now and then would draw the
//     ramp after every stall).
//   - A batch is drawn when it comes, unless it is part of a burst (it or
//     the one before it was full, it closes nothing and brings no first
//     words of a flow) and the last batch
//     drawn is younger than BurstDraw: then it waits for a fast frame tick.
//     A batch that closes a text, an item or the response is drawn at once;
//     so is the final batch, always. A batch of a stopped turn is not drawn:
//     the final one follows at once.
//   - Draft: while a turn streams, a draw within DraftFor of the last full
//     batch, or of the turn's first delta (the ramp's quick frames), is a
//     draft (new code blocks uncoloured, markdown.Stream.Draft); after that
//     a stream paced below the batch bound is never full, never drafted.
//   - Frame ticks: at most one is obeyed, the one scheduled last (Seq); a
//     tick comes FrameInterval after it is asked for when something must be
//     drawn (a batch held back, a tool's output, a live panel), SpinnerStep
//     after when only the spinner or a countdown moves (a turn in flight).
//     A scheduled tick at least as soon is kept; a slow one is superseded by
//     a fast one. After a draw the next tick is fast while an entry animates
//     or local tools run (not waiting for an approval), slow while a turn is
//     in flight, and none at all otherwise: an idle chat schedules nothing.
//   - A slow tick that finds a batch drawn within SpinnerStep (the batch
//     moved the spinner) draws nothing and looks again in StallCheck, so a
//     flowing stream wakes the chat 3 times a second for its spinner, not 10.
//   - While an approval waits and no frame tick is scheduled, a slow wait
//     tick (SpinnerStep) moves the frame clock for the status line's timer
//     without drawing the transcript.
//
// Invariants (TestPacerProperties checks them on random runs):
//   - every tick scheduled has a new Seq, and only the last one scheduled
//     is obeyed; while one is scheduled another is only when it is sooner
//     (a fast one replacing a slow one);
//   - a batch is asked for once at a time, only while a turn is in flight,
//     never after its final batch, held at most StreamInterval and not at
//     all in a burst;
//   - the first delta of a turn, the first after a Pause and the end of a
//     text are drawn within a frame (1/60 s) of coming from the stream;
//   - the response's end (its terminal event) is drawn on the next frame
//     after it comes from the stream, whether the stream's end comes with
//     it or after it;
//   - the end of a turn is always drawn, and a batch held back always has
//     a fast tick scheduled to draw it within FrameInterval;
//   - the batches of a burst are drawn at most once per BurstDraw;
//   - a draft only while a turn is in flight, within DraftFor of its last
//     full batch or of its first delta;
//   - an idle chat (no turn, nothing animating, no tools running) schedules
//     no tick;
//   - the approval's wait tick only while an approval waits and no tick of
//     either kind is scheduled; it moves the frame clock forward only.
//
// It does not draw, read streams, or know what a batch holds beyond the
// Facts; it does not decide how much a batch holds (the stream's bounds do).
package pace
