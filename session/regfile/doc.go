// Package regfile opens, reads and writes files that must be regular files:
// the config, attachments, the models cache, imports and the editor's
// draft are read with Open and ReadFile; exports are written with
// WritePrivate.
// A name that a FIFO, a device or a symlink to one has replaced is refused
// at once, never waited on or read without end: the open does not block
// (O_NONBLOCK where the system has it) and what was opened is checked with
// fstat, so the file checked is the file read. Reads are bounded.
//
// WritePrivate writes whole or not at all, through a symlink as a shell
// redirect would, and refuses a target that is not a regular file (a device
// is never replaced by a file).
//
// It is not for inputs that may rightly be pipes (replay of "-" or of a
// process substitution), nor for outputs that may (stdout).
package regfile
