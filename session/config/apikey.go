package config

// This file finds the API key: api_key_command's output if one is set, else
// the variable named by api_key_env (Settings.APIKey, resolved in
// settings.go). Neither the command's text nor its output ever appears in
// an error.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"runnel/session/tools"
)

// api_key_command's bounds.
const (
	keyCommandTimeout = 10 * time.Second
	keyCommandMaxOut  = 64 << 10 // bytes of stdout kept; a key is far shorter
)

// Command is a program to run, as an argv. In TOML it is either an array of
// strings (the argv itself) or one string, which runs as `sh -c STRING`. An
// empty string or array means "no command".
type Command []string

// UnmarshalText reads the string form: a shell command line.
// go-toml hands it the text of a number or boolean too: those are
// refused, as no program is named "5" or "true".
func (c *Command) UnmarshalText(b []byte) error {
	if _, err := strconv.ParseFloat(strings.ReplaceAll(string(b), "_", ""), 64); err == nil || string(b) == "true" || string(b) == "false" {
		return fmt.Errorf("%q is not a command; want a string or an array of strings", b)
	}
	if strings.TrimSpace(string(b)) == "" {
		*c = nil
		return nil
	}
	*c = Command{"sh", "-c", string(b)}
	return nil
}

// String shows the command as the user wrote it, for messages.
func (c Command) String() string {
	if len(c) == 3 && c[0] == "sh" && c[1] == "-c" {
		return c[2]
	}
	return strings.Join(c, " ")
}

// APIKeyEnv is the environment variable the key is read from:
// provider.api_key_env, else OPENAI_API_KEY.
func (c Config) APIKeyEnv() string { return first(c.Provider.APIKeyEnv, DefaultAPIKeyEnv) }

// resolveKey finds the API key: the command's output if a command is set,
// else the environment variable. Errors never include the key or the
// command's output.
func resolveKey(p Profile, env func(string) string, hidden []string) (key, source string, err error) {
	if len(p.APIKeyCommand) > 0 {
		key, err := runKeyCommand(context.Background(), p.APIKeyCommand, keyCommandTimeout, hidden)
		if err != nil {
			if k := p.keyName(); k != "provider.api_key_command" {
				err = errors.New(strings.Replace(err.Error(), "provider.api_key_command", k, 1))
			}
			return "", "", err
		}
		return key, "api_key_command", nil
	}
	name := p.APIKeyEnv
	if name == "" {
		return "", "", nil // the provider takes no key
	}
	key = strings.TrimSpace(env(name))
	if key == "" {
		return "", "", nil
	}
	if !validKey(key) {
		return "", "", fmt.Errorf("$%s holds spaces, line breaks or control characters inside the key; set it to the key alone", name)
	}
	return key, "env " + name, nil
}

// runKeyCommand runs cmd and returns its stdout, trimmed. The command gets
// no stdin, the environment of every child (tools.ChildEnv, without the
// variables in hidden), and its stderr is discarded: its output may hold
// secrets, so errors name only the command and how it ended.
func runKeyCommand(ctx context.Context, cmd Command, timeout time.Duration, hidden []string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	x := exec.CommandContext(ctx, cmd[0], cmd[1:]...)
	x.Env = tools.ChildEnv(hidden)
	var out cappedBuffer
	x.Stdout = &out
	x.WaitDelay = time.Second // a grandchild holding stdout open must not hang us
	err := x.Run()
	// The command's text may hold a secret (a key written inline), and so
	// may its output: messages name the config key, and at most the
	// program's name when it cannot be started.
	const name = "provider.api_key_command"
	var exitErr *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("%s did not finish within %s", name, timeout)
	case errors.As(err, &exitErr):
		how := fmt.Sprintf("exit status %d", exitErr.ExitCode())
		if exitErr.ExitCode() < 0 {
			how = exitErr.ProcessState.String() // e.g. "signal: killed"
		}
		return "", fmt.Errorf("%s failed (%s); its output is hidden: run the command in a shell to see why", name, how)
	case errors.Is(err, exec.ErrWaitDelay):
		// It exited successfully but left something holding stdout open:
		// what it printed is complete enough to use.
	case errors.Is(err, exec.ErrNotFound):
		return "", fmt.Errorf("%s: program %q not found; check the command's first word", name, filepath.Base(cmd[0]))
	case err != nil:
		return "", fmt.Errorf("%s could not start (%s)", name, startFailure(err))
	}
	if out.overflow {
		return "", fmt.Errorf("%s printed more than %d KiB; it must print only the key", name, keyCommandMaxOut>>10)
	}
	key := strings.TrimSpace(out.String())
	switch {
	case key == "":
		return "", fmt.Errorf("%s printed nothing; it must print the key", name)
	case strings.ContainsAny(key, "\r\n"):
		return "", fmt.Errorf("%s printed more than one line; it must print only the key (e.g. append \"| head -n1\")", name)
	case !validKey(key):
		return "", fmt.Errorf("%s printed spaces or control characters inside the key; it must print only the key", name)
	}
	return key, nil
}

// startFailure says why a program could not start, without its path or
// arguments.
func startFailure(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return "cannot run it"
}

// cappedBuffer keeps the first keyCommandMaxOut bytes written to it and
// notes whether more came. It never fails a write, so the child is not
// killed by a broken pipe halfway through. (The buffer is a field, not
// embedded: an embedded bytes.Buffer's ReadFrom would let io.Copy bypass
// Write and the cap.)
type cappedBuffer struct {
	buf      bytes.Buffer
	overflow bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := keyCommandMaxOut - b.buf.Len(); len(p) > room {
		b.overflow = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *cappedBuffer) String() string { return b.buf.String() }

// validKey reports whether a key can go in an Authorization header as is.
func validKey(key string) bool {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c <= ' ' || c == 0x7f {
			return false
		}
	}
	return true
}
