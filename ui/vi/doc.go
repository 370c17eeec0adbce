// Package vi is the composer's vi editing: a pure state machine over a
// text buffer and a cursor. Editor.Key takes one key press (as Bubble Tea
// names it: "h", "$", "esc", "enter") and the buffer, and returns the
// buffer after it and what the caller should do (nothing more, send, or
// let its own input handle the key, as in insert mode).
//
// Normal mode has the motions h j k l, w b e, 0 $ (motion.go); the
// operators x, dd, dw, cw, yy, p and P; u to undo; i a I A o O to insert;
// enter to send.
// Insert mode hands every key back except esc, which returns to normal
// mode.
//
// It does not draw, read the terminal or know Bubble Tea: the composer
// (ui/composer.go) converts its textarea to a Buffer and back.
package vi
