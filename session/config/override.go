package config

// This file applies -c key=value overrides: each one is a one-line TOML
// document decoded and validated like the file, so an unknown key, a value
// of the wrong type or one outside an enumeration gets the file's message,
// naming "-c key" where the file's would name file:line.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/pflag"
)

// overrideKey is a dotted key of bare TOML keys: what may stand left of
// "=" in an override.
var overrideKey = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)

// IsOverride reports whether arg has the form of an override, key=value
// with key a dotted bare key. The command line uses it to tell
// `-c key=value` from `-c` (continue) followed by another argument.
func IsOverride(arg string) bool {
	key, _, ok := strings.Cut(arg, "=")
	return ok && overrideKey.MatchString(key)
}

// fragmentName stands for the document name in messages about an override
// until it is replaced by "-c key".
const fragmentName = "\x00override"

// fragmentPlace matches the name and the line (and column) a fragment's
// message starts with.
var fragmentPlace = regexp.MustCompile("(?m)^\x00override(:[0-9]+)*")

// Override returns c with the overrides applied in order. Each is
// key=value; the value is read as a TOML value (a string, number, boolean,
// array or inline table) and, when it is not one, as a string, so
// `-c model=gpt-5` needs no quotes. Every error is one line naming the
// override ("-c reasoning.effort: ...").
//
// flagProvider is --provider ("" when not given): with the config's
// provider (as overridden so far) it is the provider in use, and an
// override of another provider's keys, which cannot apply, is refused,
// as is a suggestion of one.
func (c Config) Override(overrides []string, flagProvider string) (Config, error) {
	if len(overrides) == 0 {
		return c, nil
	}
	path := c.Path
	active := first(flagProvider, providerOverride(overrides), c.DefaultProviderName())
	for _, o := range overrides {
		key, value, ok := strings.Cut(o, "=")
		key = strings.TrimSpace(key)
		if !ok || !overrideKey.MatchString(key) {
			return Config{}, fmt.Errorf("-c %s: want key=value, with a config key such as model or reasoning.effort", quoteArg(o))
		}
		if err := overrideApplies(key, active); err != nil {
			return Config{}, err
		}
		doc := []byte(key + " = " + strings.TrimSpace(value))
		if strings.ContainsAny(value, "\r\n") || toml.Unmarshal(doc, new(map[string]any)) != nil {
			quoted, _ := json.Marshal(value) // a JSON string is a TOML basic string
			doc = []byte(key + " = " + string(quoted))
		}
		if _, err := parseConfig(doc, fragmentName); err != nil {
			return Config{}, suggestActive(renameFragment(err, "-c "+key), active)
		}
		// it is valid alone: decode it over what came before
		if err := toml.Unmarshal(doc, &c); err != nil {
			return Config{}, renameFragment(err, "-c "+key)
		}
	}
	// keys checked together (unique tool names, …)
	if err := c.validate("the config with its -c overrides", nil); err != nil {
		return Config{}, err
	}
	c.Path = path
	return c, nil
}

// providerOverride is the provider the last -c provider=NAME names, "" for
// none.
func providerOverride(overrides []string) string {
	name := ""
	for _, o := range overrides {
		if key, value, ok := strings.Cut(o, "="); ok && strings.TrimSpace(key) == "provider" {
			name = strings.Trim(strings.TrimSpace(value), `"'`)
		}
	}
	return name
}

// overrideApplies refuses an override of a provider's key for a provider
// not in use (active): it would change nothing.
func overrideApplies(key, active string) error {
	parts := strings.Split(key, ".")
	switch {
	case len(parts) >= 2 && parts[0] == "provider" && active != DefaultProvider:
		return fmt.Errorf("-c %s: the [provider] table is the %q provider's, and %q is in use; use -c providers.%s.%s=…",
			key, DefaultProvider, active, keyString([]string{active}), strings.Join(parts[1:], "."))
	case len(parts) >= 3 && parts[0] == "providers" && parts[1] != active:
		return fmt.Errorf("-c %s: provider %q is not in use (%q is), so this changes nothing; use -c providers.%s.%s=…, or --provider %s",
			key, parts[1], active, keyString([]string{active}), strings.Join(parts[2:], "."), parts[1])
	}
	return nil
}

// suggestActive rewrites a suggestion of a [provider] key in err as the
// key of the provider in use (active), where that is another.
func suggestActive(err error, active string) error {
	if active == DefaultProvider {
		return err
	}
	msg := strings.Replace(err.Error(), `did you mean "provider.`, `did you mean "providers.`+keyString([]string{active})+`.`, 1)
	return fmt.Errorf("%s", msg)
}

// renameFragment puts name where a fragment's messages say where they are.
func renameFragment(err error, name string) error {
	return fmt.Errorf("%s", fragmentPlace.ReplaceAllLiteralString(err.Error(), name))
}

// quoteArg quotes an argument for a message when it needs it.
func quoteArg(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"'\\") || !isPrintable(s) {
		return fmt.Sprintf("%q", s)
	}
	return s
}

func isPrintable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return false
		}
	}
	return true
}

// ExpandOverrides rewrites the command line so that each `-c key=value`
// (before a lone "--") becomes `--override=key=value`; a `-c` followed by
// anything else stays "continue the last session". A "-c" that is the value
// of the flag before it (`-p -c`) is left alone: sets are the flags of the
// command and its subcommands, which say which flags read a value.
func ExpandOverrides(args []string, sets ...*pflag.FlagSet) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i:]...)
		case a == "-c" && i+1 < len(args) && IsOverride(args[i+1]):
			out = append(out, "--override="+args[i+1])
			i++
			continue
		case strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && i+1 < len(args) && takesValue(a, sets):
			out = append(out, a, args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

// takesValue reports whether the flag tok names ("-p", "--model") in one of
// sets reads the next argument as its value.
func takesValue(tok string, sets []*pflag.FlagSet) bool {
	name := strings.TrimLeft(tok, "-")
	for _, set := range sets {
		f := set.Lookup(name)
		if !strings.HasPrefix(tok, "--") && name != "" {
			f = set.ShorthandLookup(name[len(name)-1:])
		}
		if f != nil {
			return f.NoOptDefVal == ""
		}
	}
	return false
}
