package refcount

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestVetReportsCopies runs go vet on testdata/copies, which copies a
// Count by value, and checks that the copylocks check reports it (issue 10
// item 3: it went unreported).
func TestVetReportsCopies(t *testing.T) {
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
	if want := "copies lock value: github.com/gohal/gohal/refcount.Count contains "; !strings.Contains(string(out), want) {
		t.Errorf("go vet did not report the copy of Count (want %q):\n%s", want, out)
	}
}
