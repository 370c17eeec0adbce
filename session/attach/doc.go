// Package attach turns files into the input parts of a user message: images
// (png, jpeg, webp, gif, found by their content) as input_image with a data
// URL, PDFs as input_file with file_data, and UTF-8 text as input_text headed
// by the file's name. The model sees a name relative to the working
// directory, or the base name of a file outside it (SentName): no other
// local path leaves the machine. It checks limits (size per file and per
// message, type) before anything is read whole, reads the paths a terminal
// pastes (quoted, backslash-escaped or file:// URLs; PastedPath also finds
// the ones that cannot be attached, so the chat can say why), completes
// @paths and reads them back, quoted when they hold a space
// (@"my dir/a.txt"), and reads the attachments of a message back from its
// JSON for display.
//
// Text goes as input_text rather than input_file: every server that speaks
// the Responses API accepts input_text, while input_file for text types is
// OpenAI's alone. The name heads the text so the model knows what it reads.
//
// It does no network I/O, stores nothing and renders nothing.
package attach
