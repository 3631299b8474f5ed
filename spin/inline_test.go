package spin

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
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
	if testing.Short() {
		t.Skip("runs the compiler; skipped in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(gobin, "build", "-gcflags=-m=2", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m=2: %v\n%s", err, out)
	}
	can := map[string]bool{}
	why := map[string]string{}
	re := regexp.MustCompile(`: (can|cannot) inline (\(\*[A-Za-z]+\)\.[A-Za-z]+)(.*)`)
	for _, line := range strings.Split(string(out), "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			can[m[2]] = m[1] == "can"
			why[m[2]] = strings.TrimPrefix(m[3], ": ")
		}
	}
	for _, fn := range inlinedPaths {
		ok, seen := can[fn]
		switch {
		case !seen:
			t.Errorf("%s: the compiler said nothing about inlining it (renamed?)", fn)
		case !ok:
			t.Errorf("%s no longer inlines: %s", fn, why[fn])
		}
	}
}
