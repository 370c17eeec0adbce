package stream

import (
	"errors"
	"net"
	"net/url"
	"strings"

	"runnel/stream/httppolicy"
)

// ConnProblem says, as the Responses client's own connection errors do,
// what went wrong reaching host and what to do, naming key (the config key
// that holds the address, such as an MCP server's url) where those name
// base_url. ok is false when err is not a failure to connect: no
// connection was refused, no name unknown, no TLS or network error.
func ConnProblem(host string, err error, key string) (line string, ok bool) {
	if err == nil {
		return "", false
	}
	if re := httppolicy.Cause(err); re != nil {
		return re.Error(), true
	}
	var (
		opErr  *net.OpError
		dnsErr *net.DNSError
		urlErr *url.Error
	)
	if !errors.As(err, &opErr) && !errors.As(err, &dnsErr) && !errors.As(err, &urlErr) {
		return "", false
	}
	ce, _ := newConnError(host, err).(*connError)
	if ce == nil {
		return "", false
	}
	hint := strings.NewReplacer("base_url / OPENAI_BASE_URL", key, "base_url", key).Replace(ce.hint)
	return ce.reason + " — " + hint, true
}
