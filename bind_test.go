package gohal_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/gohal/gohal/hal/haltool"
)

// goNames maps the ops of the Dispatch table to hal's exported functions.
var goNames = map[string]string{
	"fetchadd64": "FetchAddUint64", "cas64": "CompareAndSwapUint64", "swap64": "SwapUint64",
	"loadacquire64": "LoadAcquireUint64", "pause": "Pause", "cycles": "Cycles",
}

// TestInlineBindingIsInlined holds hal to its word: an op whose Binding is
// "inline" or "guarded" must be inlined into its callers (here, lab/suite's api
// bodies), and an op bound in assembly cannot be. It asks the compiler
// (go build -gcflags=-m) rather than trusting the generator.
func TestInlineBindingIsInlined(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler; skipped in -short")
	}
	if b := haltool.Binding("fetchadd64"); b == haltool.Static || b == haltool.Portable {
		t.Skipf("the child build would need this test's build tags (binding %q)", b)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(gobin, "build", "-gcflags=github.com/gohal/gohal/lab/suite=-m", "-o", "/dev/null",
		"./lab/suite").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	inlined := map[string]bool{}
	for _, m := range regexp.MustCompile(`inlining call to hal\.(\w+)`).FindAllStringSubmatch(string(out), -1) {
		inlined[m[1]] = true
	}
	checked := 0
	for op, fn := range goNames {
		switch haltool.Binding(op) {
		case haltool.Inline, haltool.Plain, haltool.Guarded:
			if !inlined[fn] {
				t.Errorf("%s is bound %q but hal.%s was not inlined into lab/suite", op, haltool.Binding(op), fn)
			}
			checked++
		case haltool.Flag, haltool.Single:
			if inlined[fn] {
				t.Errorf("%s is bound %q (assembly), yet the compiler reports inlining hal.%s", op, haltool.Binding(op), fn)
			}
		}
	}
	if !strings.Contains(string(out), "inlining call to") {
		t.Fatalf("no inlining reported at all:\n%s", out)
	}
	t.Logf("%d ops bound inline and inlined", checked)
}
