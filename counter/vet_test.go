package counter

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestVetReportsCopies runs go vet on testdata/copies, which copies each
// counter by value, and checks that the copylocks check reports every
// copy (issue 10 item 3: copies of CASLoop and FetchAdd went unreported).
// A copied counter is a second counter: adds to it are lost.
func TestVetReportsCopies(t *testing.T) {
	vetCopies(t, []string{"github.com/gohal/gohal/counter.CASLoop", "github.com/gohal/gohal/counter.FetchAdd", "github.com/gohal/gohal/counter.Striped", "github.com/gohal/gohal/counter.Adder"})
}

// vetCopies runs go vet on ./testdata/copies and checks that it reports a
// copy of each of the types named (with their package path).
func vetCopies(t *testing.T, types []string) {
	if testing.Short() {
		t.Skip("runs go vet: not in -short mode")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(goTool); err != nil {
		t.Skipf("no go tool: %v", err)
	}
	out, err := exec.Command(goTool, "vet", "./testdata/copies").CombinedOutput()
	if err == nil {
		t.Fatalf("go vet found nothing to report:\n%s", out)
	}
	for _, typ := range types {
		want := "copies lock value: " + typ + " contains "
		if !strings.Contains(string(out), want) {
			t.Errorf("go vet did not report the copy of %s (want %q):\n%s", typ, want, out)
		}
	}
}
