// Package testexec runs a test's binary again, or one it built, through the
// emulator GOHAL_TEST_EXEC names.
//
// That is the way `go test -exec` ran the test. Under qemu-user without
// binfmt_misc a test binary built for another architecture cannot exec
// itself: the kernel refuses it with ENOEXEC ("exec format error").
// go test -exec leaves no trace the binary can read, so the emulator
// command, CPU model included, comes from GOHAL_TEST_EXEC (say
// GOHAL_TEST_EXEC="qemu-aarch64 -cpu cortex-a53", the same as -exec): a
// child on another CPU model would select other variants than its parent.
// Where it is unset and the program cannot run, the test skips and says
// so; where it is set and the program still cannot run, the test fails, so
// that CI's emulated runs cannot pass unseen.
package testexec

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// Env is the environment variable that names the emulator command.
const Env = "GOHAL_TEST_EXEC"

// GOARCHEnv is the environment variable that names the GOARCH of the
// programs a test builds with the go command, where it is not the test's.
const GOARCHEnv = "GOHAL_TEST_GOARCH"

// TargetGOARCH returns the GOARCH of the programs a test builds with the
// go command: GOHAL_TEST_GOARCH's where set, else the test's own.
//
// CI sets it to run such tests natively for an emulated GOARCH, the built
// program under GOHAL_TEST_EXEC, so that no emulated process forks the go
// command: qemu-user (7.2) now and then hangs in a fork from a
// multi-threaded emulated process, in the child before its exec.
func TargetGOARCH() string {
	if a := os.Getenv(GOARCHEnv); a != "" {
		return a
	}
	return runtime.GOARCH
}

// BuildCommand returns the go command goCmd with args, set to build for
// TargetGOARCH.
func BuildCommand(goCmd string, args ...string) *exec.Cmd {
	cmd := exec.Command(goCmd, args...)
	cmd.Env = append(os.Environ(), "GOARCH="+TargetGOARCH())
	return cmd
}

// Prefix returns the emulator command GOHAL_TEST_EXEC names, split into
// fields, or nil where the tests run natively.
func Prefix() []string { return strings.Fields(os.Getenv(Env)) }

// Emulated reports whether GOHAL_TEST_EXEC names an emulator: timings are
// the emulator's there, and system calls pass through it.
func Emulated() bool { return len(Prefix()) > 0 }

// Argv returns the command line that runs the program at path with args:
// the emulator's fields first, where GOHAL_TEST_EXEC names one.
func Argv(path string, args ...string) []string {
	return append(append(Prefix(), path), args...)
}

// Command returns a command that runs the program at path, built for
// TargetGOARCH, with args (see Argv).
func Command(path string, args ...string) *exec.Cmd {
	argv := Argv(path, args...)
	return exec.Command(argv[0], argv[1:]...)
}

// Self returns a command that runs the test binary itself again with args
// (-test.run=^TestHelper$, say).
func Self(args ...string) *exec.Cmd { return Command(os.Args[0], args...) }

// Unrunnable reports whether err says that a program could not start
// because the kernel cannot execute it (ENOEXEC: built for another
// architecture, run under an emulator).
func Unrunnable(err error) bool {
	return err != nil && (errors.Is(err, syscall.ENOEXEC) || strings.Contains(err.Error(), "exec format error"))
}

// SkipUnrunnable skips t where err says the program cannot run here and
// GOHAL_TEST_EXEC is unset, and fails it where GOHAL_TEST_EXEC is set
// and the program still cannot run; it does nothing for other errors.
func SkipUnrunnable(t testing.TB, err error) {
	t.Helper()
	if !Unrunnable(err) {
		return
	}
	if Emulated() {
		t.Fatalf("%s=%q cannot run the %s test binary: %v", Env, os.Getenv(Env), TargetGOARCH(), err)
	}
	t.Skipf("cannot run the %s test binary again (%v): it runs under an emulator (go test -exec); "+
		"set %s to the same command as -exec to run this test", TargetGOARCH(), err, Env)
}

// Run runs cmd and returns its standard output, standard error and exit
// code. It skips or fails t where the program cannot run (SkipUnrunnable)
// and fails t where it could not start for another reason.
func Run(t testing.TB, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	}
	SkipUnrunnable(t, err)
	t.Fatalf("running %v: %v", cmd.Args, err)
	return "", "", 0
}
