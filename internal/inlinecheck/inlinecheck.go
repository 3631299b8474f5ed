// Package inlinecheck is the tests' check that a package's fast paths
// inline.
//
// It compiles the package in the current directory with -gcflags=-m=2 and
// reads what the compiler says about each function.
package inlinecheck

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// Inlinable fails t for each of fns, named as the compiler names them
// ("(*TAS).Lock"), that the compiler cannot inline or says nothing about
// (a rename). It skips in -short and where no go command is on PATH.
func Inlinable(t *testing.T, fns ...string) {
	t.Helper()
	InlinableWith(t, nil, fns...)
}

// InlinableWith is Inlinable with more go build flags (a build's tags,
// "-tags=purego"), for fast paths that differ between builds.
func InlinableWith(t *testing.T, flags []string, fns ...string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the compiler; skipped in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	args := append(append([]string{"build"}, flags...), "-gcflags=-m=2", ".")
	out, err := exec.Command(gobin, args...).CombinedOutput()
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
	for _, fn := range fns {
		ok, seen := can[fn]
		switch {
		case !seen:
			t.Errorf("%s: the compiler said nothing about inlining it (renamed?)", fn)
		case !ok:
			t.Errorf("%s no longer inlines: %s", fn, why[fn])
		}
	}
}
