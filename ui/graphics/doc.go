// Package graphics shows runnel's own images (generated images) inline in
// a terminal that can draw them, and says when it cannot.
//
// Detect decides from the environment, never assuming: the kitty graphics
// protocol when TERM is xterm-kitty or KITTY_WINDOW_ID is set (kitty, and
// terminals that set them), else iTerm2 inline images (below), off
// elsewhere. Inside tmux (TMUX set) images stay off unless tmux passes them through: `tmux show -gv
// allow-passthrough` answers on or all (RUNNEL_INLINE_IMAGES=0 turns them
// off everywhere, =1 skips the tmux check).
//
// Prepare decodes an image's base64 data, checks it (PNG, JPEG or GIF; at
// most MaxBytes of data and MaxPixels), re-encodes it as PNG and returns
// the kitty sequences that transmit it with a virtual placement, plus the
// Unicode placeholder rows (U+10EEEE, the image id as the 256-colour
// foreground) that stand in the cell grid where the image is drawn. A
// cell-based renderer (Bubble Tea v2) moves, scrolls and erases the
// placeholders like any text, so the picture follows the transcript;
// nothing from the stream reaches the terminal but re-encoded pixels.
//
// It does not render panels (ui/block) or write files (session/images).
// iTerm2's inline images (OSC 1337; iTerm2 and WezTerm from TERM_PROGRAM,
// iTerm2 over ssh from LC_TERMINAL) draw at the cursor and stay where they
// were drawn, so for them Prepare returns blank reserved rows and a
// sequence the caller writes at the rows' screen place (Locate, DrawAt)
// each time that place changes (iterm.go); the kitty protocol wins when
// both are detected.
package graphics
