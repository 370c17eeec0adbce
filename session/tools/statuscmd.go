package tools

import (
	"context"
	"errors"
	"time"
)

// RunStatusCommand runs the status line's command ([status_line] command)
// the way a local function's command runs (runCommand): no shell, its own
// process group killed whole when timeout passes or ctx ends, stdout capped
// at MaxOutput, and the environment a function gets: the inherited one
// without the config's secrets (hiddenEnv, the API key's variables
// included). It returns what the command printed on stdout, also when it
// failed or was cut; err says why it did not end by itself.
func (c Config) RunStatusCommand(ctx context.Context, argv []string, timeout time.Duration) (string, error) {
	if len(argv) == 0 {
		return "", errors.New("no command")
	}
	r := runCommand(ctx, argv, "", ChildEnv(c.hiddenEnv(false, nil)), "", timeout, nil)
	switch {
	case r.StartErr != nil:
		return r.Stdout, r.StartErr
	case r.TimedOut:
		return r.Stdout, errors.New("timed out after " + timeout.String())
	case r.Cancelled:
		return r.Stdout, context.Canceled
	}
	return r.Stdout, nil
}
