package gohal_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// readmeBlock returns the body of the first fenced block of the given
// language that starts after marker in the README.
func readmeBlock(t *testing.T, readme, marker, lang string) string {
	t.Helper()
	i := strings.Index(readme, marker)
	if i < 0 {
		t.Fatalf("README.md has no %q", marker)
	}
	open := "```" + lang + "\n"
	j := strings.Index(readme[i:], open)
	if j < 0 {
		t.Fatalf("README.md has no ```%s block after %q", lang, marker)
	}
	body := readme[i+j+len(open):]
	k := strings.Index(body, "```")
	if k < 0 {
		t.Fatalf("unterminated ```%s block after %q", lang, marker)
	}
	return body[:k]
}

// TestREADMEFirstProgram does what the README's "A first program" tells a
// new user to do, in a fresh module outside this one: the two dependency
// commands (with ../gohal replaced by this checkout), then go run of the
// program, whose output must be the one the README shows. It runs the
// program once more under the GOHAL line the README gives for this GOARCH
// (section "Overriding the choice"), which must be accepted.
func TestREADMEFirstProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module; skipped in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeBlock(t, readme, "## A first program", "sh")
	program := readmeBlock(t, readme, "<!-- first-program", "go")
	want := readmeBlock(t, readme, "<!-- first-program", "text")

	dir := t.TempDir()
	run := func(env []string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(nil, gobin, "mod", "init", "example.com/first")
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(cmds), "\n") {
		f := strings.Fields(strings.ReplaceAll(line, "../gohal", root))
		if len(f) == 0 || f[0] != "go" {
			t.Fatalf("README command %q: want a go command", line)
		}
		run(nil, gobin, f[1:]...)
	}
	if got := run(nil, gobin, "run", "."); got != want {
		t.Errorf("first program printed %q, README says %q", got, want)
	}

	m := regexp.MustCompile(`(?m)^(GOHAL=\S+) \./yourprogram +# ` + runtime.GOARCH + `\b`).FindStringSubmatch(readme)
	if m == nil {
		t.Skipf("README shows no GOHAL line for %s", runtime.GOARCH)
	}
	if got := run([]string{m[1]}, gobin, "run", "."); got != want {
		t.Errorf("with %s the program printed %q, want %q", m[1], got, want)
	}
}
