package ui

import (
	"context"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"runnel/session/tools"
	"runnel/ui/graphics"
)

// ErrInterrupted is what Run returns when a SIGINT from outside ended the
// chat (ctrl+c itself arrives as a key). The session is saved as on quit.
var ErrInterrupted = tea.ErrInterrupted

// Run runs the chat until the user quits.
func Run(ctx context.Context, o Options) (Result, error) {
	if os.Getenv("NO_COLOR") != "" {
		o.NoColor = true
	}
	if !o.NoColor { // the placeholders that draw images are coloured
		o.Graphics = graphics.Detect(os.Getenv, func() string { return graphics.TmuxPassthrough(tools.ChildEnv(o.secretEnv())) })
	}
	m := New(ctx, o)
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if o.Input != nil {
		opts = append(opts, tea.WithInput(o.Input))
	}
	if o.Output != nil {
		opts = append(opts, tea.WithOutput(o.Output))
	}
	_, err := tea.NewProgram(m, opts...).Run()
	m.shutdown()
	var out io.Writer = os.Stdout
	if o.Output != nil {
		out = o.Output
	}
	m.items.freeImages(out)
	res := Result{LastAnswer: m.turns.conversation().LastAnswer(), SessionID: m.history.id()}
	if err == tea.ErrProgramKilled && ctx.Err() != nil {
		return res, nil
	}
	return res, err
}
