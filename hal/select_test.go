package hal_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/gohal/gohal/hal"
	"github.com/gohal/gohal/hal/haltool"
	"github.com/gohal/gohal/internal/testexec"
)

func TestSelectedNamesAVariantForEveryOp(t *testing.T) {
	sel := hal.Selected()
	if len(sel) != len(haltool.Ops()) {
		t.Fatalf("Selected has %d choices for %d ops", len(sel), len(haltool.Ops()))
	}
	for i, c := range sel {
		if c.Op != haltool.Ops()[i] {
			t.Fatalf("Selected()[%d] is op %q, want %q", i, c.Op, haltool.Ops()[i])
		}
		if ok, missing := haltool.Runnable(c.Op, c.Variant); !ok {
			t.Errorf("%s: selected variant %q is not runnable here (missing %q)", c.Op, c.Variant, missing)
		}
		if c.Reason == "" {
			t.Errorf("%s: no reason", c.Op)
		}
		if got := tableVariant(c.Op); got != c.Variant {
			t.Errorf("%s: Table says %q, Selected %q", c.Op, got, c.Variant)
		}
		t.Logf("%-15s %-13s %s", c.Op, c.Variant, c.Reason)
	}
}

// TestExpectedVariants checks, when the environment says what the CPU is
// (as the qemu runs in CI do: -cpu cortex-a53 lacks LSE, -cpu max has it),
// that dispatch really picked that path.
func TestExpectedVariants(t *testing.T) {
	want := ""
	switch os.Getenv("GOHAL_EXPECT_LSE") {
	case "":
		t.Skip("GOHAL_EXPECT_LSE not set")
	case "1":
		want = "lse"
	case "0":
		want = "llsc"
	default:
		t.Fatalf("GOHAL_EXPECT_LSE=%q: want 0 or 1", os.Getenv("GOHAL_EXPECT_LSE"))
	}
	if runtime.GOARCH != "arm64" || isPortable() {
		t.Skipf("GOHAL_EXPECT_LSE applies to the arm64 assembly build")
	}
	for _, c := range hal.Selected() {
		switch c.Op {
		case "fetchadd64", "cas64", "cas128", "cas32", "swap64", "spinlock32":
			if c.Variant != want {
				t.Errorf("%s selected %q (%s), want %q", c.Op, c.Variant, c.Reason, want)
			}
		}
	}
}

func isPortable() bool {
	for _, c := range hal.Selected() {
		if c.Variant != "portable" {
			return false
		}
	}
	return true
}

// TestHelperProcess is not a real test: the subprocess tests re-run the
// test binary with GOHAL set and this test selected. If hal's init accepts
// the override, it prints the selection and exits 0.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("GOHAL_TEST_HELPER") != "1" {
		t.Skip("helper for the subprocess tests")
	}
	for _, c := range hal.Selected() {
		fmt.Printf("%s=%s\n", c.Op, c.Variant)
	}
	os.Exit(0)
}

// runWithGOHAL re-runs the test binary with GOHAL=value. Under qemu-user
// without binfmt_misc the binary cannot exec itself: set GOHAL_TEST_EXEC to
// the emulator command (e.g. "qemu-aarch64 -cpu cortex-a53").
func runWithGOHAL(t *testing.T, value string) (stdout, stderr string, code int) {
	t.Helper()
	return runChild(t, "GOHAL="+value)
}

// runChild re-runs the test binary's helper with extra environment
// variables (see runWithGOHAL).
func runChild(t *testing.T, env ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := testexec.Self("-test.run=^TestHelperProcess$")
	cmd.Env = append(append(os.Environ(), "GOHAL_TEST_HELPER=1"), env...)
	return testexec.Run(t, cmd)
}

