// Command halbench measures, on the machine it runs on, what every gohal
// choice costs.
//
// It times the binding modes of each op (inlined, direct, flag, table,
// closure, static, generic), the spin locks, refcounts and counters of the
// kit, all in cycles and nanoseconds, and compares result files with
// ministat's statistics.
//
// Usage:
//
//	halbench [run] [flags]       measure and report (the default)
//	halbench features [-json]    print the CPU's features and the dispatch table
//	halbench compare [flags] [FILE...]
//	                             compare samples like ministat (plain columns), or Go benchmark
//	                             files: a summary by the report's rule (-v: and ministat)
//	halbench tune [flags]        measure every variant of every op and print the GOHAL line for this machine
//	halbench peers [flags]       run the peers module: the kit against other libraries
//	halbench lockwait [flags]    how long Lock calls wait: each lock's wait distribution beside sync.Mutex's
//	                             (-rw: RLock and Lock of percpu.RWMutex beside sync.RWMutex)
//	halbench results [flags]     all of the above for this machine, as one Markdown file (results/<cpu>.md)
//
// Run `halbench -h` for the list of commands and `halbench CMD -h` for a
// command's flags. A bad flag or argument gets one line saying what is
// wrong and one pointing at the usage, and exit status 2, before anything
// is measured. Results go to standard output and progress to standard
// error: a status line on a terminal, else a line per section as it
// starts.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmd := "run"
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "-h" || a == "-help" || a == "--help":
			// The whole tool's usage: the subcommands; run's flags
			// are `halbench run -h`.
			fmt.Fprint(stderr, usage)
			return 0
		case len(a) > 0 && a[0] != '-':
			cmd, args = a, args[1:]
		}
	}
	if cmd == "help" { // usage is made from subcommands, so its entry cannot print it
		fmt.Fprint(stdout, usage)
		return 0
	}
	for _, c := range subcommands {
		if c.name == cmd {
			return c.run(args, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "halbench: unknown command %q\n%s", cmd, usage)
	return 2
}

// subcommands is what run dispatches, with usage's line for each, in the
// order usage prints them; help, last, is run's own case.
var subcommands = []struct {
	name, args, doc string
	run             func(args []string, stdout, stderr io.Writer) int
}{
	{"run", "[flags]", "measure and report (the default: halbench [flags])", runBench},
	{"features", "[-json]", "CPU features and the dispatch table", runFeatures},
	{"compare", "[flags] [FILE...]", "compare samples: ministat input, or Go benchmark files (a summary)", runCompare},
	{"tune", "[flags]", "measure each op's variants; print a GOHAL line", runTune},
	{"peers", "[flags]", "gohal against other libraries (runs the peers module)", runPeers},
	{"lockwait", "[flags]", "Lock wait latency per lock beside sync.Mutex (p50 ... max); -rw: RWMutex", runLockWait},
	{"results", "[-o FILE] [flags]", "everything for this machine, as Markdown (results/<cpu>.md)", runResults},
	{"help", "", "print this text", nil},
}

var usage = func() string {
	var b strings.Builder
	b.WriteString("usage: halbench [run] [flags]\n       halbench COMMAND [flags]\n\nCommands:\n")
	for _, c := range subcommands {
		fmt.Fprintf(&b, "  %-9s %-18s %s\n", c.name, c.args, c.doc)
	}
	b.WriteString(`
Run 'halbench COMMAND -h' for a command's flags ('halbench run -h' for the
default's). Typical uses:
  go run ./cmd/halbench                          the report (about a minute)
  go run ./cmd/halbench -format gobench > a.txt  samples for benchstat or halbench compare
  go run ./cmd/halbench -filter '^Lock/' -threads 1,2 -svg locks.svg
  go run ./cmd/halbench results                  this machine's results file (several minutes)
`)
	return b.String()
}()
