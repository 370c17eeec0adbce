// Package regfile opens and reads files that must be regular files: the
// config, attachments, the models cache, imports and the editor's draft.
// A name that a FIFO, a device or a symlink to one has replaced is refused
// at once, never waited on or read without end: the open does not block
// (O_NONBLOCK where the system has it) and what was opened is checked with
// fstat, so the file checked is the file read. Reads are bounded.
//
// It does not write files, and it is not for inputs that may rightly be
// pipes (replay of "-" or of a process substitution).
package regfile
