package gohal_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// A readmeStep is one thing the README's "A first program" tells a user to
// do, in the README's order: run a command, write a file, or read what the
// last command printed.
type readmeStep struct {
	kind string   // "run", "write" or "output"
	args []string // run: the command line, split into fields
	file string   // write: the file name the prose before the block gives
	body string   // write: the file's contents; output: the text shown
}

// readmeSection returns the README's section that starts with the heading
// line, up to the next heading of the same level.
func readmeSection(t *testing.T, readme, heading string) string {
	t.Helper()
	i := strings.Index(readme, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("README.md has no %q heading", heading)
	}
	s := readme[i+1+len(heading)+1:]
	if j := strings.Index(s, "\n## "); j >= 0 {
		s = s[:j+1]
	}
	return s
}

var (
	fenceRE  = regexp.MustCompile("(?s)```([a-z]*)\n(.*?)```")
	goFileRE = regexp.MustCompile("`([A-Za-z0-9_./-]+\\.go)`")
)

// firstProgramSteps turns the section's fenced blocks, in order, into steps:
// each line of a ```sh block is a command, a ```go block is written to the
// file the prose just before it names in backquotes (the last such name), and
// a ```text block is what the command before it prints.
func firstProgramSteps(t *testing.T, section string) []readmeStep {
	t.Helper()
	var steps []readmeStep
	prev := 0
	for _, m := range fenceRE.FindAllStringSubmatchIndex(section, -1) {
		prose := section[prev:m[0]]
		prev = m[1]
		lang, body := section[m[2]:m[3]], section[m[4]:m[5]]
		switch lang {
		case "sh":
			for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
				if f := strings.Fields(line); len(f) > 0 {
					steps = append(steps, readmeStep{kind: "run", args: f})
				}
			}
		case "go":
			names := goFileRE.FindAllStringSubmatch(prose, -1)
			if len(names) == 0 {
				t.Fatalf("README: the ```go block of \"A first program\" follows no `name.go` saying where to write it; prose before it:\n%s", prose)
			}
			steps = append(steps, readmeStep{kind: "write", file: names[len(names)-1][1], body: body})
		case "text":
			steps = append(steps, readmeStep{kind: "output", body: body})
		default:
			t.Fatalf("README: \"A first program\" has a ```%s block; want sh, go or text", lang)
		}
	}
	return steps
}

// TestREADMEFirstProgramOrder checks, without building anything, that the
// steps of "A first program" can work when pasted in order: the module is
// made first, every file is written before go mod tidy runs (tidy drops a
// requirement nothing imports yet, and go run then fails), and the output
// shown follows a go run.
func TestREADMEFirstProgramOrder(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	steps := firstProgramSteps(t, readmeSection(t, string(raw), "## A first program"))
	if len(steps) == 0 || steps[0].kind != "run" || len(steps[0].args) != 4 ||
		steps[0].args[0] != "go" || steps[0].args[1] != "mod" || steps[0].args[2] != "init" {
		t.Fatalf("README: \"A first program\" must start with go mod init MODULE; its steps: %+v", steps)
	}
	var writes, outputs int
	var tidied bool
	var last readmeStep
	for _, s := range steps {
		switch s.kind {
		case "write":
			writes++
			if tidied {
				t.Errorf("README writes %s after go mod tidy: tidy drops the require of a module nothing imports yet, and go run then fails", s.file)
			}
		case "run":
			if s.args[0] != "go" {
				t.Errorf("README command %q: want a go command", strings.Join(s.args, " "))
			}
			if len(s.args) >= 3 && s.args[1] == "mod" && s.args[2] == "tidy" {
				tidied = true
			}
		case "output":
			outputs++
			if last.kind != "run" || len(last.args) < 2 || last.args[1] != "run" {
				t.Errorf("README shows output after %+v; want it after a go run", last)
			}
		}
		last = s
	}
	if writes == 0 || outputs == 0 {
		t.Errorf("README: \"A first program\" writes %d files and shows %d outputs; want at least one of each", writes, outputs)
	}
}

