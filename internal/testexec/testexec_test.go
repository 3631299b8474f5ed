package testexec

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestArgv(t *testing.T) {
	t.Setenv(Env, "")
	if got := Argv("/bin/x", "-a"); !slices.Equal(got, []string{"/bin/x", "-a"}) || Emulated() {
		t.Errorf("natively: Argv = %q, Emulated %v", got, Emulated())
	}
	t.Setenv(Env, " qemu-s390x  -cpu z13 ")
	if got := Argv("/bin/x", "-a"); !slices.Equal(got, []string{"qemu-s390x", "-cpu", "z13", "/bin/x", "-a"}) || !Emulated() {
		t.Errorf("under %s: Argv = %q, Emulated %v", os.Getenv(Env), got, Emulated())
	}
	if got := Self("-test.v").Args; !slices.Equal(got, []string{"qemu-s390x", "-cpu", "z13", os.Args[0], "-test.v"}) {
		t.Errorf("Self: %q", got)
	}
}

// recorder is a testing.TB that records the first Skipf or Fatalf, which
// would stop the test, and goes on.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Skipf(format string, args ...any) {
	if r.skipped == "" && r.failed == "" {
		r.skipped = fmt.Sprintf(format, args...)
	}
}

func (r *recorder) Fatalf(format string, args ...any) {
	if r.skipped == "" && r.failed == "" {
		r.failed = fmt.Sprintf(format, args...)
	}
}

// A file the kernel cannot execute (no ELF header, no #!) fails with
// ENOEXEC as another architecture's binary does: skipped, with the way to
// run it, natively; a failure where GOHAL_TEST_EXEC was meant to run it.
func TestUnrunnable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "foreign.test")
	if err := os.WriteFile(path, []byte("\x7fELF but not really"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(Env, "")
	err := Command(path).Run()
	if !Unrunnable(err) {
		t.Fatalf("running a non-program: %v, not ENOEXEC", err)
	}
	r := &recorder{TB: t}
	Run(r, Command(path))
	if !strings.Contains(r.skipped, Env) || r.failed != "" {
		t.Errorf("natively: skipped %q, failed %q; want a skip naming %s", r.skipped, r.failed, Env)
	}
	t.Setenv(Env, path) // an emulator that cannot run here itself
	r = &recorder{TB: t}
	Run(r, Command(path))
	if r.skipped != "" || !strings.Contains(r.failed, Env) {
		t.Errorf("with %s set: skipped %q, failed %q; want a failure", Env, r.skipped, r.failed)
	}
	r = &recorder{TB: t}
	SkipUnrunnable(r, fmt.Errorf("exit status 1"))
	if r.skipped != "" || r.failed != "" {
		t.Errorf("another error: skipped %q, failed %q; want neither", r.skipped, r.failed)
	}
}

func TestRunExitCode(t *testing.T) {
	t.Setenv(Env, "")
	out, errOut, code := Run(t, Command("/bin/sh", "-c", "echo out; echo err >&2; exit 3"))
	if out != "out\n" || errOut != "err\n" || code != 3 {
		t.Errorf("Run = %q, %q, %d; want out, err, 3", out, errOut, code)
	}
}

// TestBuildCommandTarget checks that the go command BuildCommand returns
// builds for GOHAL_TEST_GOARCH where set, and for the test's GOARCH where
// not: go env GOARCH answers what a build would target.
func TestBuildCommandTarget(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for _, set := range []string{"", "s390x"} {
		t.Setenv(GOARCHEnv, set)
		want := set
		if want == "" {
			want = runtime.GOARCH
		}
		out, err := BuildCommand(goCmd, "env", "GOARCH").Output()
		if got := strings.TrimSpace(string(out)); err != nil || got != want || TargetGOARCH() != want {
			t.Errorf("%s=%q: go env GOARCH = %q (%v), TargetGOARCH %q; want %q", GOARCHEnv, set, got, err, TargetGOARCH(), want)
		}
	}
}
