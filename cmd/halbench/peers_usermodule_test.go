package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gohal/gohal/internal/testexec"
)

// TestPeersFromUserModule is issue 39 item 5: run as `go tool halbench`
// from a user's module, peers finds lab/peers in the clone the user's
// replace names; where gohal's directory has none (a module download
// leaves nested modules out), it says in one line what to do and exits 2.
func TestPeersFromUserModule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	if testexec.Emulated() {
		t.Skip("runs the host's go command: under qemu-user a fork can hang (lab/internal/hosttool)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	userModule := func(gohalDir string) string {
		dir := t.TempDir()
		mod := "module example.com/user\n\ngo 1.24\n\nrequire github.com/gohal/gohal v0.0.0\n\nreplace github.com/gohal/gohal => " + gohalDir + "\n"
		writeFile(t, filepath.Join(dir, "go.mod"), mod)
		return dir
	}
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")

	t.Chdir(userModule(root))
	if got, err := findPeersDir(); err != nil || got != filepath.Join(root, "lab", "peers") {
		t.Errorf("from a module replacing gohal with this clone: findPeersDir() = %q, %v; want %s", got, err, filepath.Join(root, "lab", "peers"))
	}

	fake := t.TempDir() // gohal as a module download has it: no lab/peers
	writeFile(t, filepath.Join(fake, "go.mod"), "module github.com/gohal/gohal\n\ngo 1.24\n")
	t.Chdir(userModule(fake))
	code, out, errs := runPeersTest(t)
	lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	if code != 2 || out != "" || len(lines) != 1 ||
		!strings.Contains(errs, "no peers module") || !strings.Contains(errs, "-dir CLONE/lab/peers") {
		t.Errorf("peers from a module without lab/peers: exit %d, stdout %q, stderr %q; want exit 2 and one line saying to pass -dir", code, out, errs)
	}
}
