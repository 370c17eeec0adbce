package config

// This file checks single values of the config and the flags: enumerations,
// base URLs, header names and values, environment variable names. Messages
// never repeat a value that may be a secret.

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// checkEnum returns an error naming v and the allowed values when v is not
// one of them.
func checkEnum(v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	return fmt.Errorf("%q is not allowed; use one of %s", v, strings.Join(quoted, ", "))
}

// checkBaseURL validates a base URL and returns it without a trailing
// slash. Messages redact any password in it.
func checkBaseURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", errors.New("not a valid URL; want one like \"https://api.openai.com/v1\"")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("%q must start with http:// or https://", u.Redacted())
	case u.Host == "":
		return "", fmt.Errorf("%q has no host", u.Redacted())
	case u.RawQuery != "" || u.Fragment != "":
		return "", fmt.Errorf("%q must not have a query or fragment", u.Redacted())
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// checkHeader validates an extra HTTP header. Its value may be a secret, so
// messages name only the header.
func checkHeader(name, value string) error {
	if name == "" {
		return errors.New("a header has an empty name")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return fmt.Errorf("header name %q is not a valid HTTP header name", name)
		}
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return fmt.Errorf("header %q has a line break or control character in its value", name)
		}
	}
	return nil
}

// validEnvName reports whether s can name an environment variable.
func validEnvName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
