package hal_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
)

// A GOHAL override that is valid in an assembly build of this GOARCH names
// a variant the portable build (race, purego, a GOARCH without a backend)
// does not have: the child exits 2 with one line that names the build,
// what it supports ("portable"), and where the variant exists.
func TestGOHALPortableBuildNamesBuild(t *testing.T) {
	if haltool.Binding(haltool.Ops()[0]) != haltool.Portable {
		t.Skip("not the portable build")
	}
	// A variant this GOARCH's backend has, if it has one, and the
	// portable build lacks: the first in the spec (hal's table of every
	// backend's variants, in every build).
	op, v, valid := "fence", "mfence", false
	for _, o := range haltool.Ops() {
		for _, name := range hal.SpecVariants(runtime.GOARCH, o) {
			if !valid && name != "portable" {
				op, v, valid = o, name, true
			}
		}
	}
	_, stderr, code := runWithGOHAL(t, op+"="+v)
	if code != 2 {
		t.Fatalf("exit status %d, want 2; stderr %q", code, stderr)
	}
	line := strings.TrimSuffix(stderr, "\n")
	if strings.Contains(line, "\n") {
		t.Fatalf("stderr has several lines: %q", stderr)
	}
	want := []string{"GOHAL", `"` + op + `"`, `"` + v + `"`, `only variant is "portable"`}
	switch {
	case hal.RaceBuild:
		want = append(want, "race build (-race)", "in builds without -race")
	case hal.PuregoBuild:
		want = append(want, "purego build (-tags purego)", "in builds without -tags purego")
	default:
		want = append(want, "GOARCH="+runtime.GOARCH, "no gohal assembly backend")
	}
	if valid && (hal.RaceBuild || hal.PuregoBuild) {
		want = append(want, "is a variant of "+op+" on "+runtime.GOARCH)
	}
	for _, w := range want {
		if !strings.Contains(line, w) {
			t.Errorf("stderr %q does not say %q", line, w)
		}
	}
	t.Logf("%s", line)
}
