package session

import "runnel/session/knob"

// Override is what a prompt file changes for one user turn (package knob).
type Override = knob.Override