// TestREADMEFirstProgram does what the README's "A first program" tells a
// new user to do, step by step in the README's order, in an empty directory
// outside this module (with ../gohal replaced by this checkout): each
// command of its sh blocks, the program written to the file it names, and
// each output compared with what the command before it printed. It then runs
// the program once more under the GOHAL line docs/variants.md gives for
// this GOARCH (section "Overriding the choice"), which must be accepted.
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
	steps := firstProgramSteps(t, readmeSection(t, readme, "## A first program"))

	dir := t.TempDir()
	run := func(env []string, args ...string) string {
		t.Helper()
		cmd := exec.Command(gobin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("go %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
	var out, lastRun string
	for _, s := range steps {
		switch s.kind {
		case "run":
			if s.args[0] != "go" {
				t.Fatalf("README command %q: want a go command", strings.Join(s.args, " "))
			}
			args := make([]string, 0, len(s.args)-1)
			for _, a := range s.args[1:] {
				args = append(args, strings.ReplaceAll(a, "../gohal", root))
			}
			lastRun = strings.Join(s.args, " ")
			out = run(nil, args...)
		case "write":
			if err := os.WriteFile(filepath.Join(dir, s.file), []byte(s.body), 0o644); err != nil {
				t.Fatal(err)
			}
		case "output":
			if out != s.body {
				t.Errorf("%s printed %q, README says %q", lastRun, out, s.body)
			}
		}
	}

	var want string
	for _, s := range steps {
		if s.kind == "output" {
			want = s.body
		}
	}
	variants, err := os.ReadFile(filepath.Join("docs", "variants.md"))
	if err != nil {
		t.Fatal(err)
	}
	override := readmeSection(t, string(variants), "## Overriding the choice")
	m := regexp.MustCompile(`(?m)^(GOHAL=\S+) \./yourprogram +# ` + runtime.GOARCH + `\b`).FindStringSubmatch(override)
	if m == nil {
		t.Skipf("docs/variants.md shows no GOHAL line for %s", runtime.GOARCH)
	}
	if got := run([]string{m[1]}, "run", "."); got != want {
		t.Errorf("with %s the program printed %q, want %q", m[1], got, want)
	}
}

// TestREADMEToolHalbench is issue 39 item 5: in a module made as "A first
// program" makes it (go mod init, then the require and replace of its
// go mod edit line), the commands of "halbench in your own module" make
// halbench a tool of the module, and go tool halbench runs it. Before the
// tool line, go run of the package stops at missing go.sum entries, as the
// section says.
func TestREADMEToolHalbench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds halbench in a module of its own; skipped in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	// The module: "A first program"'s go mod init and go mod edit lines.
	var steps []readmeStep
	for _, s := range firstProgramSteps(t, readmeSection(t, string(raw), "## A first program")) {
		if s.kind == "run" && len(s.args) >= 3 && s.args[1] == "mod" && (s.args[2] == "init" || s.args[2] == "edit") {
			steps = append(steps, s)
		}
	}
	if len(steps) != 2 {
		t.Fatalf("README: \"A first program\" has %d go mod init/edit lines, want 2: %+v", len(steps), steps)
	}
	tool := firstProgramSteps(t, readmeSection(t, string(raw), "## halbench in your own module"))
	if len(tool) == 0 {
		t.Fatal("README: \"halbench in your own module\" has no commands")
	}

	dir := t.TempDir()
	run := func(args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(gobin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	readmeRun := func(s readmeStep) string {
		t.Helper()
		if s.kind != "run" || s.args[0] != "go" {
			t.Fatalf("README step %+v: want a go command", s)
		}
		args := make([]string, 0, len(s.args)-1)
		for _, a := range s.args[1:] {
			args = append(args, strings.ReplaceAll(a, "../gohal", root))
		}
		out, err := run(args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(s.args, " "), err, out)
		}
		return out
	}
	for _, s := range steps {
		readmeRun(s)
	}
	if out, err := run("run", "github.com/gohal/gohal/cmd/halbench", "features"); err == nil || !strings.Contains(out, "missing go.sum entry") {
		t.Errorf("go run github.com/gohal/gohal/cmd/halbench before the tool line: %v, want missing go.sum entries:\n%s", err, out)
	}
	var out string
	for _, s := range tool {
		out = readmeRun(s)
	}
	if last := strings.Join(tool[len(tool)-1].args, " "); last != "go tool halbench features" ||
		!strings.Contains(out, "Features:") || !strings.Contains(out, runtime.GOARCH) {
		t.Errorf("the section's last command %q printed, want halbench's features:\n%s", last, out)
	}
}
