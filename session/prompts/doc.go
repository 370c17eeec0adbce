// Package prompts reads prompt files: named, reusable prompts the chat runs
// as /NAME and a one-shot as -t NAME.
//
// A prompt file is NAME.md in a prompts directory: the config directory's
// prompts/ (global), or .runnel/prompts/ in the working directory (the
// project's). It may open with TOML front matter between two lines of +++
// (description, instructions, model, effort, tools; any other key is an
// error); the rest is the template, where {{input}} stands for what follows
// /NAME, and @path mentions attach files as the composer's do (resolved by
// session/attach, relative to the working directory). A template without
// {{input}} gets the input after a blank line; an empty one is {{input}}.
//
// Files (parse.go reads one file, load.go a directory and the project's
// trust, expand.go fills a template in, trust.go remembers the project
// directories the user allowed, with a hash of their files).
//
// Every problem with a file is one line, file:line: what is wrong and what
// to do; a bad file is skipped, never fatal. A project directory is used
// only once the user has allowed it with its current contents: a changed
// file (added, removed, edited) makes it ask again.
//
// It renders nothing, sends nothing, and does not read the attachments a
// template mentions (the caller does, with session/attach).
package prompts
