package spin

import (
	"testing"

	"github.com/gohal/gohal/internal/inlinecheck"
)

// inlinedPaths are the lock methods whose uncontended path is meant to
// inline into the caller, as sync.Mutex's Lock and Unlock do: each is a
// compare-and-swap, an add or a fetch-and-add and a test, calling out only
// when someone waits. A change that pushes one over the inliner's budget
// adds a call to every uncontended acquisition (issue 20.1: on a machine
// where a locked instruction costs a few cycles, the calls are what an
// uncontended lock costs).
var inlinedPaths = []string{
	"(*TAS).Lock", "(*TAS).TryLock", "(*TAS).Unlock",
	"(*TTAS).Lock", "(*TTAS).TryLock", "(*TTAS).Unlock",
	"(*Backoff).Lock", "(*Backoff).TryLock", "(*Backoff).Unlock",
	"(*Asm).Lock", "(*Asm).TryLock", "(*Asm).Unlock",
	"(*Ticket).Lock", "(*Ticket).TryLock",
	"(*MCS).Lock", "(*MCS).TryLock", "(*MCS).Unlock",
}

// TestUncontendedPathsInline compiles the package with -gcflags=-m=2 and
// checks that the compiler can inline every method in inlinedPaths.
func TestUncontendedPathsInline(t *testing.T) {
	inlinecheck.Inlinable(t, inlinedPaths...)
}