func TestGOHALOverrideErrors(t *testing.T) {
	type tc struct {
		value string
		words []string // each must appear in the single stderr line
	}
	cases := []tc{
		{"bogus=x", []string{"GOHAL", `"bogus"`}},
		{"fetchadd64=nope", []string{"GOHAL", `"fetchadd64"`, `"nope"`}},
		{"fetchadd64", []string{"GOHAL", "fetchadd64"}},
		{"fetchadd64=x,fetchadd64=y", []string{"GOHAL", "fetchadd64"}},
	}
	// Every variant compiled in that this CPU cannot run: on this amd64
	// VM cycles=rdtscp, on arm64 under qemu -cpu cortex-a53 the lse
	// variants (missing "atomics") and ldapr (missing "lrcpc").
	for _, op := range haltool.Ops() {
		vs, _ := haltool.Variants(op)
		for _, v := range vs {
			if ok, missing := haltool.Runnable(op, v.Name); !ok {
				cases = append(cases, tc{op + "=" + v.Name, []string{"GOHAL", `"` + op + `"`, `"` + v.Name + `"`, `"` + missing + `"`}})
			}
		}
	}
	for _, c := range cases {
		t.Run(c.value, func(t *testing.T) {
			stdout, stderr, code := runWithGOHAL(t, c.value)
			if code != 2 {
				t.Fatalf("exit status %d, want 2; stdout %q stderr %q", code, stdout, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if len(lines) != 1 || lines[0] == "" {
				t.Fatalf("stderr has %d lines, want 1: %q", len(lines), stderr)
			}
			for _, w := range c.words {
				if !strings.Contains(lines[0], w) {
					t.Errorf("stderr %q does not name %s", lines[0], w)
				}
			}
			if stdout != "" {
				t.Errorf("init went on to run tests: stdout %q", stdout)
			}
		})
	}
}

// TestGOHALOverrideAccepted forces the last (least preferred) runnable
// variant of every op with more than one, in one GOHAL value, and checks
// the child selected exactly that.
func TestGOHALOverrideAccepted(t *testing.T) {
	var items, want []string
	for _, op := range haltool.Ops() {
		vs, _ := haltool.Variants(op)
		for i := len(vs) - 1; i >= 1; i-- {
			if ok, _ := haltool.Runnable(op, vs[i].Name); ok {
				items = append(items, op+"="+vs[i].Name)
				want = append(want, op+"="+vs[i].Name)
				break
			}
		}
	}
	if len(items) == 0 {
		t.Skip("no op has a second runnable variant in this build")
	}
	stdout, stderr, code := runWithGOHAL(t, strings.Join(items, ","))
	if haltool.Binding(haltool.Ops()[0]) == haltool.Static {
		// A static build accepts no variant but the compiled-in one.
		if code != 2 || !strings.Contains(stderr, "static build") {
			t.Fatalf("static build: exit status %d, stderr %q; want 2 and a line naming the static build", code, stderr)
		}
		return
	}
	if code != 0 {
		t.Fatalf("exit status %d; stderr %q", code, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stdout, w+"\n") {
			t.Errorf("child did not select %s; it printed:\n%s", w, stdout)
		}
	}
}

// TestStaticBuildRefusesMissingFeature runs a gohal_static build on a CPU
// that lacks a feature one of its compiled-in variants needs, made so by
// GODEBUG=cpu.<feature>=off (which golang.org/x/sys/cpu, and so dispatch,
// honours for cx16 and atomics): init must exit with status 2 and one line
// naming the static build and the feature, never reach the instruction.
func TestStaticBuildRefusesMissingFeature(t *testing.T) {
	if haltool.Binding(haltool.Ops()[0]) != haltool.Static {
		t.Skip("not a gohal_static build")
	}
	off := ""
	for _, c := range hal.Selected() {
		vs, _ := haltool.Variants(c.Op)
		for _, r := range vs[c.Index].Requires {
			if r == "cx16" || r == "atomics" {
				off = r
			}
		}
	}
	if off == "" {
		t.Skip("no compiled-in variant needs a feature GODEBUG can turn off")
	}
	stdout, stderr, code := runChild(t, "GODEBUG=cpu."+off+"=off")
	if code != 2 {
		t.Fatalf("GODEBUG=cpu.%s=off: exit status %d, want 2; stdout %q stderr %q", off, code, stdout, stderr)
	}
	var line string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "gohal:") {
			line = l
		}
	}
	for _, w := range []string{"static build (gohal_static, ", `"` + off + `"`} {
		if !strings.Contains(line, w) {
			t.Errorf("stderr %q: no gohal line naming %s", stderr, w)
		}
	}
}
