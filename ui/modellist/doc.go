// Package modellist is `runnel models`: the provider's models (GET
// {base}/models, through the cache of package session/models) with what the
// table of context windows and prices knows of each, as a table or JSON
// Lines, the models that are not for chat in a group of their own. Its
// figures columns (columns.go) are also the /model picker's, so both show
// the same figures in the same form. It knows no cobra: package main
// (models_cmd.go) builds the command and its flags and fills an Env from
// them.
package modellist
