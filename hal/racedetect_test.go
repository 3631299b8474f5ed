package hal_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestRaceDetectorSeesHalOps builds testdata/racy with -race and checks that
// the detector reports the race between a plain write and each hal op. If
// hal's assembly were used under -race the detector would see nothing.
func TestRaceDetectorSeesHalOps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a -race binary; skipped in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	bin := t.TempDir() + "/racy"
	build := exec.Command(gobin, "build", "-race", "-o", bin, "./testdata/racy")
	if out, err := build.CombinedOutput(); err != nil {
		if strings.Contains(string(out), "-race is not supported") || strings.Contains(string(out), "requires cgo") {
			t.Skipf("race detector unavailable here: %s", out)
		}
		t.Fatalf("go build -race: %v\n%s", err, out)
	}
	for _, op := range []string{"load", "fetchadd", "cas", "store"} {
		out, err := exec.Command(bin, op).CombinedOutput()
		if err == nil {
			t.Errorf("%s: racy program exited 0; want the race detector's non-zero exit\n%s", op, out)
		}
		if !strings.Contains(string(out), "WARNING: DATA RACE") {
			t.Errorf("%s: race detector did not report the race:\n%s", op, out)
		}
	}
}
