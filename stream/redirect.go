package stream

import "runnel/stream/httppolicy"

// RedirectError is a redirect to another origin that the client refused:
// nothing was sent there. The rule is the HTTP policy's (package
// httppolicy), the same for every request runnel makes.
type RedirectError = httppolicy.RedirectError
