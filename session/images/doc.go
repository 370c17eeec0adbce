// Package images writes generated images (the base64 results and partial
// images of image_generation_call items) to disk, only where the caller asks
// for it: the chat writes them, one-shot and replay only with --save-images.
//
// A Sink takes an image: Dir writes it into one directory runnel owns
// (<data-dir>/images), Off writes nothing and says why. Dir creates each
// file exclusively (O_CREATE|O_EXCL, mode 0600) through an os.Root on the
// directory, so a symlink or file planted there is never followed or
// overwritten (the next free name is used instead), and it refuses a
// directory that is a symlink, not a directory, not owned by this user or
// writable by others. Errors are one line: what, where, what to do.
//
// It does not render panels or know about flags; ui/block shows what a
// Sink did, and package main picks the Sink.
package images
